/**
 * `govflow verify`: recomputes every ENTRY_HASH in chain order and reports the FIRST entry that
 * does not hold. Entries cut from the end leave a valid but shorter chain: the head record exposes it.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { GENESIS_HASH, computeEntryHash } from './audit-entry-format.js';
import { type RawEntryBlock, parseEntryBlock, splitEntryBlocks } from './audit-entry-parse.js';
import { AuditLogFormatError } from './audit-errors.js';
import { readHeadRecord } from './audit-chain-tail.js';
import { listLogFiles } from './audit-log-reader.js';
import { ARCHIVE_FOLDER } from '../store/atomic-file.js';
import { listArchivedLogFiles, readDeletions } from './log-retention.js';
import { gunzipSync } from 'node:zlib';

export type AuditProblemReason =
  /** The entry does not hash to its ENTRY_HASH after the entry before it. */
  | 'hash-mismatch'
  /** The entry is intact but chains to another entry than the one before it. */
  | 'chain-break'
  /** The text between two `---` lines is not an entry this version writes. */
  | 'malformed'
  /** The file ends in an incomplete entry. */
  | 'torn'
  /** The logs end before the head record says they should. */
  | 'missing-entries'
  /** The logs' last entry is not the one the head record names. */
  | 'head-mismatch';

/** The first bad entry (or gap): its log file, 1-based line, and what is wrong for a person. */
export interface AuditProblem {
  file: string;
  line: number;
  messageId: string | null;
  reason: AuditProblemReason;
  detail: string;
}

export interface VerifyResult {
  ok: boolean;
  files: number;
  /** Entries checked (all of them when ok). */
  entries: number;
  firstProblem?: AuditProblem;
  /** Limits of what could be checked (no head record, a daemon writing). */
  warnings: string[];
  /** Where the chain starts when retention deleted its first days (`entries` and last `hash` deleted, through `day`). */
  deleted?: { day: string; entries: number; hash: string };
}

const MESSAGE_ID_LINE = /^\[MESSAGE_ID: (.*)\]$/m;

/** The entry an intact entry really chains to. Only called at the first failure, so a linear scan is fine. */
function findRealPredecessor(
  files: Array<{ fullPath: string; blocks: RawEntryBlock[] }>,
  body: string,
  stated: string,
  start: string,
): string | null {
  if (computeEntryHash(GENESIS_HASH, body) === stated) return 'the start of the chain (genesis)';
  if (computeEntryHash(start, body) === stated) return 'the last entry retention deleted';
  for (const file of files) {
    for (const block of file.blocks) {
      const candidate = /^\[ENTRY_HASH: ([0-9a-f]{64})\]$/.exec(block.lines.at(-1) ?? '')?.[1];
      if (candidate !== undefined && computeEntryHash(candidate, body) === stated)
        return `${file.fullPath}:${block.line}`;
    }
  }
  return null;
}

