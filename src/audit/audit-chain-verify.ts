/**
 * `govflow verify`: recomputes every ENTRY_HASH in chain order (day files oldest first, entries
 * in file order) and reports the FIRST entry that does not hold. Edits, deletions, insertions
 * and reorderings break the recomputed chain at the first affected entry; a truncated file shows
 * as a torn tail; deleting whole entries from the end (or the newest file) leaves a valid but
 * shorter chain, which the head record (audit-head.json) exposes.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { GENESIS_HASH, computeEntryHash } from './audit-entry-format.js';
import { type RawEntryBlock, parseEntryBlock, splitEntryBlocks } from './audit-entry-parse.js';
import { AuditLogFormatError } from './audit-errors.js';
import { readHeadRecord } from './audit-chain-tail.js';
import { listLogFiles } from './audit-log-reader.js';

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

export interface AuditProblem {
  /** Path of the log file (in `logsDir`). */
  file: string;
  /** 1-based line where the bad entry (or the gap) starts. */
  line: number;
  messageId: string | null;
  reason: AuditProblemReason;
  /** What is wrong and what it usually means, for a person. */
  detail: string;
}

export interface VerifyResult {
  ok: boolean;
  files: number;
  /** Entries checked (all of them when ok). */
  entries: number;
  firstProblem?: AuditProblem;
  /** Not failures, but limits of what could be checked (e.g. no head record). */
  warnings: string[];
}

interface LoadedFile {
  name: string;
  fullPath: string;
  lineCount: number;
  blocks: RawEntryBlock[];
  torn: ReturnType<typeof splitEntryBlocks>['torn'];
}

interface ChainedEntry {
  file: string;
  line: number;
  messageId: string;
  hash: string;
}

const MESSAGE_ID_LINE = /^\[MESSAGE_ID: (.*)\]$/m;

/** The stated hash of a block, read without full parsing (for locating a chain break). */
function statedHash(block: RawEntryBlock): string | null {
  const match = /^\[ENTRY_HASH: ([0-9a-f]{64})\]$/.exec(block.lines.at(-1) ?? '');
  return match ? match[1] : null;
}

/**
 * Where an intact entry's chain really continues from: the entry whose hash, with this body,
 * gives the stated hash. Only called once, at the first failure, so a linear scan is fine.
 */
function findRealPredecessor(files: LoadedFile[], body: string, stated: string): string | null {
  if (computeEntryHash(GENESIS_HASH, body) === stated) return 'the start of the chain (genesis)';
  for (const file of files) {
    for (const block of file.blocks) {
      const candidate = statedHash(block);
      if (candidate !== null && computeEntryHash(candidate, body) === stated) return `${file.fullPath}:${block.line}`;
    }
  }
  return null;
}

async function loadFiles(logsDir: string): Promise<LoadedFile[]> {
  const names = await listLogFiles(logsDir);
  const loaded: LoadedFile[] = [];
  for (const name of names) {
    const fullPath = path.join(logsDir, name);
    const text = await fs.promises.readFile(fullPath, 'utf8');
    const { blocks, torn } = splitEntryBlocks(text);
    loaded.push({ name, fullPath, lineCount: text.split('\n').length - 1, blocks, torn });
  }
  return loaded;
}

/** Checks the whole trail. Never throws for bad log content; it reports it. */
export async function verifyAuditChain(options: { logsDir: string; stateDir: string }): Promise<VerifyResult> {
  const files = await loadFiles(options.logsDir);
  const warnings: string[] = [];
  const chain: ChainedEntry[] = [];
  let previous = GENESIS_HASH;
  const fail = (problem: AuditProblem): VerifyResult => ({
    ok: false,
    files: files.length,
    entries: chain.length,
    firstProblem: problem,
    warnings,
  });

  for (const file of files) {
    for (const block of file.blocks) {
      let entry;
      try {
        entry = parseEntryBlock(block);
      } catch (error) {
        if (!(error instanceof AuditLogFormatError)) throw error;
        const messageId = MESSAGE_ID_LINE.exec(block.lines.join('\n'))?.[1] ?? null;
        return fail({
          file: file.fullPath,
          line: block.line,
          messageId,
          reason: 'malformed',
          detail: `${error.message} (line ${error.line})`,
        });
      }
      if (computeEntryHash(previous, entry.body) !== entry.hash) {
        const realPredecessor = findRealPredecessor(files, entry.body, entry.hash);
        return fail(
          realPredecessor === null
            ? {
                file: file.fullPath,
                line: block.line,
                messageId: entry.messageId,
                reason: 'hash-mismatch',
                detail:
                  'the entry does not hash to its ENTRY_HASH after the entry before it: ' +
                  'this entry was edited, or entries right before it were deleted',
              }
            : {
                file: file.fullPath,
                line: block.line,
                messageId: entry.messageId,
                reason: 'chain-break',
                detail:
                  `the entry is intact but chains to ${realPredecessor}, not to the entry before it: ` +
                  'entries were reordered, inserted or deleted here',
              },
        );
      }
      chain.push({ file: file.fullPath, line: block.line, messageId: entry.messageId, hash: entry.hash });
      previous = entry.hash;
    }
    if (file.torn !== null) {
      return fail({
        file: file.fullPath,
        line: file.torn.line,
        messageId: MESSAGE_ID_LINE.exec(file.torn.text)?.[1] ?? null,
        reason: 'torn',
        detail:
          `the file ends in an incomplete entry (${file.torn.length} bytes): the file was truncated, ` +
          'or the daemon crashed mid-write and has not restarted yet (it cuts torn tails at start)',
      });
    }
  }

  const head = readHeadRecord(options.stateDir);
  if (head.state !== 'ok') {
    if (chain.length > 0) {
      warnings.push(
        head.state === 'missing'
          ? 'no audit head record: deleting the last entries would not be detectable'
          : `audit head record unreadable (${head.reason}): deleting the last entries would not be detectable`,
      );
    }
    return { ok: true, files: files.length, entries: chain.length, warnings };
  }
  const record = head.record;
  const last = files.at(-1);
  if (record.entries > chain.length) {
    const headFileExists = files.some((file) => file.name === record.file);
    const gapFile = headFileExists || last === undefined ? last : undefined;
    return fail({
      file: gapFile?.fullPath ?? path.join(options.logsDir, record.file),
      line: gapFile ? gapFile.lineCount + 1 : 1,
      messageId: record.message_id,
      reason: 'missing-entries',
      detail:
        `the logs hold ${chain.length} entries but the head record says ${record.entries}, the last being message ` +
        `${record.message_id} in ${record.file}${headFileExists ? '' : ' (that file is missing)'}: ` +
        `the last ${record.entries - chain.length} entries were deleted`,
    });
  }
  const atHead = chain[record.entries - 1];
  if (atHead.hash !== record.hash) {
    return fail({
      file: atHead.file,
      line: atHead.line,
      messageId: atHead.messageId,
      reason: 'head-mismatch',
      detail:
        `entry ${record.entries} should be message ${record.message_id} with hash ${record.hash} (head record), ` +
        'but the logs hold another entry there: the last entries were replaced',
    });
  }
  if (record.entries < chain.length) {
    warnings.push(
      `the head record is ${chain.length - record.entries} entries behind the logs (a crash before it was updated); ` +
        'the daemon rebuilds it at its next start',
    );
  }
  return { ok: true, files: files.length, entries: chain.length, warnings };
}
