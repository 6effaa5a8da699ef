/**
 * `govflow cancel|retry|rerun|fork` (docs/run-control.md): each writes a control file into the
 * root's inbox, as the user who runs it, and waits for the daemon. cancel: 0 cancelled, 1 already
 * ended (printing how), 2 unknown session, 3 no daemon runs (the file waits in the inbox). retry,
 * rerun, fork: 0 once accepted (printing the new session_id and request_id the daemon assigned),
 * 1 refused, 2 unknown session, 3 no daemon runs. intervene: 0 applied, 1 not waiting for a
 * steward, 2 unknown session, 3 no daemon runs.
 */
import { readFileSync } from 'node:fs';
import { loadConfig, type GovflowConfig } from '../config/config-loader.js';
import { UsageError, errorMessage } from '../errors.js';
import { CANCELLABLE_STATUSES, matchesCancelFilter } from '../intake/cancel-targets.js';
import type { CancellableStatus } from '../store/session-reads.js';
import { REQUEST_ID_PATTERN } from '../intake/request-ids.js';
import type { CommandContext, CommandDefinition } from './command-context.js';
import { daemonRuns, dropControl, openStandings, waitForControl, type Standings } from './control-handover.js';

const POLL_MS = 100;
/** The standings of a session waiting for a steward (docs/run-control.md). */
const STEWARD_WAITS = ['intervention_required', 'halted_cost', 'halted_time'];

function isCancellable(status: string): boolean {
  // A session waiting for a steward can be cancelled like a paused one (docs/run-control.md).
  return (CANCELLABLE_STATUSES as readonly string[]).includes(status) || STEWARD_WAITS.includes(status);
}

