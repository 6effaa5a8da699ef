/**
 * The tool side of a step: what the agent is offered, and one model turn's calls — refused, paused
 * for approval, or run: `delegate` calls at the same time (at most `limits.max_fan_out` at once),
 * the others one after another. The turn is journaled before any call runs and each result, in the
 * order of the calls, before the next turn, so a call whose result is journaled never runs again
 * (nor a repeat of its id).
 */
import type { OrchestratorFailure } from '../message/orchestrator-messages.js';
import type { AgentDefinition } from '../governance/agent-definition.js';
import type { LlmToolCall, LlmToolOffer, LlmToolTurn } from '../llm/provider.js';
import { JOURNAL_FORMAT } from '../store/journal-format.js';
import type { Delegations } from './delegation.js';
import { DELEGATE_TOOL_NAME, delegateOffer } from './delegation-envelope.js';
import { Slots, TurnRuns, type ToolRun } from './tool-turn-runs.js';
import { approvalRequest } from './approval-request.js';
import type {
  DelegationOutcome,
  JournaledToolCall,
  ToolRefusal,
  ToolResultRecord,
  ToolStartRecord,
  ToolTurnRecord,
} from '../store/tool-journal-records.js';
import { truncateUtf8, type ToolOutcome } from '../tools/tool-contract.js';
import { anyPatternMatches, hasOutsideEffects } from '../tools/tool-names.js';
import { argumentsSha256 } from '../message/canonical-json.js';
import type { ActiveSession } from './message-commit.js';
import { SessionInterruptedError, type RunnerDependencies } from './runner-contract.js';
import { applyRecord, type ToolLoopState, type ToolLoopTurn } from './session-state.js';

/** The result of a call that started but whose end the journal does not show. */
const INTERRUPTED = (name: string) =>
  `${name} was started, but the session stopped (a crash or a daemon stop) before its result was recorded: it may or may not have ` +
  'run, and it is not run again (calls with effects outside the workspace run at most once). Check its effects, or call it again.';

export class ToolLoop {
  constructor(
    private readonly deps: RunnerDependencies,
    private readonly now: () => Date,
    private readonly delegations?: Delegations,
  ) {}

  /** The tools offered to `agent` in a session (none without a tool box or a `tools:` list), and `delegate` with `delegates:`. */
  async offers(agent: AgentDefinition, signal: AbortSignal, sessionId?: string): Promise<LlmToolOffer[]> {
    const delegate = this.delegations && agent.delegates.length > 0 ? [delegateOffer(agent)] : [];
    if (!this.deps.tools || agent.tools.length === 0) return delegate;
    return [...(await this.deps.tools.offered(agent.tools, signal, sessionId)), ...delegate];
  }

  /** True when `agent` was offered the tool `name`. */
  private offered(agent: AgentDefinition, name: string): boolean {
    if (name === DELEGATE_TOOL_NAME) return this.delegations !== undefined && agent.delegates.length > 0;
    return anyPatternMatches(agent.tools, name);
  }

  /** Journals a model turn that called tools (before any of them runs) and returns it. */
  recordTurn(
    active: ActiveSession,
    stepKey: string,
    agent: AgentDefinition,
    attempt: number,
    text: string,
    calls: LlmToolCall[],
  ): ToolLoopTurn {
    const journaled: JournaledToolCall[] = calls.map((call) => ({
      id: call.id,
      name: call.name,
      input: call.input,
      ...(call.inputError ? { input_error: call.inputError } : {}),
    }));
    this.append(active, {
      v: JOURNAL_FORMAT,
      type: 'tool_turn',
      agent: agent.name,
      step: stepKey,
      attempt,
      text,
      calls: journaled,
      at: this.now().toISOString(),
    });
    return active.state.toolLoops.get(stepKey)!.turns.at(-1)!;
  }

