/**
 * The scripted provider (README "Replaying scripted answers"; for tests and benchmarks): replays
 * responses per agent from a YAML or JSON file, in order, and fails loudly on an unexpected call
 * (after openai-agents-js's scripted model). Tests synchronise on calls instead of sleeping:
 * `callStarted(n)`, `hold(n)`, the `onCall` hook. A session resumed in another process goes on
 * after the calls its journal shows (scripted-positions.ts).
 */
import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { raceAbort } from '../abort-race.js';
import { abortableSleep, isRetryableStatus } from '../backoff.js';
import { ConfigError, GovflowError, ProviderError } from '../errors.js';
import {
  PROVIDER_INTERFACE_VERSION,
  type LlmProvider,
  type LlmRequest,
  type LlmResponse,
  type LlmToolCall,
} from './provider.js';
import { ScriptPositions } from './scripted-positions.js';

/** One scripted answer; a plain string in the file is its `text`. */
export interface ScriptedResponse {
  /** Raw text, exactly as a model would send it. */
  text?: string;
  /** An object, sent as JSON text. */
  json?: unknown;
  /** A provider failure instead of an answer. */
  error?: { status?: number; message?: string; retry_after_ms?: number; timeout?: boolean };
  delay_ms?: number;
  usage?: { input_tokens?: number; output_tokens?: number; cached_input_tokens?: number };
  /**
   * A turn of tool calls (govflow's tool names; `input_text`: raw, maybe malformed arguments); the
   * agent's next entry answers the turn after the results. Without `id`, a call in a session is
   * `call_<agent>_<n>_<i>` (the agent's n-th model call), unique across processes.
   */
  tool_calls?: Array<{ name: string; input?: unknown; input_text?: string; id?: string }>;
}

export interface Script {
  /** Delay before every answer. */
  latency_ms?: number;
  /** Each agent's list starts over when used up (benchmarks). */
  loop?: boolean;
  responses: Record<string, Array<string | ScriptedResponse>>;
}

/** One call as the provider saw it; `number` counts calls from 1 across all agents. */
export interface ScriptedCall {
  number: number;
  agent: string;
  system: string;
  prompt: string;
  history: number;
  /** Names of the tools offered on this call. */
  tools: string[];
  /** Tool turns already taken in this step's loop. */
  toolTurns: number;
}

export interface ScriptedProviderOptions {
  /** Runs at the start of every call, before the scripted answer; the call awaits it. */
  onCall?: (call: ScriptedCall) => void | Promise<void>;
}

export class ScriptedProvider implements LlmProvider {
  readonly kind = 'scripted';
  readonly interfaceVersion = PROVIDER_INTERFACE_VERSION;
  private readonly positions = new ScriptPositions();
  /** Every call made, in order: agent and prompt (tests assert on them). */
  readonly calls: ScriptedCall[] = [];
  /** Calls for which the script had no response left (each also threw). */
  readonly unexpectedCalls: ScriptedCall[] = [];
  private readonly startWaiters = new Map<number, Array<(call: ScriptedCall) => void>>();
  private readonly gates = new Map<number, Promise<void>>();
  private toolCallCount = 0;

  constructor(
    private readonly script: Script,
    private readonly options: ScriptedProviderOptions = {},
  ) {}

  /** Resolves with the n-th call (1-based, all agents) once it has started; at once if it has. */
  callStarted(number: number): Promise<ScriptedCall> {
    const started = this.calls[number - 1];
    if (started) return Promise.resolve(started);
    return new Promise((resolve) => {
      const waiting = this.startWaiters.get(number) ?? [];
      waiting.push(resolve);
      this.startWaiters.set(number, waiting);
    });
  }

  /** Keeps the n-th call waiting until the returned function is called (its signal still aborts it). */
  hold(number: number): () => void {
    if (this.calls.length >= number)
      throw new GovflowError('internal', `scripted provider: call ${number} already started; hold it before it starts`);
    let release!: () => void;
    this.gates.set(number, new Promise<void>((resolve) => (release = resolve)));
    return () => release();
  }

  static fromFile(file: string): ScriptedProvider {
    let script: Script;
    try {
      script = parse(readFileSync(file, 'utf8')) as Script;
    } catch (error) {
      throw new ConfigError(
        `cannot read the scripted provider's file: ${error instanceof Error ? error.message : String(error)}`,
        file,
      );
    }
    if (!script || typeof script.responses !== 'object' || script.responses === null) {
      throw new ConfigError('a script needs `responses:` mapping agent names to lists of responses', file);
    }
    return new ScriptedProvider(script);
  }

