/**
 * Delegation (README "Delegation"): an agent with `delegates:` is offered a `delegate` tool that
 * runs a child session through the same runner and returns its result. Each limit (depth, fan-out,
 * cycles, the child's deadline and token budget) refuses or stops it with a violation on the
 * parent's entry. The child's id derives from the parent's and the call's, so a recovered parent
 * resumes its existing child rather than starting a second.
 */
import type { AgentDefinition } from '../governance/agent-definition.js';
import type { LlmToolOffer } from '../llm/provider.js';
import { SessionPrivacy } from '../privacy/session-privacy.js';
import { openSessionVault } from '../privacy/session-vaults.js';
import { sha256Hex } from '../sha256-hex.js';
import type { DelegatedFrom } from '../store/session-journal.js';
import type { DelegationOutcome, JournaledToolCall } from '../store/tool-journal-records.js';
import type { ActiveSession } from './message-commit.js';
import {
  SessionInterruptedError,
  type NewSessionRequest,
  type RunnerDependencies,
  type SessionOutcome,
} from './runner-contract.js';

export const DELEGATE_TOOL_NAME = 'delegate';

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

/** The `delegate` tool as the model is offered it. */
export function delegateOffer(agent: AgentDefinition): LlmToolOffer {
  return {
    name: DELEGATE_TOOL_NAME,
    description:
      `Hands a sub-task to another agent, which works on it in a separate session and returns its result (status, output, ` +
      `message). Agents you may delegate to: ${agent.delegates.join(', ')}.`,
    inputSchema: {
      type: 'object',
      properties: {
        agent: { type: 'string', enum: [...agent.delegates], description: 'The agent that starts the child session.' },
        objective: { type: 'string', description: 'What the child session must achieve.' },
        input: { description: 'The material it works on (text or JSON).' },
      },
      required: ['agent', 'objective'],
      additionalProperties: false,
    },
  };
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
    const objective = typeof input.objective === 'string' ? input.objective : '';
    const objectiveSha256 = sha256Hex(objective);
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
    // Unusable input is refused without a limit (no violation): the model called it wrong.
    const notRun = (detail: string): DelegationResult => ({
      output: `delegate was not run: ${detail}`,
      isError: true,
      delegation: { ...base, child_session: null, status: 'refused', ms: 0 },
    });
    if (!agent.delegates.includes(target)) {
      return notRun(
        target === ''
          ? `"agent" must name one of: ${agent.delegates.join(', ')}`
          : `${agent.name} may not delegate to "${target}"; it may delegate to: ${agent.delegates.join(', ')}`,
      );
    }
    if (objective.trim() === '')
      return notRun('"objective" must be a non-empty string saying what the child session must achieve');
    const { config } = this.deps;
    const limits = config.limits;
    const parent = active.state.session;
    const parentFrom = parent.delegation;
    const rootId = parentFrom?.root_session_id ?? parent.session_id;
    const depth = (parentFrom?.depth ?? 0) + 1;
    const childId = childSessionId(parent.session_id, call.id);
    const key = cycleKey(agent.name, target, objectiveSha256);
    const runner = this.runner();
    // A child started before a crash resumes: it was admitted then, its limits already checked.
    const resuming = runner.sessionExists(childId);
    if (!resuming) {
      if (depth > limits.max_depth) {
        return refuse(
          'max_depth',
          `a child of this session would be at depth ${depth}, over limits.max_depth = ${limits.max_depth} (the user's session is depth 0); ` +
            `do the work yourself or raise limits.max_depth`,
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
        { childId, target, objective, input: input.input, rootId, depth, key, resuming },
        signal,
      );
      const ms = Math.round(performance.now() - started);
      const result = outcome.result;
      const limit = stoppedBy(result);
      const document = {
        child_session: childId,
        agent: target,
        status: result.status,
        output: result.output,
        message: result.message,
      };
      // In the child's placeholders (or its originals, with pii.restore_in_result): back to the originals with
      // the child's vault, then redacted by the parent's, so that each value takes the parent's placeholder.
      const plain = active.privacy
        ? SessionPrivacy.forSession(
            this.deps.config,
            await openSessionVault(this.deps.config, this.deps.store, childId),
          ).restore(document)
        : document;
      const text = JSON.stringify(limit ? { ...plain, stopped_by: limit.name } : plain);
      return {
        output: active.privacy ? active.privacy.redactUserText(text) : text,
        isError: result.status === 'failed',
        delegation: { ...base, child_session: childId, status: result.status, ms, ...(limit ? { limit } : {}) },
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
      target: string;
      objective: string;
      input: unknown;
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
    const deadlineAt = child.resuming ? null : new Date(this.now().getTime() + config.limits.delegation_deadline_ms);
    const from: DelegatedFrom = {
      parent_session_id: parent.session_id,
      root_session_id: child.rootId,
      depth: child.depth,
      call_id: call.id,
      lineage: [...(parent.delegation?.lineage ?? []), child.key],
      deadline_at: (deadlineAt ?? new Date(0)).toISOString(),
      max_tokens: config.limits.max_tokens_per_delegation,
    };
    // The deadline stops a running step; the child's own limit check then ends it failed.
    const stop = new AbortController();
    const remaining = deadlineAt ? deadlineAt.getTime() - this.now().getTime() : config.limits.delegation_deadline_ms;
    const timer = setTimeout(() => stop.abort(), Math.max(0, remaining));
    const childSignal = AbortSignal.any([signal, stop.signal]);
    this.deps.log?.info(child.resuming ? 'delegated session resumed' : 'delegated session started', {
      session: parent.session_id,
      child: child.childId,
      agent: child.target,
      depth: child.depth,
    });
    try {
      if (child.resuming) return await runner.recoverSession(child.childId, childSignal);
      const text =
        child.input === undefined || child.input === null
          ? child.objective
          : `${child.objective}\n\nInput:\n${typeof child.input === 'string' ? child.input : JSON.stringify(child.input, null, 2)}`;
      return await runner.startSession(
        {
          requestId: child.childId,
          sessionId: child.childId,
          text,
          user: parent.request.user,
          sourceFile: `delegate:${parent.session_id}/${call.id}`,
          claimedPath: null,
          entryAgent: child.target,
          delegation: from,
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

/** The delegation limit that ended a child (deadline or token budget), from its result. */
function stoppedBy(result: SessionOutcome['result']): { name: string; detail: string } | null {
  if (result.status !== 'failed') return null;
  const message = typeof result.error?.error_message === 'string' ? result.error.error_message : result.message;
  if (message.includes('limits.delegation_deadline_ms')) return { name: 'delegation_deadline_ms', detail: message };
  if (message.includes('limits.max_tokens_per_delegation'))
    return { name: 'max_tokens_per_delegation', detail: message };
  return null;
}
