/**
 * `govflow verify --key FILE.pub [--witness DIR]…` (docs/audit-log.md): every signed checkpoint — the
 * root's own (`system/state/checkpoints/`) and each witness folder's — is held against the chain
 * the logs hold. A checkpoint fails when its signature does not hold for the key (forged, or
 * re-signed with another key), when it names more entries than the logs hold (entries were cut)
 * or another hash at its entry (entries or a whole day were replaced), or when the head record
 * says the chain is shorter than a checkpoint (the head was rewritten to match a cut).
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

function describe(checkpoint: Checkpoint): string {
  return `checkpoint of ${checkpoint.day} (${checkpoint.entries} entries, signed ${checkpoint.at})`;
}

/** Checks every checkpoint against `hashes`, the chain's ENTRY_HASHes in order as the logs hold them. */
export function verifyCheckpoints(options: { stateDir: string; witnesses: string[]; publicKey: KeyObject; keyId: string; hashes: string[] }): CheckpointVerifyResult {
  const sources = [checkpointsDir(options.stateDir), ...options.witnesses];
  const result: CheckpointVerifyResult = { checked: 0, sources, newest: null };
  for (const source of sources) {
    if (source !== sources[0] && !fs.existsSync(source)) {
      result.firstProblem = { where: source, checkpoint: null, detail: `the witness folder ${source} does not exist` };
      return result;
    }
    for (const file of checkpointFiles(source)) {
      const lines = fs.readFileSync(file, 'utf8').split('\n');
      for (let index = 0; index < lines.length; index++) {
        const line = lines[index];
        if (line.trim() === '') continue;
        const where = `${file}:${index + 1}`;
        const parsed = parseCheckpointLine(line);
        if (typeof parsed === 'string') {
          // A line cut by a crash mid-append is the last one of the file; anything else is damage.
          if (index === lines.length - 1) continue;
          result.firstProblem = { where, checkpoint: null, detail: `not a checkpoint (${parsed})` };
          return result;
        }
        const problem = checkOne(parsed, options);
        if (problem !== null) {
          result.firstProblem = { where, checkpoint: parsed, detail: `${describe(parsed)}: ${problem}` };
          return result;
        }
        result.checked += 1;
        if (result.newest === null || parsed.entries > result.newest.entries) result.newest = parsed;
      }
    }
  }
  const head = readHeadRecord(options.stateDir);
  if (head.state === 'ok' && result.newest !== null && head.record.entries < result.newest.entries) {
    result.firstProblem = {
      where: path.join(options.stateDir, 'audit-head.json'),
      checkpoint: result.newest,
      detail: `the head record says the chain has ${head.record.entries} entries, but the ${describe(result.newest)} names more: the head record was rewritten after entries were cut`,
    };
  }
  return result;
}

function checkOne(checkpoint: Checkpoint, options: { publicKey: KeyObject; keyId: string; hashes: string[] }): string | null {
  if (checkpoint.key !== options.keyId) return `signed by another key (${checkpoint.key.slice(0, 16)}…, not ${options.keyId.slice(0, 16)}…): it was forged or re-signed`;
  if (!checkpointSignatureHolds(checkpoint, options.publicKey)) return 'the signature does not hold: the checkpoint was altered or forged';
  if (checkpoint.entries > options.hashes.length) {
    return `the logs hold only ${options.hashes.length} entries: the last ${checkpoint.entries - options.hashes.length} were cut`;
  }
  if (checkpoint.entries > 0 && options.hashes[checkpoint.entries - 1] !== checkpoint.hash) {
    return `entry ${checkpoint.entries} of the logs has another hash than the signed ${checkpoint.hash}: entries up to it were replaced`;
  }
  return null;
}