  /** Runs the calls of `turn` without a journaled result; 'paused' when one waits for approval. */
  async runTurn(
    active: ActiveSession,
    stepKey: string,
    agent: AgentDefinition,
    turn: ToolLoopTurn,
    signal: AbortSignal,
    guard?: ToolResultGuard,
  ): Promise<'done' | 'paused' | { intervene: OrchestratorFailure }> {
    const { state } = active;
    const sessionId = state.session.session_id;
    const runs = new TurnRuns();
    const slots = new Slots(this.deps.config.limits.max_fan_out);
    const recorded = (record: () => void): Promise<ToolRun> => Promise.resolve({ intervene: null, record });
    for (const call of turn.calls) {
      if (runs.stopped) break;
      if (turn.results.has(call.id)) continue;
      const journaled = earlierResult(state.toolLoops.get(stepKey), turn, call.id);
      if (journaled) {
        // The same call again (a model, or a script, repeating its id): it ran once, and its approval was used then.
        this.deps.log?.warn('tool call not run again: its result is journaled', {
          session: sessionId,
          agent: agent.name,
          tool: call.name,
          call: call.id,
        });
        void runs.add(
          recorded(() =>
            this.recordResult(
              active,
              stepKey,
              agent,
              call,
              { output: journaled.output, isError: journaled.is_error, command: journaled.command },
              journaled.refused,
              0,
              journaled.delegation,
            ),
          ),
        );
        continue;
      }
      const refuse = (refused: ToolRefusal, output: string) =>
        void runs.add(
          recorded(() => this.recordResult(active, stepKey, agent, call, { output, isError: true }, refused, 0)),
        );
      if (!this.offered(agent, call.name)) {
        this.deps.log?.warn('tool call refused: not offered to this agent', {
          session: sessionId,
          agent: agent.name,
          tool: call.name,
        });
        const allowed =
          agent.tools.length > 0 ? `the tools you may call are: ${agent.tools.join(', ')}` : 'you may call no tools';
        refuse(
          'tool_not_allowed',
          `tool "${call.name}" is not available to ${agent.name}; it was not run (${allowed})`,
        );
        continue;
      }
      if (call.input_error !== undefined) {
        refuse(
          'invalid_input',
          `${call.name} was not run: its arguments are not a usable JSON object (${call.input_error}); call it again with valid JSON arguments`,
        );
        continue;
      }
      const commandRefusal = this.deps.tools?.refusal(call.name, call.input) ?? null;
      if (commandRefusal !== null) {
        this.deps.log?.warn('tool call refused: command not allowed', {
          session: sessionId,
          agent: agent.name,
          tool: call.name,
        });
        refuse('command_not_allowed', `${call.name} was not run: ${commandRefusal}`);
        continue;
      }
      // Started before a crash or stop, its end not journaled: it may have run; it is not run again
      // unless a person approves it anew (SPEC §15, at most once per approval).
      const interrupted = turn.started.has(call.id);
      if (anyPatternMatches(agent.approval, call.name) || this.deps.tools?.needsApproval(call.name, call.input)) {
        const decision = state.usedApprovals.has(call.id) ? undefined : state.approvals.get(call.id);
        if (!decision) {
          // The calls before it finish and are journaled first: they never run again after the reply.
          const intervene = await runs.settle();
          if (intervene) return { intervene };
          await this.requestApproval(active, stepKey, agent, call, interrupted);
          return 'paused';
        }
        if (!decision.approve) {
          const who = decision.user ? ` (${decision.user})` : '';
          refuse(
            'approval_denied',
            `${call.name} was not run: a person${who} denied it${decision.reason ? `: ${decision.reason}` : ''}`,
          );
          continue;
        }
        // An approval is for these exact arguments (docs/results.md).
        if (decision.args_sha256 !== undefined && decision.args_sha256 !== argumentsSha256(call.input)) {
          refuse(
            'approval_denied',
            `${call.name} was not run: its arguments differ from the ones approved (args_sha256 ${decision.args_sha256}); call it again to ` +
              `ask for a new approval`,
          );
          continue;
        }
      }
      const approvedAnew = state.approvals.has(call.id) && !state.usedApprovals.has(call.id);
      if (interrupted && !approvedAnew) {
        this.deps.log?.warn('tool call not run again: it started before the session stopped, its end unknown', {
          session: sessionId,
          agent: agent.name,
          tool: call.name,
          call: call.id,
        });
        void runs.add(
          recorded(() =>
            this.recordResult(active, stepKey, agent, call, { output: INTERRUPTED(call.name), isError: true }, null, 0),
          ),
        );
        continue;
      }
      if (call.name === DELEGATE_TOOL_NAME)
        void runs.add(slots.run(() => this.execute(active, stepKey, agent, call, signal, guard)));
      else await runs.add(this.execute(active, stepKey, agent, call, signal, guard));
    }
    const intervene = await runs.settle();
    return intervene ? { intervene } : 'done';
  }

