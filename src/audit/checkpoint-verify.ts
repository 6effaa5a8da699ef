/**
 * `govflow verify --key FILE.pub [--witness DIR]…` (docs/audit-log.md): every signed checkpoint — the
 * root's own (`system/state/checkpoints/`) and each witness folder's — is held against the chain
 * the logs hold. A checkpoint fails when its signature does not hold for the key (forged, or
 * re-signed with another key), when it names more entries than the logs hold (entries were cut)
 * or another hash at its entry (entries or a whole day were replaced), or when the head record
 * says the chain is shorter than a checkpoint (the head was rewritten to match a cut). Cluster mode
 * holds the chain in Postgres against its checkpoint table and the witnesses the same way
 * (src/cluster/store-checkpoints.ts, `verify --store --key`).
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { KeyObject } from 'node:crypto';
import { readHeadRecord } from './audit-chain-tail.js';
import { checkpointSignatureHolds, parseCheckpointLine, type Checkpoint } from './checkpoint-format.js';
import { checkpointsDir } from './checkpoint-writer.js';

export interface CheckpointProblem {
  /** `file:line` of the checkpoint. */
  where: string;
  checkpoint: Checkpoint | null;
  detail: string;
}

export interface CheckpointVerifyResult {
  /** Checkpoints read and found to hold. */
  checked: number;
  /** Where they were read from (the root's folder, then each witness). */
  sources: string[];
  firstProblem?: CheckpointProblem;
  /** The newest checkpoint that holds (highest entry count). */
  newest: Checkpoint | null;
}

/** One line of a stream of checkpoints, and where it is (`file:line`, or a table row). */
export interface CheckpointLine {
  where: string;
  line: string;
  /** The last line of an append-only file: a crash mid-append may have cut it. */
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
      for (const file of checkpointFiles(folder)) {
        const lines = fs.readFileSync(file, 'utf8').split('\n');
        for (let index = 0; index < lines.length; index++) {
          if (lines[index].trim() !== '') yield { where: `${file}:${index + 1}`, line: lines[index], mayBeTorn: index === lines.length - 1 };
        }
      }
    },
  };
}

function checkpointFiles(folder: string): string[] {
  try {
    return fs
      .readdirSync(folder)
      .filter((name) => /^\d{8}\.jsonl$/.test(name))
      .sort()
      .map((name) => path.join(folder, name));
  } catch {
    return [];
  }
}

export function describeCheckpoint(checkpoint: Checkpoint): string {
  return `checkpoint of ${checkpoint.day} (${checkpoint.entries} entries, signed ${checkpoint.at})`;
}

/** What the checkpoints are held against: the files' chain, or the one in Postgres (cluster mode). */
export type ChainKind = 'logs' | 'store';

/**
 * Checks every checkpoint of every source against `hashes`, the chain's ENTRY_HASHes in order;
 * stops at the first that does not hold.
 */
export function holdCheckpoints(options: { sources: CheckpointSource[]; publicKey: KeyObject; keyId: string; hashes: string[]; chain: ChainKind }): CheckpointVerifyResult {
  const result: CheckpointVerifyResult = { checked: 0, sources: options.sources.map((source) => source.name), newest: null };
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
      const problem = checkOne(parsed, options);
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

/** Files mode: the root's checkpoints and each witness folder's against the logs, then the head record. */
export function verifyCheckpoints(options: { stateDir: string; witnesses: string[]; publicKey: KeyObject; keyId: string; hashes: string[] }): CheckpointVerifyResult {
  const sources = [folderSource(checkpointsDir(options.stateDir), { witness: false }), ...options.witnesses.map((folder) => folderSource(folder, { witness: true }))];
  const result = holdCheckpoints({ ...options, sources, chain: 'logs' });
  if (result.firstProblem !== undefined) return result;
  const head = readHeadRecord(options.stateDir);
  if (head.state === 'ok' && result.newest !== null && head.record.entries < result.newest.entries) {
    result.firstProblem = {
      where: path.join(options.stateDir, 'audit-head.json'),
      checkpoint: result.newest,
      detail: `the head record says the chain has ${head.record.entries} entries, but the ${describeCheckpoint(result.newest)} names more: the head record was rewritten after entries were cut`,
    };
  }
  return result;
}

function checkOne(checkpoint: Checkpoint, options: { publicKey: KeyObject; keyId: string; hashes: string[]; chain: ChainKind }): string | null {
  if (checkpoint.key !== options.keyId) return `signed by another key (${checkpoint.key.slice(0, 16)}…, not ${options.keyId.slice(0, 16)}…): it was forged or re-signed`;
  if (!checkpointSignatureHolds(checkpoint, options.publicKey)) return 'the signature does not hold: the checkpoint was altered or forged';
  const [holds, of] = options.chain === 'logs' ? ['the logs hold', 'the logs'] : ["the store's chain holds", "the store's chain"];
  if (checkpoint.entries > options.hashes.length) {
    return `${holds} only ${options.hashes.length} entries: the last ${checkpoint.entries - options.hashes.length} were cut`;
  }
  if (checkpoint.entries > 0 && options.hashes[checkpoint.entries - 1] !== checkpoint.hash) {
    return `entry ${checkpoint.entries} of ${of} has another hash than the signed ${checkpoint.hash}: entries up to it were replaced`;
  }
  return null;
}
