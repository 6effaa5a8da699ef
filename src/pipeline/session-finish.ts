/**
 * The end of a session's run: its result written (final, cancelled, or pending while it waits for
 * a person), the `finished` record, the claimed files reported done, the live event; and the
 * manifest, a cache of the journal for `govflow status`, rewritten off the hot path.
 */
import { errorMessage } from '../errors.js';
import type { FinishedRecord, SessionStateName } from '../store/session-journal.js';
import { JOURNAL_FORMAT } from '../store/journal-format.js';
import { messagesDurable, type ActiveSession } from './message-commit.js';
import type { RunnerDependencies, SessionOutcome } from './runner-contract.js';
import { resultFiles } from './result-report.js';
import { buildResult } from './session-result.js';
import { applyRecord, pauseKeyOf, type SessionState } from './session-state.js';

export class SessionFinisher {
  constructor(
    private readonly deps: RunnerDependencies,
    private readonly now: () => Date,
  ) {}

  /** Writes the result, records the end, reports the request files done. Idempotent (recovery may run it again), so `finished` is not synced. */
  async finish(active: ActiveSession): Promise<SessionOutcome> {
    const { state, stored } = active;
    const finishedAt = state.finishedAt ?? this.now().toISOString();
    const paused = state.paused && !state.cancelled ? state.paused : null;
    const finalAgent = state.final
      ? this.deps.governance(state.session.session_id).agents.get(state.final.message.agent.name)
      : null;
    const built = buildResult(
      state,
      paused ? (state.messages.at(-1)?.message.timestamp.executed_at ?? finishedAt) : finishedAt,
      this.deps.config.timezone,
      finalAgent,
    );
    // With pii.restore_in_result the outbox result, and nothing else, carries the originals.
    const result = active.privacy?.restoresResult ? active.privacy.restore(built) : built;
    // Webhooks (docs/webhooks.md) are queued durably first and sent once the end is durable: a
    // crash in between sends them after the restart; an end recorded before is not told again.
    const files = resultFiles(result, state, built);
    if (result !== built) files.redactedJson = `${JSON.stringify(built, null, 2)}\n`;
    const release = paused || state.finishedAt === null ? await this.notify(active, result.status, finishedAt) : null;
    // Durable before a request file is archived: until then recovery writes the result again.
    if (paused) {
      await messagesDurable(active);
      await stored.pause(files);
    } else {
      const end: FinishedRecord | null =
        state.finishedAt !== null
          ? null
          : { v: JOURNAL_FORMAT, type: 'finished', status: result.status, at: finishedAt };
      // The result is written while the last message syncs, and published after it (SPEC §6).
      const durable = messagesDurable(active);
      const passOn = durable.then(
        () => true,
        () => false,
      );
      await stored.finish(files, end, passOn).catch(async (error: unknown) => {
        await durable; // the last message's own failure, when that is why the result was not published
        throw error;
      });
      if (end) applyRecord(state, end);
    }
    release?.();
    // The request files are the intake's to archive (request-archive.ts): the runner reports them.
    const doneFiles = [...state.replyFiles];
    if (!paused && state.session.claimed_path)
      doneFiles.push({ claimedPath: state.session.claimed_path, sourceFile: state.session.source_file });
    if (doneFiles.length > 0)
      this.deps.events?.emit('request_files_done', { sessionId: state.session.session_id, files: doneFiles });
    this.writeManifest(active);
    const sessionId = state.session.session_id;
    if (paused)
      this.deps.events?.emit('pending', {
        sessionId,
        question: paused.question ?? '',
        awaiting: paused.awaiting ?? 'reply',
        pause: pauseKeyOf(paused),
        ordinal: state.pausesSinceMessage,
        status: result.status,
      });
    else
      this.deps.events?.emit('session_finished', {
        sessionId,
        requestId: state.session.request_id,
        status: result.status,
      });
    this.deps.log?.info(
      paused
        ? paused.awaiting === 'intervention' || paused.awaiting === 'halt'
          ? 'session waits for a steward'
          : 'session paused for a reply'
        : state.cancelled
          ? 'session cancelled'
          : 'session finished',
      {
        session: state.session.session_id,
        request: state.session.request_id,
        status: result.status,
        messages: result.messages,
      },
    );
    return { sessionId: state.session.session_id, requestId: state.session.request_id, status: result.status, result };
  }

