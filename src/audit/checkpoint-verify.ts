/**
 * `govflow verify --key FILE.pub [--witness DIR]…` (docs/audit-log.md): every signed checkpoint,
 * the root's own and each witness's, is held against the chain (the logs', or in cluster mode the
 * store's: store-checkpoints.ts) and against the head record, which a cut may have rewritten.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { KeyObject } from 'node:crypto';
import { readHeadRecord } from './audit-chain-tail.js';
import { checkpointSignatureHolds, parseCheckpointLine, type Checkpoint } from './checkpoint-format.js';
import { checkpointsDir } from './checkpoint-writer.js';
import { readDeletions, readNames, type DeletionRecord } from './log-retention.js';

export interface CheckpointProblem {
  /** `file:line`, or a table row. */
  where: string;
  checkpoint: Checkpoint | null;
  detail: string;
}

export interface CheckpointVerifyResult {
  /** Checkpoints found to hold, the places read, and the newest that holds. */
  checked: number;
  sources: string[];
  firstProblem?: CheckpointProblem;
  newest: Checkpoint | null;
}

export interface CheckpointLine {
  where: string;
  line: string;
  /** The last line of an append-only file, which a crash mid-append may have cut. */
  mayBeTorn: boolean;
}

/** Where checkpoints are read from: the root's folder, a witness folder, or the store's table. */
export interface CheckpointSource {
  name: string;
  lines: () => Iterable<CheckpointLine>;
  /** Why the source cannot be read at all (a witness folder that does not exist), or null. */
  missing: string | null;
}

/** A folder of `YYYYMMDD.jsonl` files (the root's own, or a witness's, which must exist). */
export function folderSource(folder: string, options: { witness: boolean }): CheckpointSource {
  return {
    name: folder,
    missing: options.witness && !fs.existsSync(folder) ? `the witness folder ${folder} does not exist` : null,
    *lines() {
      for (const file of readNames(folder)
        .filter((name) => /^\d{8}\.jsonl$/.test(name))
        .sort()
        .map((name) => path.join(folder, name))) {
        const lines = fs.readFileSync(file, 'utf8').split('\n');
        for (let index = 0; index < lines.length; index++) {
          if (lines[index].trim() !== '')
            yield { where: `${file}:${index + 1}`, line: lines[index], mayBeTorn: index === lines.length - 1 };
        }
      }
    },
  };
}

export function describeCheckpoint(checkpoint: Checkpoint): string {
  return `checkpoint of ${checkpoint.day} (${checkpoint.entries} entries, signed ${checkpoint.at})`;
}

/** What the checkpoints are held against: the files' chain, or the one in Postgres (cluster mode). */
export type ChainKind = 'logs' | 'store';

/** A deletion record as read, with where it was read (a file's line, a table's row). */
export interface DeletionLine {
  where: string;
  line: string;
  record: DeletionRecord;
}

/**
 * Holds every checkpoint of every source against `hashes`, the chain's ENTRY_HASHes in order after
 * the entries retention deleted (`deletions`, each of which must be signed), up to the first that fails.
 */
export function holdCheckpoints(options: {
  sources: CheckpointSource[];
  publicKey: KeyObject;
  keyId: string;
  hashes: string[];
  chain: ChainKind;
  deletions: DeletionLine[];
}): CheckpointVerifyResult {
  const result: CheckpointVerifyResult = {
    checked: 0,
    sources: options.sources.map((source) => source.name),
    newest: null,
  };
  const unsigned = unsignedDeletion(options.deletions, options);
  if (unsigned !== null) return { ...result, firstProblem: unsigned };
  const start = options.deletions.at(-1)?.record;
  for (const source of options.sources) {
    if (source.missing !== null) {
      result.firstProblem = { where: source.name, checkpoint: null, detail: source.missing };
      return result;
    }
    for (const { where, line, mayBeTorn } of source.lines()) {
      const parsed = parseCheckpointLine(line);
      if (typeof parsed === 'string') {
        // A line cut by a crash mid-append is the last one of its file; anything else is damage.
        if (mayBeTorn) continue;
        result.firstProblem = { where, checkpoint: null, detail: `not a checkpoint (${parsed})` };
        return result;
      }
      const problem = checkOne(parsed, { ...options, ...(start && { start }) });
      if (problem !== null) {
        result.firstProblem = { where, checkpoint: parsed, detail: `${describeCheckpoint(parsed)}: ${problem}` };
        return result;
      }
      result.checked += 1;
      if (result.newest === null || parsed.entries > result.newest.entries) result.newest = parsed;
    }
  }
  return result;
}

