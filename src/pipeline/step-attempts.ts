/** One step's attempt/repair loop, up to `max_retries` repairs: decides the `StepOutcome`, commits nothing. */
import type { Delegations } from './delegation.js';
import { batchedChunks } from './chunk-batches.js';
import { raceAbort } from '../abort-race.js';
import type { GovflowConfig } from '../config/config-loader.js';
import { ProviderError, errorMessage } from '../errors.js';
import { findAnswerTooLarge } from '../llm/answer-size-limit.js';
import { ProviderCallError } from '../llm/provider-call-error.js';
import type { LlmProvider, LlmToolCall } from '../llm/provider.js';
import { isRetrying, retrySettings, withRetries } from '../llm/retrying-provider.js';
import type { AgentDefinition } from '../governance/agent-definition.js';
import type { GovernanceSnapshot } from '../governance/governance-loader.js';
import { executionalAgents } from '../governance/routing-graph.js';
import { stampMessage } from '../message/message-stamping.js';
import { MessageValidator } from '../message/message-validator.js';
import type { ExchangeRecord, UsageFigures } from '../store/session-journal.js';
import { JOURNAL_FORMAT } from '../store/journal-format.js';
import { stampContext, type ActiveSession, type StepOutcome } from './message-commit.js';
import { buildRepairPrompt } from './prompt-builder.js';
import { stepPrompts } from './step-prompts.js';
import { SessionInterruptedError, type RunnerDependencies } from './runner-contract.js';
import { budgetUserOf, dailyBudgetReached, limitHalt, limitReached } from './session-limits.js';
import { applyRecord, emptyUsage } from './session-state.js';
import type { PendingStep } from './session-steps.js';
import { ToolLoop, providerTurns } from './tool-loop.js';
import { checkEvidence } from './evidence-check.js';
import { guardStepOutput, toolResultGuard } from './step-guardrails.js';
import { withConnectionNotes } from '../llm/node-http-fetch.js';
import { candidateOf } from './answer-protocols.js';
import { SACP_SCHEMA } from './sacp-answer.js';
import { effectiveLimits } from '../intake/request-limits.js';
import { commitHalt } from './session-halts.js';

/** A step's outcome, or a pause: a tool call waits for a person's approval, or a deadline halt (SPEC §25); no message is committed. */
export type AttemptsOutcome = StepOutcome | { kind: 'paused' };

export class StepAttempts {
  private readonly validators = new WeakMap<GovernanceSnapshot, MessageValidator>();
  private readonly toolLoop: ToolLoop;
  /** The provider inside the retry wrapper; dry-run never fails, so it runs bare. */
  private readonly provider: LlmProvider;

  constructor(
    private readonly deps: RunnerDependencies,
    private readonly now: () => Date,
    delegations?: Delegations,
  ) {
    this.toolLoop = new ToolLoop(deps, now, delegations);
    const bare = deps.provider;
    this.provider = bare.synthetic || isRetrying(bare) ? bare : withRetries(bare, retrySettings(deps.config));
  }

  private get config(): GovflowConfig {
    return this.deps.config;
  }

  private validatorFor(snapshot: GovernanceSnapshot): MessageValidator {
    const validator =
      this.validators.get(snapshot) ??
      new MessageValidator(snapshot.messageSchema, executionalAgents(snapshot.agents), this.config.message.max_depth);
    this.validators.set(snapshot, validator);
    return validator;
  }

