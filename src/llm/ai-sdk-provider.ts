/**
 * The real LLM providers behind `LlmProvider`, through the AI SDK: ONE attempt per call, its
 * failure translated to a `ProviderError`; retries and timeouts are `withRetries`'.
 */
import { CONFIG_DEFAULTS } from '../config/config-defaults.js';
import type { LanguageModel } from 'ai';
import { ConfigError } from '../errors.js';
import { attemptOnce } from './ai-sdk-attempt.js';
import { cappedFetch, findAnswerTooLarge, wholeBodyLimit } from './answer-size-limit.js';
import {
  AI_SDK_PROVIDER_KINDS,
  NATIVE_JSON_MODE_BY_KIND,
  createModelFactory,
  isAiSdkProviderKind,
  type AiSdkProviderKind,
} from './ai-sdk-models.js';
import { translateProviderFailure } from './provider-error-translation.js';
import { PROVIDER_INTERFACE_VERSION, type LlmProvider, type LlmRequest, type LlmResponse } from './provider.js';

/** Everything the adapter needs, resolved by config loading (env already applied). */
export interface AiSdkAdapterSettings {
  kind: AiSdkProviderKind;
  /** Default model; a request's own `model` wins when set. */
  model: string;
  /** Overrides the provider's endpoint (proxies, gateways, local servers). */
  baseUrl: string | null;
  /** The resolved key. Never printed: every error text is scrubbed of it. */
  apiKey: string | null;
  /** Largest answer in UTF-8 bytes (`llm.max_output_bytes`, default 1 MiB); past it the call is cut. */
  maxOutputBytes?: number;
  /** Stream responses (default true); false uses one plain request per attempt. */
  stream?: boolean;
  /** Wraps each model (the recording middleware of `llm.record`, README "Record, replay and governance tests"). */
  wrapModel?: (model: LanguageModel) => LanguageModel;
}

/** The settings after defaults and checks, frozen. */
function compile(settings: AiSdkAdapterSettings) {
  if (!isAiSdkProviderKind(settings.kind)) {
    throw new ConfigError(
      `provider.kind "${String(settings.kind)}" is not an LLM provider; use one of ${AI_SDK_PROVIDER_KINDS.join(', ')} (or dry-run / scripted).`,
    );
  }
  if (!settings.model || settings.model.trim() === '')
    throw new ConfigError('provider.model is empty; set it in govflow.config.yaml or GOVFLOW_MODEL.');
  return Object.freeze({
    kind: settings.kind,
    model: settings.model.trim(),
    apiKey: settings.apiKey,
    maxOutputBytes: settings.maxOutputBytes ?? CONFIG_DEFAULTS.llm.max_output_bytes,
    stream: settings.stream ?? true,
    jsonMode: NATIVE_JSON_MODE_BY_KIND[settings.kind],
  });
}

// The AI SDK prints its warnings with console.info/console.warn; on stdout they would corrupt
// `govflow run --json` and the daemon's single `ready` line. Our own validation reports what matters.
(globalThis as { AI_SDK_LOG_WARNINGS?: boolean }).AI_SDK_LOG_WARNINGS = false;

/** True for a 200 answer that held no stream (a stream cut mid-body is another, retryable error). */
function answeredWithoutStream(error: unknown): boolean {
  for (let current = error, depth = 0; current instanceof Error && depth < 5; current = current.cause, depth++) {
    if (
      /InvalidResponseDataError|NoOutputGeneratedError/.test(current.name) ||
      /stream ended without a finish/i.test(current.message)
    )
      return true;
  }
  return false;
}

/** The bare adapter; throws ConfigError at once for a missing key or base URL, so the daemon fails at start. */
export function createAiSdkAdapter(settings: AiSdkAdapterSettings): LlmProvider {
  const compiled = compile(settings);
  const baseModelFor = createModelFactory({
    ...settings,
    fetch: cappedFetch(wholeBodyLimit(compiled.maxOutputBytes), compiled.maxOutputBytes),
  });
  const wrapModel = settings.wrapModel;
  // One model object per model id for the adapter's life, not one per call.
  const models = new Map<string, Promise<LanguageModel>>();
  const modelFor = (modelId: string): Promise<LanguageModel> => {
    let model = models.get(modelId);
    if (!model) {
      model = baseModelFor(modelId).then((base) => (wrapModel ? wrapModel(base) : base));
      models.set(modelId, model);
    }
    return model;
  };
  // Some servers ignore `stream: true` and answer one JSON body; after the first, stop asking.
  let streaming = compiled.stream;

  async function generate(request: LlmRequest): Promise<LlmResponse> {
    const modelId = request.model && request.model.trim() !== '' ? request.model.trim() : compiled.model;
    const model = await modelFor(modelId);
    // Streaming costs CPU: only a call whose chunks someone reads streams.
    const stream = streaming && request.onChunk !== undefined;
    let receivedText = false;
    const watchedRequest: LlmRequest = {
      ...request,
      onChunk: (chunk) => {
        receivedText = true;
        request.onChunk?.(chunk);
      },
    };
    const attempt = async (asked: LlmRequest, asStream: boolean): Promise<LlmResponse> => ({
      ...(await attemptOnce({
        model,
        modelId,
        request: asked,
        // A free-text agent (SPEC §24) asks for prose.
        jsonMode: compiled.jsonMode && asked.freeText !== true,
        stream: asStream,
        maxOutputBytes: compiled.maxOutputBytes,
        abortSignal: request.signal,
      })),
      provider: compiled.kind,
      attempts: 1,
    });
    try {
      // Checked here too: a signal aborted before the call never reaches the network.
      request.signal.throwIfAborted();
      const result = await attempt(watchedRequest, stream);
      if (stream && !receivedText && result.text === '' && !result.toolCalls) {
        // An empty "stream" is what some SDK parsers make of a plain JSON answer: ask plainly.
        const plain = await attempt(request, false);
        if (plain.text !== '') {
          streaming = false;
          return plain;
        }
      }
      return result;
    } catch (error) {
      // Too large is the model's answer, not the provider's fault: invalid output, never retried.
      const tooLarge = findAnswerTooLarge(error);
      if (tooLarge) throw tooLarge;
      if (stream && !receivedText && answeredWithoutStream(error) && !request.signal.aborted) {
        // A 200 answer that carried no stream at all: ask once more without streaming.
        try {
          const plain = await attempt(request, false);
          streaming = false;
          return plain;
        } catch (plainError) {
          const plainTooLarge = findAnswerTooLarge(plainError);
          if (plainTooLarge) throw plainTooLarge;
          // Not a streaming problem after all: report the original failure.
        }
      }
      throw translateProviderFailure(error, {
        provider: compiled.kind,
        model: modelId,
        apiKey: compiled.apiKey,
        callerSignal: request.signal,
      });
    }
  }

  return Object.freeze({ kind: compiled.kind, interfaceVersion: PROVIDER_INTERFACE_VERSION, generate });
}