/** Where the chain's `hashes` start: after the `entries` retention deleted, the last hashing to `hash`. */
type ChainStart = Pick<DeletionRecord, 'entries' | 'hash'>;

/** The first deletion record not signed by the key, or null: whoever deletes days without the key could cut any history. */
function unsignedDeletion(
  deletions: DeletionLine[],
  key: { publicKey: KeyObject; keyId: string },
): { where: string; checkpoint: null; detail: string } | null {
  for (const { where, line, record } of deletions) {
    const parsed = parseCheckpointLine(line);
    const problem =
      typeof parsed === 'string'
        ? 'it is not signed: days were deleted without the key (by hand, or before audit.signing_key was set)'
        : parsed.key !== key.keyId
          ? `it is signed by another key (${parsed.key.slice(0, 16)}…): it was forged or re-signed`
          : checkpointSignatureHolds(parsed, key.publicKey)
            ? null
            : 'the signature does not hold: the record was altered or forged';
    if (problem !== null)
      return { where, checkpoint: null, detail: `record of days deleted through ${record.day}: ${problem}` };
  }
  return null;
}

/** Files mode: the root's checkpoints and witnesses, then the head record. */
export function verifyCheckpoints(options: {
  logsDir: string;
  stateDir: string;
  witnesses: string[];
  publicKey: KeyObject;
  keyId: string;
  hashes: string[];
}): CheckpointVerifyResult {
  const sources = [
    folderSource(checkpointsDir(options.stateDir), { witness: false }),
    ...options.witnesses.map((folder) => folderSource(folder, { witness: true })),
  ];
  const result = holdCheckpoints({
    ...options,
    sources,
    chain: 'logs',
    deletions: readDeletions(options.logsDir).records,
  });
  if (result.firstProblem !== undefined) return result;
  const head = readHeadRecord(options.stateDir);
  if (head.state === 'ok' && result.newest !== null && head.record.entries < result.newest.entries) {
    result.firstProblem = {
      where: path.join(options.stateDir, 'audit-head.json'),
      checkpoint: result.newest,
      detail:
        `the head record says the chain has ${head.record.entries} entries, but the ${describeCheckpoint(result.newest)} names more: ` +
        `the head record was rewritten after entries were cut`,
    };
  }
  return result;
}

function checkOne(
  checkpoint: Checkpoint,
  options: { publicKey: KeyObject; keyId: string; hashes: string[]; chain: ChainKind; start?: ChainStart },
): string | null {
  if (checkpoint.key !== options.keyId)
    return `signed by another key (${checkpoint.key.slice(0, 16)}…, not ${options.keyId.slice(0, 16)}…): it was forged or re-signed`;
  if (!checkpointSignatureHolds(checkpoint, options.publicKey))
    return 'the signature does not hold: the checkpoint was altered or forged';
  const [holds, of] =
    options.chain === 'logs' ? ['the logs hold', 'the logs'] : ["the store's chain holds", "the store's chain"];
  // Checkpoints of days retention deleted: their entries are gone; the one at the cut names its hash.
  const offset = options.start?.entries ?? 0;
  if (checkpoint.entries < offset) return null;
  const total = offset + options.hashes.length;
  if (checkpoint.entries > total) {
    return `${holds} only ${total} entries: the last ${checkpoint.entries - total} were cut`;
  }
  const hash = checkpoint.entries === offset ? options.start?.hash : options.hashes[checkpoint.entries - offset - 1];
  if (checkpoint.entries > 0 && hash !== checkpoint.hash) {
    return `entry ${checkpoint.entries} of ${of} has another hash than the signed ${checkpoint.hash}: entries up to it were replaced`;
  }
  return null;
}