  /** Runs the loop for `agent` on `step`; throws SessionInterruptedError on shutdown. */
  async run(
    active: ActiveSession,
    step: PendingStep,
    snapshot: GovernanceSnapshot,
    agent: AgentDefinition,
    signal: AbortSignal,
  ): Promise<AttemptsOutcome> {
    const { state } = active;
    const events = this.deps.events;
    const sessionId = state.session.session_id;
    const built = await stepPrompts(this.deps, active, step, snapshot, agent);
    if ('failure' in built) return { kind: 'failure', failure: built.failure, retryCount: 0 };
    const { prompt, userPrompt, files } = built;
    const maxRetries = agent.maxRetries ?? this.config.limits.max_retries;
    const history: Array<{ role: 'user' | 'assistant'; content: string }> = [];
    let problems: string[] = [];
    let lastRaw: string | null = null;
    const stepLabel = step.taskId ? `task ${step.taskId}` : `step ${state.lastSequence + 1}`;
    this.deps.log?.debug?.('agent step', { session: sessionId, agent: agent.name, step: stepLabel });
    events?.emit('step_started', {
      sessionId,
      agent: agent.name,
      sequence: state.lastSequence + 1,
      taskId: step.taskId ?? null,
    });
    const stepKey = step.taskId ? `task:${step.taskId}` : String(state.lastSequence + 1);
    // Deny by default: an agent without `tools:` is offered nothing (and waits for nothing here).
    const offers =
      agent.tools.length > 0 || agent.delegates.length > 0 ? await this.toolLoop.offers(agent, signal, sessionId) : [];
    // Resumed after a crash or an approval: the last journaled turn's calls without a result run first.
    const guardTools = toolResultGuard(active, step, snapshot);
    const resumed = state.toolLoops.get(stepKey)?.turns.at(-1);
    if (resumed && resumed.calls.some((call) => !resumed.results.has(call.id))) {
      const ran = await this.toolLoop.runTurn(active, stepKey, agent, resumed, signal, guardTools);
      if (ran === 'paused') return { kind: 'paused' };
      if (ran !== 'done') return { kind: 'failure', failure: ran.intervene, retryCount: 0 };
    }

    // The session's limits: the configured ones, tightened by its request's, raised by its steward (SPEC §25).
    const limits = effectiveLimits(this.config.limits, state.session.request.limits, state.raised);
    // Repairs and tool turns stay within the session's limits (the step itself passed the loop check).
    const budgetOrDeadline = () => {
      const limit = limitReached(limits, state, step.agent, '', this.now());
      return limit && limit.failure.code !== 'LOOP_DETECTED' ? limit : null;
    };
    attempts: for (let attempt = 0; attempt <= maxRetries; attempt++) {
      if (attempt > 0) {
        const limit = budgetOrDeadline();
        if (limit) return limit;
      }
      let text = '';
      // The provider's reasoning in this attempt's model turns (SPEC §24): journaled, hashed on the entry, never passed on.
      const reasoning: string[] = [];
      const prompts = attempt === 0 ? userPrompt : history[history.length - 1].content;
      const earlier = attempt === 0 ? [] : history.slice(0, -1);
      // Model turns of the tool loop: a turn that calls tools runs them and asks again.
      for (;;) {
        // limits.user_daily_usd: no model call once the user's day is spent (calls in flight elsewhere may pass it).
        const spent = await dailyBudgetReached(this.deps.spend, active, this.now(), this.config.timezone);
        if (spent) return spent;
        const started = performance.now();
        let toolCalls: LlmToolCall[] | undefined;
        const callTimeout = agent.timeoutMs ?? this.config.llm.timeout_ms;
        const deadlineMs = Math.max(
          1,
          Date.parse(state.runStartedAt) + limits.session_timeout_ms - this.now().getTime(),
        );
        const model = agent.model ?? this.config.provider.model;
        const taskId = step.taskId ?? null;
        events?.emit('model_call_started', {
          sessionId,
          agent: agent.name,
          model,
          provider: this.deps.provider.kind,
          attempt,
          taskId,
          system: prompt.system,
          prompt: prompts,
          history: earlier,
        });
        /** Journals the exchange (durable with the step's message: the store's commit) and tells listeners. */
        /** What happened to the call's connections (src/llm/node-http-fetch.ts): a stale socket replaced before the write. */
        const connection: string[] = [];
        const finished = (modelUsed: string, error: string | null, usage: UsageFigures, thought?: string) => {
          const response = error === null ? text : null;
          events?.emit('model_call_finished', {
            sessionId,
            agent: agent.name,
            provider: this.deps.provider.kind,
            attempt,
            ms: Math.round(performance.now() - started),
            taskId,
            response,
            model: modelUsed,
            inputTokens: usage.input_tokens,
            outputTokens: usage.output_tokens,
            error,
          });
          const record: ExchangeRecord = {
            v: JOURNAL_FORMAT,
            type: 'exchange',
            agent: agent.name,
            step: stepKey,
            attempt,
            provider: this.deps.provider.kind,
            temperature: agent.temperature ?? null,
            max_tokens: agent.maxTokens ?? null,
            system_sha256: prompt.systemSha256,
            prompt: prompts,
            history: earlier,
            model: modelUsed,
            response,
            error,
            usage,
            duration_ms: Math.round(performance.now() - started),
            at: this.now().toISOString(),
            ...(connection.length > 0 ? { connection: [...connection] } : {}),
            ...(thought ? { reasoning: thought } : {}),
          };
          active.stored.recordExchange(record);
          applyRecord(state, record);
        };
        // Live chunks (docs/http-api.md), redacted without splitting a PII value across two of them (README "Privacy and guardrails").
        const emitChunk = (chunk: string) => events?.emit('content_chunk', { sessionId, agent: agent.name, chunk });
        const live = events?.readsChunks(sessionId)
          ? (active.privacy?.liveChunks(emitChunk) ?? { push: emitChunk, end: () => {} })
          : null;
        const chunks = live ? batchedChunks(live.push) : null;
        try {
          // Raced with the session's signal: a cancel takes effect even with a provider that ignores it.
          const response = await raceAbort(
            withConnectionNotes(connection, () =>
              this.provider.generate({
                agent: agent.name,
                sessionId,
                system: prompt.system,
                prompt: prompts,
                history: earlier,
                model,
                temperature: agent.temperature,
                maxTokens: agent.maxTokens,
                // A free-text agent answers prose: no JSON mode, no grammar.
                ...(agent.protocol === 'none'
                  ? { freeText: true }
                  : { jsonSchema: agent.messageFormat === 'sacp' ? SACP_SCHEMA : snapshot.messageSchema }),
                expectation: {
                  contentType: agent.contentType,
                  next: agent.next,
                  agentType: agent.type,
                  plan: agent.plan,
                  executionalAgents: executionalAgents(snapshot.agents),
                  governanceFiles: prompt.files,
                  outputSchema: agent.outputSchema,
                },
                // Shutdown only; the attempt timeouts and the deadline are the retry wrapper's.
                signal,
                timeoutMs: callTimeout,
                deadlineMs,
                ...(offers.length > 0 ? { tools: offers } : {}),
                ...(files.length > 0 ? { files } : {}),
                ...(state.toolLoops.has(stepKey) ? { toolTurns: providerTurns(state.toolLoops.get(stepKey)) } : {}),
                journaledCalls: state.agentModelCalls.get(agent.name) ?? 0,
                ...(chunks ? { onChunk: chunks.push } : {}),
              }),
            ),
            signal,
          ).finally(() => {
            chunks?.flush();
            live?.end();
          });
          // The answer is redacted before it is journaled, parsed or logged (README "Privacy and guardrails").
          text = active.privacy ? active.privacy.redactForStep(step, response.text) : response.text;
          toolCalls =
            active.privacy && response.toolCalls
              ? active.privacy.redactToolCalls(step, response.toolCalls)
              : response.toolCalls;
          const usage = response.usage;
          const costUsd = this.deps.costUsd(response.model, usage);
          // Redacted like the answer: reasoning may quote what the input held.
          const thought =
            response.reasoning &&
            (active.privacy ? active.privacy.redactForStep(step, response.reasoning) : response.reasoning);
          if (thought) reasoning.push(thought);
          finished(
            response.model,
            null,
            {
              input_tokens: usage.inputTokens,
              output_tokens: usage.outputTokens,
              cached_input_tokens: usage.cachedInputTokens,
              cost_usd: costUsd,
            },
            thought || undefined,
          );
          if (costUsd > 0) await this.deps.spend?.add(budgetUserOf(active), costUsd, this.now());
        } catch (error) {
          const tooLarge = signal.aborted ? undefined : findAnswerTooLarge(error);
          if (tooLarge) {
            // llm.max_output_bytes: the answer was cut off, which makes it invalid output (repaired like any other).
            finished(model, tooLarge.message, emptyUsage());
            lastRaw = `${tooLarge.prefix}… [cut: ${tooLarge.message}]`;
            problems = [tooLarge.message];
            this.deps.log?.warn('invalid agent output', { session: sessionId, agent: agent.name, attempt, problems });
            history.push(
              { role: 'user', content: prompts },
              { role: 'assistant', content: lastRaw },
              { role: 'user', content: buildRepairPrompt(problems) },
            );
            continue attempts;
          }
          if (signal.aborted)
            throw new SessionInterruptedError(`session ${sessionId} interrupted by shutdown`, {
              sessionId,
              cause: error,
            });
          // A defect, not a provider failure: a crash for the runner (limits.max_crash_retries).
          if (!(error instanceof ProviderError)) throw error;
          finished(model, errorMessage(error), emptyUsage());
          // The event streams' `error {message}` (docs/http-api.md): the model call failed after its retries.
          events?.emit('error', { sessionId, message: `${agent.name}: the model call failed: ${errorMessage(error)}` });
          // The deadline timer may fire a millisecond before the clock says the deadline passed.
          const pastDeadline =
            (error instanceof ProviderCallError && error.deadlinePassed) ||
            this.now().getTime() - Date.parse(state.runStartedAt) >= limits.session_timeout_ms;
          // limits.on_deadline: halt (SPEC §25): the aborted call is no failure; the session halts, and continue makes it again.
          if (pastDeadline && limits.on_deadline === 'halt' && !state.session.delegation) {
            await commitHalt(
              active,
              {
                reason: 'time',
                detail:
                  `halted during ${agent.name}'s model call: the session deadline (${Math.round(limits.session_timeout_ms / 60_000)} min) ` +
                  'passed; the call was aborted and is made again after continue',
              },
              this.deps,
              this.now,
            );
            return { kind: 'paused' };
          }
          if (pastDeadline) {
            return limitHalt(
              'HALTED_TIME',
              'TIMEOUT',
              `session stopped: the session deadline (limits.session_timeout_ms = ${limits.session_timeout_ms} ms) passed ` +
                `while ${agent.name} was running`,
              true,
              'session deadline',
            );
          }
          const code = error.timedOut ? 'TIMEOUT' : 'DEPENDENCY_ERROR';
          const detail = errorMessage(error);
          return {
            kind: 'failure',
            failure: {
              code,
              message: error.selfContained ? detail : `${agent.name}: the model call failed: ${detail}`,
              recoverable: error.retryable || error.timedOut,
              notes: `Orchestrator: provider ${this.deps.provider.kind} failed (${code}).`,
            },
            retryCount: attempt,
          };
        }

        if (!toolCalls || toolCalls.length === 0) break;
        const turnsUsed = state.toolLoops.get(stepKey)?.turns.length ?? 0;
        if (turnsUsed >= agent.maxTurns) {
          return {
            kind: 'failure',
            failure: {
              code: 'LOOP_DETECTED',
              message: `${agent.name} still called tools after max_turns = ${agent.maxTurns} model turns; it must answer with its message by then`,
              recoverable: false,
              notes: 'Orchestrator limit: max_turns of the tool loop.',
            },
            retryCount: attempt,
          };
        }
        const turn = this.toolLoop.recordTurn(active, stepKey, agent, attempt, text, toolCalls);
        const ran = await this.toolLoop.runTurn(active, stepKey, agent, turn, signal, guardTools);
        if (ran === 'paused') return { kind: 'paused' };
        if (ran !== 'done') return { kind: 'failure', failure: ran.intervene, retryCount: attempt };
        // A long tool loop is still bound by the session's deadline and budgets.
        const limit = budgetOrDeadline();
        if (limit) return limit;
      }

      lastRaw = text;
      const parsed = candidateOf(agent, text, this.config.message.max_depth);
      if (parsed.ok) {
        const provisional = stampMessage(
          parsed.value,
          stampContext(this.config, this.now(), state, step, agent, 0, attempt),
        );
        const outcome = this.validatorFor(snapshot).validate(provisional.message, agent);
        const guarded = outcome.ok ? guardStepOutput(active, step, snapshot, parsed.value, attempt) : null;
        if (outcome.ok && guarded?.kind === 'accept') {
          const evidence = await checkEvidence(provisional.message, this.deps.tools, sessionId);
          if (evidence.ok) {
            const plan = guarded.intervened ? null : (outcome.plan ?? null);
            const sources = [...reasoning, ...(parsed.thought ? [parsed.thought] : [])];
            return {
              kind: 'answer',
              candidate: guarded.candidate,
              plan,
              retryCount: attempt,
              promptFiles: prompt.files,
              ...(sources.length > 0 ? { reasoning: sources.join('\n') } : {}),
              ...(evidence.files.length > 0 ? { evidence: evidence.files } : {}),
            };
          }
          problems = evidence.problems;
        } else {
          problems = guarded?.kind === 'retry' ? [guarded.problem] : outcome.ok ? [] : outcome.problems;
        }
      } else {
        problems = [parsed.error];
      }
      this.deps.log?.warn('invalid agent output', { session: sessionId, agent: agent.name, attempt, problems });
      history.push(
        { role: 'user', content: prompts },
        { role: 'assistant', content: text },
        { role: 'user', content: buildRepairPrompt(problems) },
      );
    }
    return { kind: 'fallback', problems, retryCount: maxRetries, rawOutput: lastRaw };
  }
}
