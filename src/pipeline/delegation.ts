/**
 * Delegation (docs/tools.md "Delegation"): an agent with `delegates:` is offered a `delegate` tool
 * that runs a child session through the same runner and returns seed 004's response (its result,
 * files, sources, tokens and facts). Each limit (depth, fan-out, cycles, a looser constraint, the
 * child's deadline and token budget) refuses or stops it with a violation on the parent's entry.
 * The child's id derives from the parent's and the call's, so a recovered parent resumes its
 * existing child rather than starting a second.
 */
import type { AgentDefinition } from '../governance/agent-definition.js';
import { SessionPrivacy } from '../privacy/session-privacy.js';
import { openSessionVault } from '../privacy/session-vaults.js';
import { sha256Hex } from '../sha256-hex.js';
import type { DelegatedFrom } from '../store/session-journal.js';
import type { DelegationOutcome, JournaledToolCall } from '../store/tool-journal-records.js';
import type { ActiveSession } from './message-commit.js';
import { childRequestText, looserConstraint, readEnvelope, type DelegationEnvelope } from './delegation-envelope.js';
import { childReport, outputFacts } from './delegation-report.js';
import {
  SessionInterruptedError,
  type NewSessionRequest,
  type RunnerDependencies,
  type SessionOutcome,
} from './runner-contract.js';

/** What the delegation needs from the runner that runs its children. */
export interface ChildSessionRunner {
  sessionExists(sessionId: string): boolean;
  startSession(request: NewSessionRequest, signal: AbortSignal): Promise<SessionOutcome>;
  recoverSession(sessionId: string, signal: AbortSignal): Promise<SessionOutcome>;
}

/** A `delegate` call's text for the model, whether it reports a failure, and its journal entry. */
export interface DelegationResult {
  output: string;
  isError: boolean;
  delegation: DelegationOutcome;
}

/** The child session id of one parent tool call: stable across restarts. */
export function childSessionId(parentSessionId: string, callId: string): string {
  return `${parentSessionId}.d${sha256Hex(`${parentSessionId}\n${callId}`).slice(0, 10)}`;
}

function cycleKey(origin: string, target: string, objectiveSha256: string): string {
  return `${origin}>${target}#${objectiveSha256}`;
}

export class Delegations {
  /** Children running now, by the id of their tree's root session. */
  private readonly running = new Map<string, number>();
  /** Cycle keys delegated so far in each tree (this process). */
  private readonly delegated = new Map<string, Set<string>>();

  constructor(
    private readonly deps: RunnerDependencies,
    private readonly runner: () => ChildSessionRunner,
    private readonly now: () => Date,
  ) {}

