/**
 * How `govflow cancel|retry|fork|rerun` reach the daemon (docs/run-control.md): a control file in
 * the inbox (written under an ignored name, then renamed), owned by whoever runs the command — the
 * actor the audit entry names. Where a session stands is read from the root's files, or from the
 * store in cluster mode; what the daemon made of a control from its outcome record or its
 * system/failed/ error record.
 */
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { GovflowConfig } from '../config/config-loader.js';
import { RootLock } from '../daemon/root-lock.js';
import { filesCancelTargets } from '../intake/cancel-targets.js';
import type { CancelTarget, SessionStanding } from '../store/session-reads.js';
import { readControlOutcome, removeControlOutcome, type ControlOutcome } from '../intake/control-outcome.js';
import { findQueuedRequest } from '../intake/queued-claims.js';
import { randomBase36 } from '../intake/request-ids.js';
import { foldRecords, type SessionState } from '../pipeline/session-state.js';
import { SessionJournal } from '../store/journal-reader.js';
import { sessionFolder } from '../store/session-retention.js';

const POLL_MS = 50;

/** Where sessions stand: this root's files, or the cluster's store. */
export interface Standings {
  standing(sessionId: string): Promise<SessionStanding | null>;
  /** The session's folded journal, when this root has it (files mode). */
  state(sessionId: string): SessionState | null;
  unfinished(): Promise<CancelTarget[]>;
  close(): Promise<void>;
}

export async function openStandings(config: GovflowConfig): Promise<Standings> {
  if (config.store.kind === 'postgres') {
    const store = await (await import('../cluster/store-results.js')).openStoreStandings(config);
    return { standing: store.standing, state: () => null, unfinished: store.unfinished, close: store.close };
  }
  const { paths } = config;
  const state = (sessionId: string): SessionState | null => {
    // A session retention archived is read from the archive (it can be forked).
    const folder = sessionFolder(paths, sessionId);
    if (
      !SessionJournal.exists(paths.sessions, sessionId) &&
      folder === SessionJournal.directoryOf(paths.sessions, sessionId)
    )
      return null;
    try {
      return foldRecords(SessionJournal.read(folder));
    } catch {
      return null;
    }
  };
  return {
    state,
    async standing(sessionId) {
      const folded = state(sessionId);
      if (folded) return { user: folded.session.request.user ?? 'local', status: statusOf(folded) };
      const queued = await findQueuedRequest(
        paths,
        sessionId,
        config.intake.max_bytes,
        config.timezone,
        config.intake.attachments,
      );
      return queued ? { user: queued.user ?? 'local', status: 'queued' } : null;
    },
    unfinished: () =>
      filesCancelTargets(
        paths,
        config.intake.max_bytes,
        config.timezone,
        {
          statuses: ['running', 'paused', 'queued'],
          user: null,
          since: null,
        },
        config.intake.attachments,
      ),
    close: async () => {},
  };
}

/** A folded session's standing: running, paused, or how it ended. */
function statusOf(state: SessionState): string {
  if (state.cancelled) return 'cancelled';
  if (state.paused?.awaiting === 'halt') return `halted_${state.paused.halt ?? 'cost'}`;
  if (state.paused) return state.paused.awaiting === 'intervention' ? 'intervention_required' : 'paused';
  if (!state.final && state.finishedAt === null) return 'running';
  const code = state.final?.message.status.code;
  return code === 'success' || code === 'partial' ? code : 'failed';
}

/** True while a daemon owns the root (else a control waits in the inbox for the next start). */
export function daemonRuns(config: GovflowConfig): boolean {
  return RootLock.owner(config.paths.state)?.kind === 'daemon';
}

/** Writes `document` into the inbox as a control file; returns its name there. */
export function dropControl(config: GovflowConfig, document: Record<string, unknown>): string {
  const name = `${String(document.control)}-${process.pid}-${Date.now()}-${randomBase36(6)}.json`;
  const temporary = path.join(config.paths.inbox, `.${name}.tmp`);
  writeFileSync(temporary, `${JSON.stringify(document)}\n`);
  renameSync(temporary, path.join(config.paths.inbox, name));
  return name;
}

/** How a dropped control went: its outcome, its refusal, or the daemon gone with the file still in the inbox. */
export type Settled =
  { kind: 'outcome'; outcome: ControlOutcome } | { kind: 'refused'; reason: string } | { kind: 'no-daemon' };

/**
 * Waits until the daemon settled the control dropped as `name` (or stopped before taking it). Its
 * outcome record, once read, is removed (one left behind is swept by the daemon after a day).
 */
export async function waitForControl(config: GovflowConfig, name: string, timeoutMs = 600_000): Promise<Settled> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const outcome = readControlOutcome(config.paths, name);
    if (outcome && outcome.status !== 'refused') {
      removeControlOutcome(config.paths, name);
      return { kind: 'outcome', outcome };
    }
    const refusal = refusalOf(config, name);
    if (refusal !== null) {
      removeControlOutcome(config.paths, name);
      return { kind: 'refused', reason: refusal };
    }
    if (!daemonRuns(config) && existsSync(path.join(config.paths.inbox, name))) return { kind: 'no-daemon' };
    if (Date.now() > deadline)
      return { kind: 'refused', reason: `the daemon did not take ${name} in ${timeoutMs / 1000} s` };
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}

/** The reason in failed/<name>.error.json, when the daemon refused the control. */
function refusalOf(config: GovflowConfig, name: string): string | null {
  try {
    const record = JSON.parse(readFileSync(path.join(config.paths.failed, `${name}.error.json`), 'utf8')) as {
      reason?: unknown;
    };
    return String(record.reason ?? 'refused by the daemon');
  } catch {
    return null;
  }
}
