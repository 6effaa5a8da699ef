/** `govflow verify`: exit 0 when the chain is intact, else 1, naming the first bad entry as `file:line`. */
import type { KeyObject } from 'node:crypto';
import { type VerifyResult, verifyAuditChain } from './audit-chain-verify.js';
import { type CheckpointVerifyResult, verifyCheckpoints } from './checkpoint-verify.js';
import { counted } from '../counted.js';

export interface VerifyCommandOptions {
  logsDir: string;
  stateDir: string;
  write: (text: string) => void;
  /** A cluster-mode root: its logs are a projection of the chain in Postgres, which keeps the head. */
  projection?: boolean;
  /** A daemon owns the root: verify up to the last complete entry it reads (see verifyAuditChain). */
  live?: boolean;
  /** `--key FILE.pub [--witness DIR]…`: also hold every signed checkpoint against the logs. */
  signed?: { publicKey: KeyObject; keyId: string; witnesses: string[] };
}

/** The report a person reads; exported so the daemon can log the same words. */
export function describeVerifyResult(result: VerifyResult): string {
  const lines: string[] = [];
  const problem = result.firstProblem;
  if (result.ok || problem === undefined) {
    lines.push(
      `audit chain intact: ${counted(result.entries, 'entry', 'entries')} in ${counted(result.files, 'file')}`,
    );
    if (result.deleted)
      lines.push(
        `the chain starts after entry ${result.deleted.entries}: retention deleted the days through ${result.deleted.day} (system/logs/archive/deleted.jsonl)`,
      );
  } else {
    lines.push(
      `audit chain broken at ${problem.file}:${problem.line} ` +
        `(message_id ${problem.messageId ?? 'unknown'}): ${problem.reason.replace('-', ' ')}: ${problem.detail}`,
      `${counted(result.entries, 'entry', 'entries')} before it ${result.entries === 1 ? 'is' : 'are'} intact`,
    );
  }
  for (const warning of result.warnings) lines.push(`warning: ${warning}`);
  return lines.join('\n') + '\n';
}

export async function verifyCommand(options: VerifyCommandOptions): Promise<number> {
  const hashes: string[] = [];
  const result = await verifyAuditChain({
    logsDir: options.logsDir,
    stateDir: options.stateDir,
    hashes,
    live: options.live === true,
  });
  if (options.projection === true) {
    // No head record here by design: the chain's head is in Postgres, and --store checks it.
    result.warnings = result.warnings.filter((warning) => !warning.startsWith('no audit head record'));
    result.warnings.push(
      'cluster mode: these logs are a projection of the chain in Postgres; `govflow verify --store` also checks that no last entries were deleted',
    );
  }
  options.write(describeVerifyResult(result));
  if (options.signed === undefined) return result.ok ? 0 : 1;
  const checkpointsHold = reportCheckpoints(
    verifyCheckpoints({ logsDir: options.logsDir, stateDir: options.stateDir, hashes, ...options.signed }),
    options.write,
  );
  return result.ok && checkpointsHold ? 0 : 1;
}

/** Prints what the checkpoints check found; true when every checkpoint holds and there is one at least. */
export function reportCheckpoints(checkpoints: CheckpointVerifyResult, write: (text: string) => void): boolean {
  const problem = checkpoints.firstProblem;
  if (problem !== undefined) {
    write(`signed checkpoint contradicted at ${problem.where}: ${problem.detail}\n`);
    return false;
  }
  if (checkpoints.checked === 0) {
    write(`no signed checkpoints in ${checkpoints.sources.join(', ')}: nothing signed to hold the chain against\n`);
    return false;
  }
  const newest = checkpoints.newest!;
  write(
    `signed checkpoints hold: ${checkpoints.checked} checked in ${checkpoints.sources.length} places, the newest covering ${newest.entries} ` +
      `entries (${newest.day}, signed ${newest.at})\n`,
  );
  return true;
}