  /** Runs one `delegate` call of `agent` in `active`; never throws except when the parent is stopped. */
  async call(
    active: ActiveSession,
    agent: AgentDefinition,
    call: JournaledToolCall,
    signal: AbortSignal,
  ): Promise<DelegationResult> {
    const started = performance.now();
    const input = (call.input ?? {}) as Record<string, unknown>;
    const target = typeof input.agent === 'string' ? input.agent : '';
    const objectiveSha256 = sha256Hex(typeof input.objective === 'string' ? input.objective : '');
    const base = { agent: target, objective_sha256: objectiveSha256, origin: agent.name };
    const refuse = (name: string, detail: string): DelegationResult => ({
      output: `delegation refused (${name}): ${detail}`,
      isError: true,
      delegation: {
        ...base,
        child_session: null,
        status: 'refused',
        ms: Math.round(performance.now() - started),
        limit: { name, detail },
      },
    });
    const read = readEnvelope(agent, input);
    // Unusable input is refused without a limit (no violation): the model called it wrong.
    if ('invalid' in read) {
      return {
        output: `delegate was not run: ${read.invalid}`,
        isError: true,
        delegation: { ...base, child_session: null, status: 'refused', ms: 0 },
      };
    }
    const envelope = read.envelope;
    const limits = this.deps.config.limits;
    const parent = active.state.session;
    const parentFrom = parent.delegation;
    const rootId = parentFrom?.root_session_id ?? parent.session_id;
    const parentDepth = parentFrom?.depth ?? 0;
    const childId = childSessionId(parent.session_id, call.id);
    const key = cycleKey(agent.name, target, objectiveSha256);
    const runner = this.runner();
    // A child started before a crash resumes: it was admitted then, its limits already checked.
    const resuming = runner.sessionExists(childId);
    if (!resuming) {
      const looser = looserConstraint(envelope.constraints, limits);
      if (looser) return refuse(looser.name, looser.detail);
      // Seed 004's rule: a session at depth d may delegate while d < max_depth (the user's session is depth 0).
      if (parentDepth >= limits.max_depth) {
        return refuse(
          'max_depth',
          `this session is at depth ${parentDepth}, and a session may delegate only while its depth is under limits.max_depth = ` +
            `${limits.max_depth} (the user's session is depth 0); do the work yourself or raise limits.max_depth`,
        );
      }
      const running = this.running.get(rootId) ?? 0;
      if (running >= limits.max_fan_out) {
        return refuse(
          'max_fan_out',
          `${running} child sessions of this session tree are running already (limits.max_fan_out = ${limits.max_fan_out}); wait for one to ` +
            `finish or do the work yourself`,
        );
      }
      if (this.seenInTree(active, rootId, key)) {
        return refuse(
          'cycle',
          `${agent.name} already delegated this same objective to ${target} in this session tree (a delegation cycle); use the earlier result ` +
            `or change the objective`,
        );
      }
    }
    this.delegated.set(rootId, (this.delegated.get(rootId) ?? new Set<string>()).add(key));
    this.running.set(rootId, (this.running.get(rootId) ?? 0) + 1);
    try {
      const outcome = await this.runChild(
        active,
        call,
        { childId, envelope, rootId, depth: parentDepth + 1, key, resuming },
        signal,
      );
      const result = outcome.result;
      const report = await childReport(this.deps, parent.session_id, childId, result.usage);
      const ms = Math.round(performance.now() - started);
      const limit = stoppedBy(result);
      const facts = outputFacts(result.output);
      const failed = result.status === 'failed' || result.status === 'cancelled';
      const document = {
        child_session: childId,
        agent: target,
        status: result.status,
        output: result.output,
        message: result.message,
        ...report,
        ...facts,
        ...(failed ? { error: errorOf(result) } : {}),
      };
      // In the child's placeholders (or its originals, with pii.restore_in_result): back to the originals with
      // the child's vault, then redacted by the parent's, so that each value takes the parent's placeholder.
      const plain = active.privacy
        ? SessionPrivacy.forSession(
            this.deps.config,
            await openSessionVault(this.deps.config, this.deps.store, childId),
          ).restore(document)
        : document;
      const text = JSON.stringify(plain);
      return {
        output: active.privacy ? active.privacy.redactUserText(text) : text,
        isError: failed,
        delegation: {
          ...base,
          child_session: childId,
          status: result.status,
          ms,
          ...(limit ? { limit } : {}),
          artifacts: report.artifacts.length,
          ...(facts.confidence !== undefined ? { confidence: facts.confidence } : {}),
          token_usage: report.token_usage,
        },
      };
    } finally {
      const left = (this.running.get(rootId) ?? 1) - 1;
      if (left > 0) this.running.set(rootId, left);
      else this.running.delete(rootId);
    }
  }

  /** The same cycle key among the ancestors, this session's journaled calls, or this tree's. */
  private seenInTree(active: ActiveSession, rootId: string, key: string): boolean {
    if (active.state.session.delegation?.lineage.includes(key)) return true;
    for (const loop of active.state.toolLoops.values()) {
      for (const turn of loop.turns) {
        for (const result of turn.results.values()) {
          const done = result.delegation;
          if (done && done.status !== 'refused' && cycleKey(done.origin, done.agent, done.objective_sha256) === key)
            return true;
        }
      }
    }
    return this.delegated.get(rootId)?.has(key) ?? false;
  }

