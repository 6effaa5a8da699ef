/**
 * `govflow verify`: checks the hash chain of all audit logs (SPEC §8). Exit 0 when intact, 1
 * naming the first bad entry as `file:line` so an editor or terminal can jump to it.
 */
import { type VerifyResult, verifyAuditChain } from './audit-chain-verify.js';

export interface VerifyCommandOptions {
  logsDir: string;
  stateDir: string;
  write: (text: string) => void;
  /** A cluster-mode root: its logs are a projection of the chain in Postgres, which keeps the head. */
  projection?: boolean;
}

/** The report a person reads; exported so the daemon can log the same words. */
export function describeVerifyResult(result: VerifyResult): string {
  const lines: string[] = [];
  const problem = result.firstProblem;
  if (result.ok || problem === undefined) {
    // Always plural: scripts match this line literally ("N entries in M files").
    lines.push(`audit chain intact: ${result.entries} entries in ${result.files} files`);
  } else {
    lines.push(
      `audit chain broken at ${problem.file}:${problem.line} (message_id ${problem.messageId ?? 'unknown'}): ` +
        `${problem.reason.replace('-', ' ')}: ${problem.detail}`,
    );
    lines.push(`${result.entries} entries before it are intact`);
  }
  for (const warning of result.warnings) lines.push(`warning: ${warning}`);
  return lines.join('\n') + '\n';
}

export async function verifyCommand(options: VerifyCommandOptions): Promise<number> {
  const result = await verifyAuditChain({ logsDir: options.logsDir, stateDir: options.stateDir });
  if (options.projection === true) {
    // No head record here by design: the chain's head is in Postgres, and --store checks it.
    result.warnings = result.warnings.filter((warning) => !warning.startsWith('no audit head record'));
    result.warnings.push('cluster mode: these logs are a projection of the chain in Postgres; `govflow verify --store` also checks that no last entries were deleted');
  }
  options.write(describeVerifyResult(result));
  return result.ok ? 0 : 1;
}
