/**
 * The real LLM providers (OpenAI, OpenAI-compatible servers, Ollama, Anthropic, Gemini) behind
 * our small `LlmProvider` interface, through the AI SDK. This file owns the retry loop: each
 * attempt gets its own timeout, failures are translated to `ProviderError`, and retryable ones
 * (network, 408/409/429/5xx, timeout) wait out a jittered backoff or the server's Retry-After.
 */
import type { LanguageModel } from 'ai';
import { ConfigError } from '../errors.js';
import { attemptOnce } from './ai-sdk-attempt.js';
import {
  AI_SDK_PROVIDER_KINDS,
  NATIVE_JSON_MODE_BY_KIND,
  createModelFactory,
  isAiSdkProviderKind,
  type AiSdkProviderKind,
} from './ai-sdk-models.js';
import { DEFAULT_BACKOFF, abortableSleep, retryDelayMs, type BackoffOptions } from './backoff.js';
import { ProviderCallError, translateProviderFailure } from './provider-error-translation.js';
import {
  PROVIDER_INTERFACE_VERSION,
  type LlmProvider,
  type LlmRequest,
  type LlmResponse,
} from './provider.js';

export { AI_SDK_PROVIDER_KINDS, isAiSdkProviderKind, type AiSdkProviderKind };

/** Everything the adapter needs, resolved by config loading (env already applied). */
export interface AiSdkProviderSettings {
  kind: AiSdkProviderKind;
  /** Default model; a request's own `model` wins when set. */
  model: string;
  /** Overrides the provider's endpoint (proxies, gateways, local servers). */
  baseUrl: string | null;
  /** The resolved key. Never printed: every error text is scrubbed of it. */
  apiKey: string | null;
  /** Total attempts per call, first included (`llm.max_attempts`). */
  maxAttempts: number;
  /** Per-attempt timeout (`llm.timeout_ms`). */
  timeoutMs: number;
  /** Backoff ceiling of the first retry, in ms (default 500). */
  backoffBaseMs?: number;
  /** Cap of the computed backoff, in ms (default 30 000). */
  backoffMaxMs?: number;
  /** Cap of a server-requested Retry-After wait, in ms (default 60 000). */
  retryAfterMaxMs?: number;
  /** Stream responses (default true); false uses one plain request per attempt. */
  stream?: boolean;
  /** Ask for native JSON output where the provider supports it (default true). */
  jsonMode?: boolean;
  /** Waits between attempts; tests inject one that records the delay. Must honour `signal`. */
  sleep?: (ms: number, signal: AbortSignal) => Promise<void>;
  /** Jitter source in [0, 1); tests inject a fixed one. */
  random?: () => number;
  /** Wraps each model (the recording middleware of `llm.record`, SPEC §13). */
  wrapModel?: (model: LanguageModel) => LanguageModel;
}

/** The settings after defaults and checks: plain milliseconds, frozen. */
interface CompiledSettings {
  kind: AiSdkProviderKind;
  model: string;
  apiKey: string | null;
  maxAttempts: number;
  timeoutMs: number;
  stream: boolean;
  jsonMode: boolean;
  backoff: BackoffOptions;
  sleep: (ms: number, signal: AbortSignal) => Promise<void>;
}

function positiveInteger(value: number, name: string, configKey: string): number {
  if (!Number.isInteger(value) || value < 1) {
    throw new ConfigError(`${name} must be a whole number of at least 1 (${configKey}); got ${value}.`);
  }
  return value;
}

function compile(settings: AiSdkProviderSettings): CompiledSettings {
  if (!isAiSdkProviderKind(settings.kind)) {
    throw new ConfigError(
      `provider.kind "${String(settings.kind)}" is not an LLM provider; use one of ` +
        `${AI_SDK_PROVIDER_KINDS.join(', ')} (or dry-run / scripted).`,
    );
  }
  if (!settings.model || settings.model.trim() === '') {
    throw new ConfigError('provider.model is empty; set it in govflow.config.yaml or GOVFLOW_MODEL.');
  }
  return Object.freeze({
    kind: settings.kind,
    model: settings.model.trim(),
    apiKey: settings.apiKey,
    maxAttempts: positiveInteger(settings.maxAttempts, 'max_attempts', 'llm.max_attempts'),
    timeoutMs: positiveInteger(settings.timeoutMs, 'timeout_ms', 'llm.timeout_ms'),
    stream: settings.stream ?? true,
    jsonMode: (settings.jsonMode ?? true) && NATIVE_JSON_MODE_BY_KIND[settings.kind],
    backoff: Object.freeze({
      baseMs: settings.backoffBaseMs ?? DEFAULT_BACKOFF.baseMs,
      maxMs: settings.backoffMaxMs ?? DEFAULT_BACKOFF.maxMs,
      retryAfterMaxMs: settings.retryAfterMaxMs ?? DEFAULT_BACKOFF.retryAfterMaxMs,
      random: settings.random,
    }),
    sleep: settings.sleep ?? abortableSleep,
  });
}