  async generate(request: LlmRequest): Promise<LlmResponse> {
    const call: ScriptedCall = {
      number: this.calls.length + 1,
      agent: request.agent,
      system: request.system,
      prompt: request.prompt,
      history: request.history?.length ?? 0,
      tools: (request.tools ?? []).map((offer) => offer.name),
      toolTurns: request.toolTurns?.length ?? 0,
    };
    this.calls.push(call);
    for (const resolve of this.startWaiters.get(call.number) ?? []) resolve(call);
    this.startWaiters.delete(call.number);
    if (this.options.onCall) await this.options.onCall(call);
    const gate = this.gates.get(call.number);
    if (gate) await raceAbort(gate, request.signal);
    const list = this.script.responses[request.agent] ?? [];
    let position = this.positions.take(request.agent, request.sessionId, request.journaledCalls);
    if (position >= list.length && this.script.loop && list.length > 0) position %= list.length;
    if (position >= list.length) {
      this.unexpectedCalls.push(call);
      throw new ProviderError(
        `scripted provider: unexpected call for agent "${request.agent}" — the script has ${list.length} response(s) for it and all were used`,
        { provider: this.kind, model: request.model, retryable: false },
      );
    }
    this.positions.advance(request.agent, position);
    const entry = list[position];
    const response: ScriptedResponse = typeof entry === 'string' ? { text: entry } : entry;
    const delay = (this.script.latency_ms ?? 0) + (response.delay_ms ?? 0);
    if (delay > 0) await abortableSleep(delay, request.signal);
    if (request.signal.aborted) throw request.signal.reason ?? new Error('aborted');
    if (response.error) {
      const status = response.error.status;
      throw new ProviderError(response.error.message ?? `scripted error${status ? ` (HTTP ${status})` : ''}`, {
        provider: this.kind,
        model: request.model,
        status,
        retryable: response.error.timeout === true || status === undefined || isRetryableStatus(status),
        retryAfterMs: response.error.retry_after_ms,
        timedOut: response.error.timeout === true,
      });
    }
    const toolCalls = response.tool_calls ? this.toolCallsOf(request, response.tool_calls) : undefined;
    const text = toolCalls ? (response.text ?? '') : (response.text ?? JSON.stringify(response.json ?? null));
    if (text !== '') request.onChunk?.(text);
    return {
      text,
      usage: {
        inputTokens: response.usage?.input_tokens ?? 0,
        outputTokens: response.usage?.output_tokens ?? 0,
        cachedInputTokens: response.usage?.cached_input_tokens ?? 0,
      },
      model: request.model,
      provider: this.kind,
      attempts: 1,
      ...(toolCalls ? { toolCalls } : {}),
    };
  }

  private toolCallsOf(request: LlmRequest, entries: NonNullable<ScriptedResponse['tool_calls']>): LlmToolCall[] {
    const { agent, sessionId, journaledCalls } = request;
    return entries.map((entry, index) => {
      this.toolCallCount += 1;
      // Counted from the journal in a session: a process-wide count would give a resumed session's new calls the ids of its old ones.
      const defaultId =
        sessionId !== undefined && journaledCalls !== undefined
          ? `call_${agent}_${journaledCalls + 1}_${index + 1}`
          : `call_${agent}_${this.toolCallCount}`;
      const call: LlmToolCall = { id: entry.id ?? defaultId, name: entry.name, input: entry.input ?? {} };
      if (entry.input_text !== undefined) {
        try {
          call.input = JSON.parse(entry.input_text);
        } catch (error) {
          call.input = entry.input_text;
          call.inputError = `the arguments are not valid JSON: ${error instanceof Error ? error.message : String(error)}`;
        }
      }
      return call;
    });
  }

  /** Responses left unused, per agent (empty when the script was used up exactly). */
  unusedResponses(): Record<string, number> {
    if (this.script.loop) return {};
    const unused: Record<string, number> = {};
    for (const [agent, list] of Object.entries(this.script.responses)) {
      const left = list.length - this.positions.used(agent);
      if (left > 0) unused[agent] = left;
    }
    return unused;
  }

  /** Throws when a scripted response was never asked for, or a call came that nobody scripted. */
  assertAllUsed(): void {
    const unused = this.unusedResponses();
    const problems: string[] = [];
    if (Object.keys(unused).length > 0) {
      problems.push(
        `responses never asked for: ${Object.entries(unused)
          .map(([agent, count]) => `${agent} ×${count}`)
          .join(', ')}`,
      );
    }
    if (this.unexpectedCalls.length > 0) {
      problems.push(
        `unexpected calls: ${this.unexpectedCalls.map((call) => `#${call.number} ${call.agent}`).join(', ')}`,
      );
    }
    if (problems.length > 0) throw new GovflowError('internal', `scripted provider: ${problems.join('; ')}`);
  }
}