/** Checks the whole trail. Never throws for bad log content; it reports it. */
export async function verifyAuditChain(options: {
  logsDir: string;
  stateDir: string;
  /** Receives the ENTRY_HASH of every intact entry, in chain order (signed checkpoints are held against them). */
  hashes?: string[];
  /** A daemon is writing: an incomplete last entry is its work, not damage, and the logs may be ahead of the head record. */
  live?: boolean;
}): Promise<VerifyResult> {
  // The head record first: the writer makes entries durable before it advances the head, so logs
  // read after it hold at least what it names, however much is written meanwhile.
  const head = readHeadRecord(options.stateDir);
  const files = [];
  // The chain starts after the last day retention deleted.
  const deletions = readDeletions(options.logsDir);
  const start = deletions.records.at(-1)?.record ?? null;
  const deleted = start && { day: start.day, entries: start.entries, hash: start.hash };
  const offset = start?.entries ?? 0;
  // Archived days come first: they are older than every day still in logs/.
  const archived = listArchivedLogFiles(options.logsDir, start?.day ?? '').map((name) => ({
    name: `${name.slice(0, 8)}.log`,
    fullPath: path.join(options.logsDir, ARCHIVE_FOLDER, name),
  }));
  const current = listLogFiles(options.logsDir).map((name) => ({ name, fullPath: path.join(options.logsDir, name) }));
  for (const { name, fullPath } of [...archived, ...current]) {
    const raw = await fs.promises.readFile(fullPath);
    const text = (fullPath.endsWith('.gz') ? gunzipSync(raw) : raw).toString('utf8');
    files.push({ name, fullPath, lineCount: text.split('\n').length - 1, ...splitEntryBlocks(text) });
  }
  const warnings: string[] = [];
  const chain: Array<{ file: string; line: number; messageId: string; hash: string }> = [];
  const result = (firstProblem?: AuditProblem): VerifyResult => ({
    ok: firstProblem === undefined,
    files: files.length,
    entries: chain.length,
    ...(firstProblem && { firstProblem }),
    warnings,
    ...(deleted && { deleted }),
  });
  const problem = (file: string, line: number, messageId: string | null, reason: AuditProblemReason, detail: string) =>
    result({ file, line, messageId, reason, detail });

  if (deletions.problem !== null) {
    const { file, line, detail } = deletions.problem;
    return problem(file, line, null, 'malformed', `the record of days retention deleted is damaged: ${detail}`);
  }
  let previous = start?.hash ?? GENESIS_HASH;
  for (const file of files) {
    for (const block of file.blocks) {
      let entry;
      try {
        entry = parseEntryBlock(block);
      } catch (error) {
        if (!(error instanceof AuditLogFormatError)) throw error;
        const messageId = MESSAGE_ID_LINE.exec(block.lines.join('\n'))?.[1] ?? null;
        return problem(file.fullPath, block.line, messageId, 'malformed', `${error.message} (line ${error.line})`);
      }
      if (computeEntryHash(previous, entry.body) !== entry.hash) {
        const realPredecessor = findRealPredecessor(files, entry.body, entry.hash, start?.hash ?? GENESIS_HASH);
        return realPredecessor === null
          ? problem(
              file.fullPath,
              block.line,
              entry.messageId,
              'hash-mismatch',
              'the entry does not hash to its ENTRY_HASH after the entry before it: this entry was edited, or entries right before it were deleted',
            )
          : problem(
              file.fullPath,
              block.line,
              entry.messageId,
              'chain-break',
              `the entry is intact but chains to ${realPredecessor}, not to the entry before it: entries were reordered, inserted or deleted here`,
            );
      }
      chain.push({ file: file.fullPath, line: block.line, messageId: entry.messageId, hash: entry.hash });
      options.hashes?.push(entry.hash);
      previous = entry.hash;
    }
    if (file.torn !== null) {
      if (options.live === true && file === files.at(-1)) break; // the entry the daemon is writing now
      return problem(
        file.fullPath,
        file.torn.line,
        MESSAGE_ID_LINE.exec(file.torn.text)?.[1] ?? null,
        'torn',
        `the file ends in an incomplete entry (${file.torn.length} bytes): the file was truncated, ` +
          'or the daemon crashed mid-write and has not restarted yet (it cuts torn tails at start)',
      );
    }
  }

  if (options.live === true && chain.length > 0) {
    const last = chain.at(-1)!;
    warnings.push(
      `a daemon is writing: verified up to entry ${chain.length} (${path.basename(last.file)}:${last.line}, message ${last.messageId}); ` +
        `entries written after it were not read`,
    );
  }
  if (head.state !== 'ok') {
    if (chain.length > 0) {
      const why = head.state === 'missing' ? 'no audit head record' : `audit head record unreadable (${head.reason})`;
      warnings.push(`${why}: deleting the last entries would not be detectable`);
    }
    return result();
  }
  const record = head.record;
  if (record.entries > offset + chain.length) {
    const headFileExists = files.some((file) => file.name === record.file);
    const gapFile = headFileExists ? files.at(-1) : undefined;
    return problem(
      gapFile?.fullPath ?? path.join(options.logsDir, record.file),
      gapFile ? gapFile.lineCount + 1 : 1,
      record.message_id,
      'missing-entries',
      `the logs hold ${offset + chain.length} entries but the head record says ${record.entries}, the last being message ` +
        `${record.message_id} in ${record.file}${headFileExists ? '' : ' (that file is missing)'}: ` +
        `the last ${record.entries - offset - chain.length} entries were deleted`,
    );
  }
  const atHead = chain[record.entries - offset - 1];
  if (atHead === undefined) {
    return problem(
      path.join(options.logsDir, record.file),
      1,
      record.message_id,
      'head-mismatch',
      `the head record names entry ${record.entries}, but retention deleted the first ${offset} entries: the head record was rewritten`,
    );
  }
  if (atHead.hash !== record.hash) {
    return problem(
      atHead.file,
      atHead.line,
      atHead.messageId,
      'head-mismatch',
      `entry ${record.entries} should be message ${record.message_id} with hash ${record.hash} (head record), ` +
        'but the logs hold another entry there: the last entries were replaced',
    );
  }
  if (record.entries < offset + chain.length && options.live !== true) {
    warnings.push(
      `the head record is ${offset + chain.length - record.entries} entries behind the logs (a crash before it was updated); ` +
        'the daemon rebuilds it at its next start',
    );
  }
  return result();
}