// The AI SDK prints its warnings with console.info/console.warn; on stdout they would corrupt
// `govflow run --json` and the daemon's single `ready` line. Our own validation reports what matters.
(globalThis as { AI_SDK_LOG_WARNINGS?: boolean }).AI_SDK_LOG_WARNINGS = false;

/**
 * True for a 200 answer that held no stream: the SDK's InvalidResponseDataError "stream ended
 * without a finish reason" with no text delta before it (a stream cut mid-body is a different,
 * retryable error).
 */
function answeredWithoutStream(error: unknown): boolean {
  for (let current = error, depth = 0; current instanceof Error && depth < 5; current = current.cause, depth++) {
    if (/InvalidResponseDataError|NoOutputGeneratedError/.test(current.name) || /stream ended without a finish/i.test(current.message)) return true;
  }
  return false;
}

/**
 * An `LlmProvider` for a real model API. Throws ConfigError at once for a missing key or
 * base URL, so the daemon fails at start rather than on the first message.
 * Failed calls reject with `ProviderCallError` (a `ProviderError` with `attempts`).
 */
export function createAiSdkProvider(settings: AiSdkProviderSettings): LlmProvider {
  const compiled = compile(settings);
  const baseModelFor = createModelFactory(settings);
  const wrapModel = settings.wrapModel;
  const modelFor = wrapModel ? (modelId: string) => wrapModel(baseModelFor(modelId)) : baseModelFor;
  // Some OpenAI-compatible servers and gateways ignore `stream: true` and answer with one JSON
  // body; after the first such answer this provider stops asking for streams.
  let streaming = compiled.stream;

  async function generate(request: LlmRequest): Promise<LlmResponse> {
    const modelId = request.model && request.model.trim() !== '' ? request.model.trim() : compiled.model;
    const model = modelFor(modelId);
    let receivedText = false;
    const watchedRequest: LlmRequest = {
      ...request,
      onChunk: (chunk) => {
        receivedText = true;
        request.onChunk?.(chunk);
      },
    };
    for (let attempt = 1; ; attempt += 1) {
      const timeoutSignal = AbortSignal.timeout(compiled.timeoutMs);
      const context = {
        provider: compiled.kind,
        model: modelId,
        apiKey: compiled.apiKey,
        callerSignal: request.signal,
        timeoutSignal,
        timeoutMs: compiled.timeoutMs,
      };
      try {
        // Checked here too: a signal aborted before the call never reaches the network.
        request.signal.throwIfAborted();
        receivedText = false;
        const result = await attemptOnce({
          model,
          modelId,
          request: watchedRequest,
          jsonMode: compiled.jsonMode,
          stream: streaming,
          abortSignal: AbortSignal.any([request.signal, timeoutSignal]),
        });
        if (streaming && !receivedText && result.text === '') {
          // An empty "stream" is what some SDK parsers make of a plain JSON answer: ask plainly.
          const plain = await attemptOnce({ model, modelId, request, jsonMode: compiled.jsonMode, stream: false, abortSignal: AbortSignal.any([request.signal, AbortSignal.timeout(compiled.timeoutMs)]) });
          if (plain.text !== '') {
            streaming = false;
            return { ...plain, provider: compiled.kind, attempts: attempt };
          }
        }
        return { ...result, provider: compiled.kind, attempts: attempt };
      } catch (error) {
        const failure = translateProviderFailure(error, context);
        if (streaming && !receivedText && answeredWithoutStream(error) && !request.signal.aborted) {
          // A 200 answer that carried no stream at all: ask once more without streaming.
          try {
            const result = await attemptOnce({
              model,
              modelId,
              request,
              jsonMode: compiled.jsonMode,
              stream: false,
              abortSignal: AbortSignal.any([request.signal, AbortSignal.timeout(compiled.timeoutMs)]),
            });
            streaming = false;
            return { ...result, provider: compiled.kind, attempts: attempt };
          } catch {
            // Not a streaming problem after all: handle the original failure below.
          }
        }
        if (!failure.retryable || attempt >= compiled.maxAttempts) {
          throw new ProviderCallError(failure, attempt);
        }
        try {
          await compiled.sleep(retryDelayMs(attempt, failure.retryAfterMs, compiled.backoff), request.signal);
        } catch (sleepError) {
          throw new ProviderCallError(translateProviderFailure(sleepError, context), attempt);
        }
      }
    }
  }

  return Object.freeze({
    kind: compiled.kind,
    interfaceVersion: PROVIDER_INTERFACE_VERSION,
    generate,
  });
}