  /** Queues the webhook events of this end or pause (delegated children are their parent's business); never throws. */
  private async notify(active: ActiveSession, status: string, at: string): Promise<(() => void) | null> {
    const { state } = active;
    if (!this.deps.notices || state.session.delegation) return null;
    await messagesDurable(active);
    const paused = state.paused && !state.cancelled ? state.paused : null;
    try {
      return await this.deps.notices({
        sessionId: state.session.session_id,
        requestId: state.session.request_id,
        user: state.session.request.user ?? 'local',
        status,
        at: paused ? this.now().toISOString() : at,
        ...(paused ? { pause: { key: pauseKeyOf(paused), awaiting: paused.awaiting ?? 'reply' } } : {}),
      });
    } catch (error) {
      this.deps.log?.warn('could not queue the webhook events of a session', {
        session: state.session.session_id,
        error: errorMessage(error),
      });
      return null;
    }
  }

  /** Rewrites the manifest after this turn of the event loop: sessions stepping together reach their model calls first. */
  scheduleManifest(active: ActiveSession): void {
    if (active.manifestScheduled) return;
    active.manifestScheduled = true;
    setImmediate(() => {
      active.manifestScheduled = false;
      // Outside the session's own try: a failure here must not escape as an uncaught exception.
      try {
        this.writeManifest(active);
      } catch (error) {
        this.deps.log?.warn('could not update the session manifest (a cache for govflow status)', {
          session: active.state.session.session_id,
          error: errorMessage(error),
        });
      }
    });
  }

  writeManifest(active: ActiveSession): void {
    const { state } = active;
    const last = state.messages[state.messages.length - 1];
    const now = this.now();
    active.stored.writeManifest({
      v: JOURNAL_FORMAT,
      session_id: state.session.session_id,
      request_id: state.session.request_id,
      state: stateName(state),
      current_agent: state.cancelled
        ? null
        : (state.cursor?.agent ?? (state.plan ? `${state.plan.agent} (plan)` : (state.paused?.agent ?? null))),
      last_agent: last?.message.agent.name ?? null,
      source_file: state.session.source_file,
      created_at: state.session.created_at,
      updated_at: now.toISOString(),
      messages: state.messages.length,
      usage: { ...state.usage },
      elapsed_ms: now.getTime() - Date.parse(state.session.created_at),
      model_time_ms: state.modelTimeMs,
      governance_hash: last?.governance_hash ?? null,
      question: state.paused?.question ?? null,
      ...(state.paused?.awaiting === 'halt' && !state.cancelled ? { waiting: true } : {}),
    });
  }
}

/** Seed 001's job state of a session, as its manifest names it. */
export function stateName(state: SessionState): SessionStateName {
  if (state.cancelled) return 'CANCELLED';
  if (state.paused?.awaiting === 'halt') return state.paused.halt === 'time' ? 'HALTED_TIME' : 'HALTED_COST';
  if (state.paused) return state.paused.awaiting === 'intervention' ? 'INTERVENTION_REQUIRED' : 'PAUSED';
  if (!state.final) return 'RUNNING';
  if (state.final.halt) return state.final.halt;
  // Records written before the halt field existed carry the state only in their notes.
  const note = state.final.notes.find((line) => line.startsWith('session state: '));
  if (note) return note.slice('session state: '.length) as SessionStateName;
  const code = state.final.message.status.code;
  return code === 'success' ? 'SUCCESS' : code === 'partial' ? 'PARTIAL' : 'FAILED';
}
