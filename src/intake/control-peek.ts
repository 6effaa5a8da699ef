/**
 * Telling a control file (docs/run-control.md) from a request at its claim, cheaply enough for a
 * flood, and claiming the controls dropped while no daemon ran at start, before crash recovery
 * resumes any session: a cancel applies before the session it stops would run again.
 */
import { closeSync, constants, openSync, readdirSync, readSync, renameSync } from 'node:fs';
import path from 'node:path';
import type { SystemPaths } from '../config/system-paths.js';
import { isPlainObject } from '../message/json-text.js';
import { claimNameFor } from './claim-name.js';
import { isIgnoredName, parseRequestFile } from './request-file.js';

/** Control files are small; a JSON claim up to this size is read at its claim to see whether it is one. */
const CONTROL_PEEK_BYTES = 65_536;
export const CONTROL_KEY = /"control"\s*:/;
const CONTROL_BYTES = Buffer.from('"control"');

/** Reused by every peek: reads are synchronous, so one buffer serves them all. */
const PEEK_BUFFER = Buffer.allocUnsafe(CONTROL_PEEK_BYTES + 1);

/**
 * The text of a claimed `.json` file small enough to be a control; '' for one that names no
 * "control"; null otherwise (a symlink, a folder, a larger file). One open and one read: it runs
 * for every JSON claim of a flood.
 */
export function peekControlText(claimedPath: string): string | null {
  if (!claimedPath.toLowerCase().endsWith('.json')) return null;
  let fd: number | null = null;
  try {
    fd = openSync(claimedPath, constants.O_RDONLY | constants.O_NOFOLLOW);
    const read = readSync(fd, PEEK_BUFFER, 0, PEEK_BUFFER.length, 0);
    // A larger file is no control: it waits for a slot like a request.
    if (read > CONTROL_PEEK_BYTES) return null;
    // Most claims are requests: they are told apart by their bytes, without decoding them.
    if (PEEK_BUFFER.subarray(0, read).indexOf(CONTROL_BYTES) === -1) return '';
    const text = PEEK_BUFFER.toString('utf8', 0, read);
    return CONTROL_KEY.test(text) ? text : '';
  } catch {
    return null; // a folder (EISDIR), a symlink (ELOOP), gone: not a control
  } finally {
    if (fd !== null) closeSync(fd);
  }
}

/** A JSON object with a "control" key: a control, even one too broken to apply. */
export function looksLikeControl(text: string): boolean {
  try {
    const document = JSON.parse(text) as unknown;
    return isPlainObject(document) && document.control !== undefined;
  } catch {
    return false;
  }
}

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
