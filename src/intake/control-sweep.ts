/**
 * Controls dropped while no daemon ran (docs/run-control.md) are claimed at start, before crash
 * recovery resumes any session: a cancel applies before the session it stops would run again.
 * Only whole control files are taken; anything else is left for the claimer.
 */
import { readdirSync, renameSync } from 'node:fs';
import path from 'node:path';
import type { SystemPaths } from '../config/system-paths.js';
import { claimNameFor } from './claim-name.js';
import { peekControlText } from './inbox-intake.js';
import { isIgnoredName, parseRequestFile } from './request-file.js';

/** Claims the inbox's control files into system/processing/; returns their claimed paths, oldest first. */
export function claimInboxControls(paths: SystemPaths, maxBytes: number): string[] {
  let names: string[];
  try {
    names = readdirSync(paths.inbox).filter((name) => !isIgnoredName(name) && name.toLowerCase().endsWith('.json'));
  } catch {
    return [];
  }
  const claimed: string[] = [];
  for (const name of names.sort()) {
    const inboxPath = path.join(paths.inbox, name);
    const text = peekControlText(inboxPath);
    if (text === null || parseRequestFile(name, Buffer.from(text, 'utf8'), maxBytes).kind !== 'control') continue;
    const claimedPath = path.join(path.resolve(paths.processing), claimNameFor(name));
    try {
      renameSync(inboxPath, claimedPath);
      claimed.push(claimedPath);
    } catch {
      // taken meanwhile: the claimer has it
    }
  }
  return claimed;
}
