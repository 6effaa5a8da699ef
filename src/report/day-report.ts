/**
 * One day's summary for auditors (`govflow report`): a pure function of what the caller read, so
 * the CLI and the web view's day page show the same thing.
 */
import type { VerifyResult } from '../audit/audit-chain-verify.js';
import type { ParsedAuditEntry } from '../audit/audit-entry-parse.js';

/** What the report needs of one audit entry (a LoggedEntry has all of it). */
export type ReportEntry = Pick<
  ParsedAuditEntry,
  | 'line'
  | 'time'
  | 'agent'
  | 'status'
  | 'error'
  | 'messageId'
  | 'sessionId'
  | 'requestId'
  | 'sequence'
  | 'complianceViolations'
  | 'body'
  | 'hash'
> & { file: string };

/** A session's standing: its §9 result when it has one, else what its manifest says. */
export interface ReportSession {
  sessionId: string;
  requestId: string;
  /** success | partial | failed | pending, or running / unknown when there is no result yet. */
  status: string;
  message: string | null;
  error: { code: string | null; message: string | null } | null;
  usage: { input_tokens: number; output_tokens: number; cost_usd: number } | null;
}

/** The entry a failure or flag was found on. */
interface EntryPlace {
  sessionId: string;
  agent: string;
  /** Null on an operator's entry (docs/run-control.md). */
  sequence: number | null;
  time: string;
}

export interface ReportFailure extends EntryPlace {
  code: string | null;
  reason: string;
}

export interface ReportFlag extends EntryPlace {
  /** The extension line's label: VIOLATIONS, COMPLIANCE VIOLATIONS, GUARDRAILS, PII_REDACTED. */
  kind: string;
  detail: string;
}

export interface DayVerify {
  ok: boolean;
  /** One line a person reads: "intact …" or "verify failed at FILE:LINE (message_id …): …". */
  summary: string;
  /** The first bad entry, when it lies in this day's file. */
  firstBadEntry: { file: string; line: number; messageId: string | null } | null;
}

export interface DayReport {
  /** YYYYMMDD. */
  date: string;
  entries: number;
  sessions: Array<ReportSession & { messages: number; agents: string[]; firstTime: string; lastTime: string }>;
  byStatus: Record<string, number>;
  agents: Array<{ agent: string; messages: number; byStatus: Record<string, number> }>;
  failures: ReportFailure[];
  flags: ReportFlag[];
  cost: { usd: number; inputTokens: number; outputTokens: number; sessionsWithoutResult: number };
  verify: DayVerify;
  /** What could not be read (e.g. a malformed entry): the report covers the rest. */
  warnings: string[];
}

/** Extension lines that flag a compliance event on an entry. */
const FLAG_LINE = /^\[(VIOLATIONS|COMPLIANCE VIOLATIONS|GUARDRAILS|PII_REDACTED)\]: (.*)$/;

function placeOf(entry: ReportEntry): EntryPlace {
  return { sessionId: entry.sessionId, agent: entry.agent, sequence: entry.sequence, time: entry.time };
}

function flagsOf(entry: ReportEntry): ReportFlag[] {
  const flags: ReportFlag[] = [];
  const lines = entry.body.split('\n');
  // `[VIOLATIONS]` repeats the older `[COMPLIANCE VIOLATIONS]` findings: count them once.
  const hasViolations = lines.some((line) => line.startsWith('[VIOLATIONS]: '));
  for (const line of lines) {
    const match = FLAG_LINE.exec(line);
    if (!match) continue;
    const [, kind, detail] = match;
    if (detail === '[]' || detail === '{}') continue;
    if (kind === 'COMPLIANCE VIOLATIONS' && hasViolations) continue;
    flags.push({ ...placeOf(entry), kind, detail });
  }
  return flags;
}

function count(into: Record<string, number>, key: string): void {
  into[key] = (into[key] ?? 0) + 1;
}