/** Resolves once the session ended; its final status. */
async function waitForEnd(standings: Standings, sessionId: string): Promise<string> {
  for (;;) {
    const standing = await standings.standing(sessionId);
    if (standing && !isCancellable(standing.status)) return standing.status;
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}

async function withStandings<T>(config: GovflowConfig, work: (standings: Standings) => Promise<T>): Promise<T> {
  const standings = await openStandings(config);
  try {
    return await work(standings);
  } finally {
    await standings.close();
  }
}

const NO_DAEMON = (name: string) =>
  `no govflow daemon runs on this root: the control waits in system/inbox/${name} and applies when the daemon starts\n`;

export const cancelCommand: CommandDefinition = {
  options: {
    reason: { type: 'string' },
    status: { type: 'string' },
    user: { type: 'string' },
    since: { type: 'string' },
    'dry-run': { type: 'boolean' },
    json: { type: 'boolean' },
  },
  allowPositionals: true,
  async run(context) {
    const { root, values, positionals, io, usage } = context;
    const config = loadConfig(root, io.env);
    const reason = values.reason as string | undefined;
    if (positionals.length > 1) throw new UsageError(`name one session (or none, with --status)\nusage: ${usage}`);
    const [sessionId] = positionals;
    if (sessionId === undefined) return cancelMany(context, config);
    if (values.status !== undefined || values.user !== undefined || values.since !== undefined || values['dry-run'])
      throw new UsageError(
        `--status, --user, --since and --dry-run select sessions: leave out SESSION_ID\nusage: ${usage}`,
      );
    return withStandings(config, async (standings) => {
      const standing = await standings.standing(sessionId);
      if (!standing) {
        io.stderr(`govflow cancel: no session "${sessionId}" exists on this root: check the session_id\n`);
        return 2;
      }
      if (!isCancellable(standing.status)) {
        io.stdout(`session ${sessionId} has already ended: ${standing.status}\n`);
        return 1;
      }
      const name = dropControl(config, { control: 'cancel', session_id: sessionId, ...(reason ? { reason } : {}) });
      // With no daemon the control waits in the inbox: waitForControl says so at once.
      const settled = await waitForControl(config, name);
      if (settled.kind === 'no-daemon') {
        io.stderr(NO_DAEMON(name));
        return 3;
      }
      if (settled.kind === 'refused') {
        // It ended while the cancel was on its way (or the cancel could not apply): say how it stands.
        const now = (await standings.standing(sessionId))?.status ?? 'unknown';
        io.stdout(`session ${sessionId} has already ended: ${now} (${settled.reason})\n`);
        return 1;
      }
      const status = await waitForEnd(standings, sessionId);
      if (status === 'cancelled') {
        io.stdout(`session ${sessionId} cancelled\n`);
        return 0;
      }
      io.stdout(`session ${sessionId} has already ended: ${status}\n`);
      return 1;
    });
  },
};

/** `govflow cancel --status …`: every match, or (dry run) the list of them. */
async function cancelMany(context: CommandContext, config: GovflowConfig): Promise<number> {
  const { values, io, usage } = context;
  const status = values.status as string | undefined;
  if (status === undefined)
    throw new UsageError(`name a SESSION_ID, or select sessions with --status\nusage: ${usage}`);
  if (!isCancellable(status)) throw new UsageError(`--status must be running, paused or queued, got "${status}"`);
  const since = values.since as string | undefined;
  if (since !== undefined && Number.isNaN(Date.parse(since)))
    throw new UsageError(`--since must be an ISO 8601 time such as 2026-03-08T09:00:00Z, got "${since}"`);
  const filter = {
    statuses: [status as CancellableStatus],
    user: (values.user as string | undefined) ?? null,
    since: since ?? null,
  };
  return withStandings(config, async (standings) => {
    const matched = (await standings.unfinished()).filter((candidate) => matchesCancelFilter(candidate, filter));
    const ids = matched.map((candidate) => candidate.sessionId);
    if (values['dry-run']) {
      if (values.json)
        io.stdout(`${JSON.stringify({ matched: ids.length, cancelled: [], would_cancel: ids }, null, 2)}\n`);
      else
        for (const candidate of matched)
          io.stdout(
            `would cancel ${candidate.sessionId} (${candidate.status}, ${candidate.user}, ${candidate.createdAt})\n`,
          );
      if (!values.json) io.stderr(`${ids.length} session(s) match; none cancelled (--dry-run)\n`);
      return 0;
    }
    const reason = values.reason as string | undefined;
    const names = ids.map((sessionId) =>
      dropControl(config, { control: 'cancel', session_id: sessionId, ...(reason ? { reason } : {}) }),
    );
    if (values.json) io.stdout(`${JSON.stringify({ matched: ids.length, cancelled: ids }, null, 2)}\n`);
    else for (const sessionId of ids) io.stdout(`cancelling ${sessionId}\n`);
    if (!daemonRuns(config) && names.length > 0) {
      io.stderr(`no govflow daemon runs on this root: ${names.length} cancel(s) wait in system/inbox/ for its start\n`);
      return 3;
    }
    return 0;
  });
}

/** retry, rerun and fork: a new session from an ended one. */
function forkCommand(action: 'retry' | 'rerun' | 'fork'): CommandDefinition {
  return {
    options: {
      reason: { type: 'string' },
      'request-id': { type: 'string' },
      json: { type: 'boolean' },
      ...(action === 'fork' ? { from: { type: 'string' }, 'request-file': { type: 'string' } } : {}),
    },
    allowPositionals: true,
    async run({ root, values, positionals, io, usage }) {
      if (positionals.length !== 1) throw new UsageError(`name one SESSION_ID\nusage: ${usage}`);
      const [sessionId] = positionals as [string];
      const config = loadConfig(root, io.env);
      const requestId = values['request-id'] as string | undefined;
      if (requestId !== undefined && !REQUEST_ID_PATTERN.test(requestId))
        throw new UsageError(
          `--request-id "${requestId.slice(0, 40)}" is not allowed: use 1 to 128 characters from A-Z a-z 0-9 . _ -, not "." or ".."`,
        );
      let from: number | undefined;
      let request: string | undefined;
      if (action === 'fork') {
        from = Number(values.from);
        if (values.from === undefined || !Number.isInteger(from) || from < 1)
          throw new UsageError(`--from K names the first message to run anew (a whole number from 1)\nusage: ${usage}`);
        const file = values['request-file'] as string | undefined;
        if (file !== undefined) {
          try {
            request = readFileSync(file, 'utf8');
          } catch (error) {
            throw new UsageError(`cannot read --request-file ${file}: ${errorMessage(error)}`);
          }
          if (request.trim() === '') throw new UsageError(`--request-file ${file} is empty`);
        }
      }
      return withStandings(config, async (standings) => {
        if (!(await standings.standing(sessionId))) {
          io.stderr(`govflow ${action}: no session "${sessionId}" exists on this root: check the session_id\n`);
          return 2;
        }
        const name = dropControl(config, {
          control: action,
          session_id: sessionId,
          ...(values.reason ? { reason: values.reason } : {}),
          ...(from !== undefined ? { from } : {}),
          ...(request !== undefined ? { request } : {}),
          ...(requestId !== undefined ? { request_id: requestId } : {}),
        });
        const settled = await waitForControl(config, name);
        if (settled.kind === 'no-daemon') {
          io.stderr(NO_DAEMON(name));
          return 3;
        }
        if (settled.kind === 'refused') {
          io.stderr(`govflow ${action}: refused: ${settled.reason}\n`);
          return 1;
        }
        const made = { session_id: settled.outcome.new_session_id, request_id: settled.outcome.new_request_id };
        io.stdout(
          values.json
            ? `${JSON.stringify(made, null, 2)}\n`
            : `session_id: ${made.session_id}\nrequest_id: ${made.request_id}\n`,
        );
        return 0;
      });
    },
  };
}

export const retryCommand = forkCommand('retry');
export const rerunCommand = forkCommand('rerun');
export const forkSessionCommand = forkCommand('fork');

/** `govflow intervene SESSION_ID --retry [--advice TEXT] | --fail [--reason TEXT] | --continue [--cost-usd N] [--minutes N]`. */
export const interveneCommand: CommandDefinition = {
  options: {
    retry: { type: 'boolean' },
    fail: { type: 'boolean' },
    continue: { type: 'boolean' },
    advice: { type: 'string' },
    reason: { type: 'string' },
    'cost-usd': { type: 'string' },
    minutes: { type: 'string' },
  },
  allowPositionals: true,
  async run({ root, values, positionals, io, usage }) {
    if (positionals.length !== 1) throw new UsageError(`name one SESSION_ID\nusage: ${usage}`);
    const [sessionId] = positionals as [string];
    const decisions = (['retry', 'fail', 'continue'] as const).filter((decision) => values[decision] === true);
    if (decisions.length !== 1)
      throw new UsageError(`decide exactly one of --retry, --fail or --continue\nusage: ${usage}`);
    const [decision] = decisions as [string];
    if (values.advice !== undefined && decision !== 'retry')
      throw new UsageError("--advice goes with --retry: it is put into the retried agent's prompt");
    const limits: Record<string, number> = {};
    for (const [option, key] of [
      ['cost-usd', 'cost_usd'],
      ['minutes', 'time_minutes'],
    ] as const) {
      const written = values[option] as string | undefined;
      if (written === undefined) continue;
      if (decision !== 'continue')
        throw new UsageError(`--${option} goes with --continue (a new total for a halted session)`);
      const value = Number(written);
      if (!Number.isFinite(value) || value <= 0)
        throw new UsageError(`--${option} must be a number above 0, got "${written}"`);
      limits[key] = value;
    }
    const config = loadConfig(root, io.env);
    return withStandings(config, async (standings) => {
      if (!(await standings.standing(sessionId))) {
        io.stderr(`govflow intervene: no session "${sessionId}" exists on this root: check the session_id\n`);
        return 2;
      }
      const name = dropControl(config, {
        control: 'intervene',
        session_id: sessionId,
        decision,
        ...(values.advice !== undefined ? { advice: values.advice } : {}),
        ...(values.reason !== undefined ? { reason: values.reason } : {}),
        ...(Object.keys(limits).length > 0 ? { limits } : {}),
      });
      const settled = await waitForControl(config, name);
      if (settled.kind === 'no-daemon') {
        io.stderr(NO_DAEMON(name));
        return 3;
      }
      if (settled.kind === 'refused') {
        io.stderr(`govflow intervene: ${settled.reason}\n`);
        return 1;
      }
      io.stdout(`session ${sessionId}: ${decision} applied\n`);
      return 0;
    });
  },
};