  /** Runs one call; its run journals the result when recorded. An `intervene` guardrail on the result ends the step. */
  private async execute(
    active: ActiveSession,
    stepKey: string,
    agent: AgentDefinition,
    call: JournaledToolCall,
    signal: AbortSignal,
    guard?: ToolResultGuard,
  ): Promise<ToolRun> {
    const sessionId = active.state.session.session_id;
    const events = this.deps.events;
    const taskId = stepKey.startsWith('task:') ? stepKey.slice('task:'.length) : null;
    // After a cancel is claimed no tool call starts (docs/run-control.md); a stop leaves it for the restart.
    if (signal.aborted)
      throw new SessionInterruptedError(`session ${sessionId} stopped before ${call.name} could start`);
    // Durable before the call runs: after a crash it is known to have maybe run (SPEC §15).
    if (hasOutsideEffects(call.name)) {
      const start: ToolStartRecord = {
        v: JOURNAL_FORMAT,
        type: 'tool_start',
        agent: agent.name,
        step: stepKey,
        id: call.id,
        name: call.name,
        at: this.now().toISOString(),
      };
      await active.stored.recordToolStart(start);
      applyRecord(active.state, start);
    }
    events?.emit('tool_call_start', {
      sessionId,
      agent: agent.name,
      id: call.id,
      name: call.name,
      input: call.input,
      taskId,
    });
    const started = performance.now();
    let outcome: ToolOutcome;
    let delegation: DelegationOutcome | undefined;
    try {
      if (call.name === DELEGATE_TOOL_NAME && this.delegations) {
        const delegated = await this.delegations.call(active, agent, call, signal);
        outcome = { output: delegated.output, isError: delegated.isError };
        delegation = delegated.delegation;
      } else
        outcome = this.deps.tools
          ? await this.deps.tools.call(call.name, call.input, { sessionId, callId: call.id, signal })
          : { output: `${call.name}: no tools are available in this process`, isError: true };
    } catch (error) {
      // Only a stop aborts a call: no result is journaled; after the restart a call without outside effects
      // runs again, one with them does not (its tool_start record, SPEC §15).
      if (signal.aborted)
        throw new SessionInterruptedError(`session ${sessionId} interrupted by shutdown during ${call.name}`);
      throw error;
    }
    const ms = Math.round(performance.now() - started);
    // PII redaction and tool_result guardrails (README "Privacy and guardrails") before the result is journaled or shown.
    const guarded = guard && !outcome.isError ? guard(outcome.output) : null;
    if (guarded)
      outcome =
        guarded.retry !== null
          ? { ...outcome, output: guarded.retry, isError: true }
          : { ...outcome, output: guarded.value, isError: guarded.intervene !== null };
    const refused =
      delegation?.status === 'refused' ? (delegation.limit ? 'delegation_refused' : 'invalid_input') : null;
    const result = outcome;
    return {
      intervene: guarded?.intervene ?? null,
      record: () => {
        this.recordResult(active, stepKey, agent, call, result, refused, ms, delegation);
        events?.emit('tool_call_result', {
          sessionId,
          agent: agent.name,
          id: call.id,
          name: call.name,
          isError: result.isError,
          ms,
          taskId,
          output: result.output,
        });
      },
    };
  }

  private recordResult(
    active: ActiveSession,
    stepKey: string,
    agent: AgentDefinition,
    call: JournaledToolCall,
    outcome: ToolOutcome,
    refused: ToolRefusal | null,
    ms: number,
    delegation?: DelegationOutcome,
  ): void {
    const limit = this.deps.config.tools.max_result_bytes;
    const cut = truncateUtf8(outcome.output, limit);
    const output = cut.truncated
      ? `${cut.text}\n[result truncated: ${cut.bytes} bytes, only the first ${limit} (tools.max_result_bytes) are shown]`
      : cut.text;
    const record: ToolResultRecord = {
      v: JOURNAL_FORMAT,
      type: 'tool_result',
      agent: agent.name,
      step: stepKey,
      id: call.id,
      name: call.name,
      output,
      truncated: cut.truncated,
      bytes: cut.bytes,
      is_error: outcome.isError,
      refused,
      ms,
      ...(delegation ? { delegation } : {}),
      ...(outcome.wrote && !outcome.isError ? { wrote: outcome.wrote } : {}),
      ...(outcome.command ? { command: outcome.command } : {}),
      at: this.now().toISOString(),
    };
    this.append(active, record);
  }

  private async requestApproval(
    active: ActiveSession,
    stepKey: string,
    agent: AgentDefinition,
    call: JournaledToolCall,
    interrupted: boolean,
  ): Promise<void> {
    const record = approvalRequest(active.state.session.session_id, stepKey, agent.name, call, interrupted, this.now());
    await active.stored.recordApproval(record);
    applyRecord(active.state, record);
    this.deps.log?.info('tool call waits for approval', {
      session: active.state.session.session_id,
      agent: agent.name,
      tool: call.name,
      call: call.id,
    });
  }

  private append(active: ActiveSession, record: ToolTurnRecord | ToolResultRecord): void {
    // Page cache is enough against a killed process; the step's message record syncs it with the rest.
    active.stored.recordToolCall(record);
    applyRecord(active.state, record);
  }
}

/** What the privacy rules make of a tool's result: the text the model may see, a `retry` message, or an `intervene` failure. */
export type ToolResultGuard = (output: string) => {
  value: string;
  retry: string | null;
  intervene: OrchestratorFailure | null;
};

/** The journaled result of call `id` in a turn of `loop` before `turn`, if any. */
function earlierResult(loop: ToolLoopState | undefined, turn: ToolLoopTurn, id: string): ToolResultRecord | undefined {
  for (const candidate of loop?.turns ?? []) {
    if (candidate === turn) return undefined;
    const result = candidate.results.get(id);
    if (result) return result;
  }
  return undefined;
}

/** The journaled turns of a loop as the provider replays them. */
export function providerTurns(loop: ToolLoopState | undefined): LlmToolTurn[] {
  return (loop?.turns ?? []).map((turn) => ({
    text: turn.text,
    calls: turn.calls.map((call) => ({ id: call.id, name: call.name, input: call.input })),
    results: turn.calls.map((call) => {
      const result = turn.results.get(call.id);
      return { id: call.id, name: call.name, output: result?.output ?? 'not run', isError: result?.is_error ?? true };
    }),
  }));
}
