/** Reads what a day report is built from, off a files-mode root: for `govflow report` and the web view's day page. */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { verifyAuditChain } from '../audit/audit-chain-verify.js';
import { AuditLogFormatError } from '../audit/audit-errors.js';
import { readLogEntries, type LoggedEntry } from '../audit/audit-log-reader.js';
import type { SystemPaths } from '../config/system-paths.js';
import { errorMessage } from '../errors.js';
import { SessionJournal } from '../store/journal-reader.js';
import { buildDayReport, type DayReport, type ReportSession } from './day-report.js';

/** Ids that can name a file: anything else in a log is not looked up on disk. */
const SAFE_NAME = /^[A-Za-z0-9._-]{1,200}$/;

const MANIFEST_STATUS: Record<string, string> = {
  RUNNING: 'running',
  PENDING: 'running',
  PAUSED: 'pending',
  SUCCESS: 'success',
  PARTIAL: 'partial',
  FAILED: 'failed',
  HALTED_COST: 'failed',
  HALTED_TIME: 'failed',
};

interface ResultOnDisk {
  session_id?: unknown;
  status?: unknown;
  message?: unknown;
  error?: { error_code?: unknown; error_message?: unknown; code?: unknown; message?: unknown } | null;
  usage?: { input_tokens?: unknown; output_tokens?: unknown; cost_usd?: unknown };
}

function numberOr(value: unknown, fallback: number): number {
  return typeof value === 'number' && Number.isFinite(value) ? value : fallback;
}

function textOrNull(value: unknown): string | null {
  return typeof value === 'string' ? value : null;
}

/** A session's standing from its outbox result, else its manifest; null when neither is there. */
export function readSessionStanding(paths: SystemPaths, sessionId: string, requestId: string): ReportSession | null {
  if (SAFE_NAME.test(requestId)) {
    const file = path.join(paths.outbox, `${requestId}.json`);
    if (existsSync(file)) {
      try {
        const result = JSON.parse(readFileSync(file, 'utf8')) as ResultOnDisk;
        if (result.session_id === sessionId) {
          const error = result.error ?? null;
          return {
            sessionId,
            requestId,
            status: typeof result.status === 'string' ? result.status : 'unknown',
            message: textOrNull(result.message),
            error: error
              ? {
                  code: textOrNull(error.error_code ?? error.code),
                  message: textOrNull(error.error_message ?? error.message),
                }
              : null,
            usage: {
              input_tokens: numberOr(result.usage?.input_tokens, 0),
              output_tokens: numberOr(result.usage?.output_tokens, 0),
              cost_usd: numberOr(result.usage?.cost_usd, 0),
            },
          };
        }
      } catch {
        // A result being replaced right now, or damaged: fall back to the manifest.
      }
    }
  }
  if (!SAFE_NAME.test(sessionId)) return null;
  const manifest = SessionJournal.readManifest(paths.sessions, sessionId);
  if (!manifest) return null;
  return {
    sessionId,
    requestId,
    status: MANIFEST_STATUS[manifest.state] ?? 'unknown',
    message: manifest.question,
    error: null,
    usage: {
      input_tokens: manifest.usage.input_tokens,
      output_tokens: manifest.usage.output_tokens,
      cost_usd: manifest.usage.cost_usd,
    },
  };
}

/** `web`: only the entries the viewer may see, the chain verified as a running daemon writes it, and no CLI advice. */
export async function readDay(
  paths: SystemPaths,
  date: string,
  web?: { visible: (entry: LoggedEntry) => boolean },
): Promise<{ report: DayReport; entries: LoggedEntry[] }> {
  const warnings: string[] = [];
  let entries: LoggedEntry[] = [];
  try {
    entries = await readLogEntries(paths.logs, { date });
    if (web) entries = entries.filter(web.visible);
  } catch (error) {
    if (!(error instanceof AuditLogFormatError)) throw error;
    warnings.push(
      `the day's log could not be read to its end: ${errorMessage(error)}${web ? '' : `; run \`govflow verify\` and \`govflow logs --date ${date}\``}`,
    );
  }
  const verify = await verifyAuditChain({ logsDir: paths.logs, stateDir: paths.state, live: web !== undefined });
  const sessions: ReportSession[] = [];
  const seen = new Set<string>();
  for (const entry of entries) {
    if (seen.has(entry.sessionId)) continue;
    seen.add(entry.sessionId);
    const standing = readSessionStanding(paths, entry.sessionId, entry.requestId);
    if (standing) sessions.push(standing);
  }
  return { report: buildDayReport({ date, entries, verify, sessions, warnings }), entries };
}

export async function loadDayReport(paths: SystemPaths, date: string): Promise<DayReport> {
  return (await readDay(paths, date)).report;
}