export function dayVerifyStatus(date: string, verify: VerifyResult): DayVerify {
  const problem = verify.firstProblem;
  if (verify.ok || !problem) {
    return {
      ok: true,
      summary: `audit chain intact: ${verify.entries} entries in ${verify.files} files`,
      firstBadEntry: null,
    };
  }
  // The log's own name: a full path would show where the root lives, not which entry is bad.
  const where = `${problem.file.slice(problem.file.replace(/\\/g, '/').lastIndexOf('/') + 1)}:${problem.line}`;
  const what = `${problem.reason.replace('-', ' ')}: ${problem.detail}`;
  const inThisDay = problem.file.endsWith(`${date}.log`);
  return {
    ok: false,
    summary: inThisDay
      ? `verify failed: first bad entry at ${where} (message_id ${problem.messageId ?? 'unknown'}): ${what}`
      : `verify failed in another day's log: first bad entry at ${where} (message_id ${problem.messageId ?? 'unknown'}): ${what}`,
    firstBadEntry: inThisDay ? { file: problem.file, line: problem.line, messageId: problem.messageId } : null,
  };
}

/** `entries` in log order; `sessions` the standing of their sessions (missing ones show as `unknown`). */
export function buildDayReport(input: {
  date: string;
  entries: readonly ReportEntry[];
  verify: VerifyResult;
  sessions: readonly ReportSession[];
  warnings?: readonly string[];
}): DayReport {
  const known = new Map(input.sessions.map((session) => [session.sessionId, session]));
  const perSession = new Map<string, DayReport['sessions'][number]>();
  const perAgent = new Map<string, DayReport['agents'][number]>();
  const failures: ReportFailure[] = [];
  const flags: ReportFlag[] = [];
  for (const entry of input.entries) {
    const standing = known.get(entry.sessionId) ?? {
      sessionId: entry.sessionId,
      requestId: entry.requestId,
      status: 'unknown',
      message: null,
      error: null,
      usage: null,
    };
    const session = perSession.get(entry.sessionId) ?? {
      ...standing,
      messages: 0,
      agents: [],
      firstTime: entry.time,
      lastTime: entry.time,
    };
    perSession.set(entry.sessionId, session);
    // An operator's entry (a cancel, a fork) is in the chain but is no agent's message.
    if (entry.sequence === null) {
      session.lastTime = entry.time;
      continue;
    }
    session.messages += 1;
    session.lastTime = entry.time;
    if (!session.agents.includes(entry.agent)) session.agents.push(entry.agent);

    const agent = perAgent.get(entry.agent) ?? { agent: entry.agent, messages: 0, byStatus: {} };
    perAgent.set(entry.agent, agent);
    agent.messages += 1;
    count(agent.byStatus, entry.status.code);

    if (entry.status.code === 'failed' || entry.error) {
      failures.push({
        ...placeOf(entry),
        code: entry.error?.code ?? null,
        reason: entry.error?.message ?? entry.status.message,
      });
    }
    flags.push(...flagsOf(entry));
  }

  const sessions = [...perSession.values()];
  const byStatus: Record<string, number> = {};
  const cost = { usd: 0, inputTokens: 0, outputTokens: 0, sessionsWithoutResult: 0 };
  for (const session of sessions) {
    count(byStatus, session.status);
    if (session.usage) {
      cost.usd += session.usage.cost_usd;
      cost.inputTokens += session.usage.input_tokens;
      cost.outputTokens += session.usage.output_tokens;
    } else cost.sessionsWithoutResult += 1;
  }
  cost.usd = Math.round(cost.usd * 1e6) / 1e6;
  return {
    date: input.date,
    entries: input.entries.length,
    sessions,
    byStatus,
    agents: [...perAgent.values()].sort(
      (left, right) => right.messages - left.messages || left.agent.localeCompare(right.agent),
    ),
    failures,
    flags,
    cost,
    verify: dayVerifyStatus(input.date, input.verify),
    warnings: [...(input.warnings ?? [])],
  };
}