  private async runChild(
    active: ActiveSession,
    call: JournaledToolCall,
    child: {
      childId: string;
      envelope: DelegationEnvelope;
      rootId: string;
      depth: number;
      key: string;
      resuming: boolean;
    },
    signal: AbortSignal,
  ): Promise<SessionOutcome> {
    const { config } = this.deps;
    const parent = active.state.session;
    const runner = this.runner();
    const { envelope } = child;
    const constraints = envelope.constraints;
    const deadlineMs = constraints.deadline_ms ?? config.limits.delegation_deadline_ms;
    const deadlineAt = child.resuming ? null : new Date(this.now().getTime() + deadlineMs);
    const from: DelegatedFrom = {
      parent_session_id: parent.session_id,
      root_session_id: child.rootId,
      depth: child.depth,
      call_id: call.id,
      lineage: [...(parent.delegation?.lineage ?? []), child.key],
      deadline_at: (deadlineAt ?? new Date(0)).toISOString(),
      max_tokens: constraints.max_tokens ?? config.limits.max_tokens_per_delegation,
      ...(Object.keys(constraints).length > 0 ? { constraints } : {}),
    };
    // The deadline stops a running step; the child's own limit check then ends it failed.
    const stop = new AbortController();
    const remaining = deadlineAt ? deadlineAt.getTime() - this.now().getTime() : deadlineMs;
    const timer = setTimeout(() => stop.abort(), Math.max(0, remaining));
    const childSignal = AbortSignal.any([signal, stop.signal]);
    this.deps.log?.info(child.resuming ? 'delegated session resumed' : 'delegated session started', {
      session: parent.session_id,
      child: child.childId,
      agent: envelope.target,
      depth: child.depth,
    });
    try {
      if (child.resuming) return await runner.recoverSession(child.childId, childSignal);
      return await runner.startSession(
        {
          requestId: child.childId,
          sessionId: child.childId,
          text: childRequestText(envelope.objective, envelope.input),
          user: parent.request.user,
          sourceFile: `delegate:${parent.session_id}/${call.id}`,
          claimedPath: null,
          entryAgent: envelope.target,
          delegation: from,
          handoff: { context_hints: envelope.contextHints, handoff_data: envelope.handoffData },
        },
        childSignal,
      );
    } catch (error) {
      if (signal.aborted || !stop.signal.aborted) throw error;
      // The deadline passed mid-step: run the child on, so its deadline check ends it failed.
      if (!(error instanceof SessionInterruptedError))
        this.deps.log?.warn('delegated session stopped at its deadline', { child: child.childId });
      return await runner.recoverSession(child.childId, signal);
    } finally {
      clearTimeout(timer);
    }
  }
}

/** The `error` of a child that did not succeed: its own, or the cancel that ended it. */
function errorOf(result: SessionOutcome['result']): { error_code: string; error_message: string } {
  if (result.status === 'cancelled') return { error_code: 'CANCELLED', error_message: result.message };
  const code = result.error?.error_code;
  const message = result.error?.error_message;
  return {
    error_code: typeof code === 'string' ? code : 'PROCESSING_ERROR',
    error_message: typeof message === 'string' ? message : result.message,
  };
}

/** The delegation limit that ended a child (deadline or token budget), from its result. */
function stoppedBy(result: SessionOutcome['result']): { name: string; detail: string } | null {
  if (result.status !== 'failed') return null;
  const message = typeof result.error?.error_message === 'string' ? result.error.error_message : result.message;
  if (message.includes('limits.delegation_deadline_ms')) return { name: 'delegation_deadline_ms', detail: message };
  if (message.includes('limits.max_tokens_per_delegation'))
    return { name: 'max_tokens_per_delegation', detail: message };
  if (message.includes('constraints.deadline_ms')) return { name: 'constraints.deadline_ms', detail: message };
  if (message.includes('constraints.max_tokens')) return { name: 'constraints.max_tokens', detail: message };
  return null;
}
