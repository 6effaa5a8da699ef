/**
 * `govflow run` beside the root's daemon (README "One writer per root"): the request goes into its
 * inbox (under an ignored name, then renamed) and the run waits for its outbox result or its
 * failed/ error record. A daemon that stops before claiming it gives it back for the run to run.
 * In cluster mode the result is read from the store: a reply's may land at another root.
 */
import { existsSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { SystemPaths } from '../config/system-paths.js';
import type { ParsedReply, ParsedRequest } from '../intake/request-file.js';
import { randomBase36 } from '../intake/request-ids.js';
import { readDiskStatus } from '../store/status-file.js';
import type { ResultDocument } from '../pipeline/session-result.js';
import { RootLock, type RootOwner } from '../daemon/root-lock.js';
import { SessionJournal } from '../store/journal-reader.js';
import type { ResultSource } from '../store/session-reads.js';

const POLL_MS = 50;

export type HandoverOutcome =
  | { kind: 'result'; result: ResultDocument }
  | { kind: 'rejected'; reason: string }
  /** The daemon stopped before it claimed the request: nothing was handed over. */
  | { kind: 'daemon-gone' };

/** Files mode: the session's manifest and `system/outbox/<request_id>.json`. */
export function fileResults(paths: SystemPaths): ResultSource {
  return {
    requestIdOf: async (sessionId) => SessionJournal.readManifest(paths.sessions, sessionId)?.request_id ?? null,
    read: async (requestId) => readText(path.join(paths.outbox, `${requestId}.json`)),
  };
}

interface Waiting {
  inboxFile: string;
  resultId: string;
  errorFile: string;
  /** A result file already there (a paused session's) is the old one until its content changes. */
  previous: string | null;
}

function readText(file: string): string | null {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return null;
  }
}

/** The request file's content for the inbox: always JSON, so the result's request id is known. */
function inboxDocument(parsed: ParsedRequest | ParsedReply, requestId: string | null): Record<string, unknown> {
  if (parsed.kind === 'reply') return { session_id: parsed.sessionId, reply: parsed.reply };
  return {
    request: parsed.text,
    request_id: requestId,
    ...(parsed.sessionId ? { session_id: parsed.sessionId } : {}),
    ...(parsed.user ? { user: parsed.user } : {}),
    ...(parsed.metadata ? { metadata: parsed.metadata } : {}),
  };
}

/** Hands one request (under `requestId`) or reply to the root's daemon and waits for its outcome. */
export async function handOverToDaemon(
  paths: SystemPaths,
  owner: RootOwner,
  parsed: ParsedRequest | ParsedReply,
  requestId: string | null,
  notify: (line: string) => void,
  results: ResultSource = fileResults(paths),
): Promise<HandoverOutcome> {
  const resultId = parsed.kind === 'reply' ? await results.requestIdOf(parsed.sessionId) : requestId;
  if (resultId === null)
    return {
      kind: 'rejected',
      reason: `session "${(parsed as ParsedReply).sessionId}" does not exist; check the session_id`,
    };
  const name = `run-${process.pid}-${randomBase36(8)}.json`;
  const waiting: Waiting = {
    inboxFile: path.join(paths.inbox, name),
    resultId,
    errorFile: path.join(paths.failed, `${name}.error.json`),
    previous: await results.read(resultId),
  };
  const temporary = path.join(paths.inbox, `.${name}.tmp`);
  writeFileSync(temporary, `${JSON.stringify(inboxDocument(parsed, requestId))}\n`);
  renameSync(temporary, waiting.inboxFile);
  notify(`handed the request to the govflow daemon (pid ${owner.pid}) as system/inbox/${name}; waiting for its result`);
  const disk = readDiskStatus(paths);
  if (disk?.pid === owner.pid && disk.alarm) {
    notify(
      `the daemon's disk alarm is up (${disk.free_bytes} bytes free, below intake.min_free_bytes ${disk.min_free_bytes}): the request waits ` +
        `in the inbox until space is freed`,
    );
  }
  return waitForOutcome(paths, waiting, results);
}

async function waitForOutcome(paths: SystemPaths, waiting: Waiting, results: ResultSource): Promise<HandoverOutcome> {
  for (;;) {
    const result = await results.read(waiting.resultId);
    if (result !== null && result !== waiting.previous) {
      try {
        return { kind: 'result', result: JSON.parse(result) as ResultDocument };
      } catch {
        // Written atomically, so never half; a file edited by hand is read again.
      }
    }
    const rejection = rejectionReason(waiting);
    if (rejection !== null) return { kind: 'rejected', reason: rejection };
    if (RootLock.owner(paths.state)?.kind !== 'daemon' && existsSync(waiting.inboxFile)) {
      // Not claimed and the daemon is gone: take the request back (a failed rename means the
      // daemon claimed it after all; keep waiting for its result).
      try {
        rmSync(waiting.inboxFile);
        return { kind: 'daemon-gone' };
      } catch {
        /* claimed meanwhile */
      }
    }
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}

/** The reason the daemon gave when it moved the handed-over file to failed/, if it did. */
function rejectionReason(waiting: Waiting): string | null {
  const text = readText(waiting.errorFile);
  if (text === null) return null;
  try {
    return String((JSON.parse(text) as { reason?: unknown }).reason ?? 'rejected by the daemon');
  } catch {
    return null; // written atomically; read again at the next poll
  }
}
