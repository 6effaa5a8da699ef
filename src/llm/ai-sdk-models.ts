/**
 * Which AI SDK package serves each provider kind and how it is configured, checked when the
 * adapter is created. Only the configured kind's package is loaded, on the first call.
 */
import type { LanguageModel } from 'ai';
import { ConfigError } from '../errors.js';

/** The real providers this adapter speaks to (dry-run and scripted live elsewhere). */
export const AI_SDK_PROVIDER_KINDS = ['openai', 'openai-compatible', 'ollama', 'anthropic', 'google'] as const;

export type AiSdkProviderKind = (typeof AI_SDK_PROVIDER_KINDS)[number];

export function isAiSdkProviderKind(kind: string): kind is AiSdkProviderKind {
  return (AI_SDK_PROVIDER_KINDS as readonly string[]).includes(kind);
}

/** Ollama's OpenAI-compatible endpoint on its default port. */
export const OLLAMA_DEFAULT_BASE_URL = 'http://127.0.0.1:11434/v1';

/** The environment variable each hosted provider's key is conventionally read from. */
export const API_KEY_ENV_BY_KIND: Readonly<Partial<Record<AiSdkProviderKind, string>>> = Object.freeze({
  openai: 'OPENAI_API_KEY',
  anthropic: 'ANTHROPIC_API_KEY',
  google: 'GOOGLE_GENERATIVE_AI_API_KEY',
});

/**
 * Which kinds get native JSON mode: `json_object`, not strict `json_schema` (it rejects our open
 * `content: {}`); Anthropic has no JSON switch without a schema, so it relies on the prompt.
 */
export const NATIVE_JSON_MODE_BY_KIND: Readonly<Record<AiSdkProviderKind, boolean>> = Object.freeze({
  openai: true,
  'openai-compatible': true,
  ollama: true,
  anthropic: false,
  google: true,
});

/**
 * Every `openai` call asks for the reasoning summary (sent to reasoning models only; the SDK drops it
 * for others) and keeps nothing on OpenAI's side (`store: false`, as with Chat Completions): each call
 * carries its whole conversation, so no stored response is ever needed.
 */
const OPENAI_RESPONSES_SETTINGS = { providerOptions: { openai: { reasoningSummary: 'auto', store: false } } } as const;

/** What `createModelFactory` needs; a subset of the adapter settings. */
export interface ModelFactorySettings {
  kind: AiSdkProviderKind;
  baseUrl: string | null;
  apiKey: string | null;
  /** The HTTP client: the adapter's, which caps body sizes. */
  fetch: typeof fetch;
}

/** `create()` on first use, the same promise after. */
function once<T>(create: () => Promise<T>): () => Promise<T> {
  let made: Promise<T> | undefined;
  return () => (made ??= create());
}

function requireKey(settings: ModelFactorySettings): string {
  if (settings.apiKey) return settings.apiKey;
  const envName = API_KEY_ENV_BY_KIND[settings.kind] ?? 'GOVFLOW_API_KEY';
  throw new ConfigError(
    `provider.kind "${settings.kind}" needs an API key: set ${envName} (or GOVFLOW_API_KEY, or name another variable in provider.api_key_env ` +
      `in govflow.config.yaml).`,
  );
}

/** The SDK wants no trailing slash; users paste URLs with one. */
function normaliseBaseUrl(baseUrl: string | null): string | undefined {
  if (baseUrl === null || baseUrl.trim() === '') return undefined;
  const trimmed = baseUrl.trim().replace(/\/+$/, '');
  const protocol = URL.canParse(trimmed) ? new URL(trimmed).protocol : undefined;
  // `localhost:11434` parses as a URL with the scheme "localhost:"; only http(s) is a server.
  if (protocol !== 'http:' && protocol !== 'https:') {
    throw new ConfigError(
      `provider.base_url "${trimmed}" is not an http(s) URL; write it in full, e.g. http://127.0.0.1:11434/v1 (provider.base_url or GOVFLOW_BASE_URL).`,
    );
  }
  return trimmed;
}

/** The AI SDK model of a model id, from one client; throws ConfigError for a missing key or base URL. */
export function createModelFactory(settings: ModelFactorySettings): (modelId: string) => Promise<LanguageModel> {
  const baseURL = normaliseBaseUrl(settings.baseUrl);
  const fetch = settings.fetch;
  switch (settings.kind) {
    case 'openai': {
      const apiKey = requireKey(settings);
      const openai = once(async () => (await import('@ai-sdk/openai')).createOpenAI({ apiKey, baseURL, fetch }));
      // The Responses API: the only one that returns reasoning summaries (SPEC §24). Gateways that
      // speak only Chat Completions are the `openai-compatible` kind.
      return async (modelId) => {
        const { defaultSettingsMiddleware, wrapLanguageModel } = await import('ai');
        const middleware = defaultSettingsMiddleware({ settings: OPENAI_RESPONSES_SETTINGS });
        return wrapLanguageModel({ model: (await openai()).responses(modelId), middleware });
      };
    }
    case 'openai-compatible':
    case 'ollama': {
      if (!baseURL && settings.kind === 'openai-compatible') {
        throw new ConfigError(
          'provider.kind "openai-compatible" needs the server address: set provider.base_url in govflow.config.yaml or GOVFLOW_BASE_URL (e.g. ' +
            'http://127.0.0.1:8000/v1).',
        );
      }
      // Ollama needs no key; one is still sent when given (an authenticating proxy in front).
      const compatible = once(async () =>
        (await import('@ai-sdk/openai-compatible')).createOpenAICompatible({
          name: settings.kind,
          baseURL: baseURL ?? OLLAMA_DEFAULT_BASE_URL,
          apiKey: settings.apiKey ?? undefined,
          includeUsage: true,
          fetch,
        }),
      );
      return async (modelId) => (await compatible()).chatModel(modelId);
    }
    case 'anthropic': {
      const apiKey = requireKey(settings);
      const anthropic = once(async () =>
        (await import('@ai-sdk/anthropic')).createAnthropic({ apiKey, baseURL, fetch }),
      );
      return async (modelId) => (await anthropic()).messages(modelId);
    }
    case 'google': {
      const apiKey = requireKey(settings);
      const google = once(async () =>
        (await import('@ai-sdk/google')).createGoogleGenerativeAI({ apiKey, baseURL, fetch }),
      );
      return async (modelId) => (await google()).chat(modelId);
    }
  }
}
