/** Picks the provider the configuration names; API keys come from the environment only. */
import path from 'node:path';
import type { GovflowConfig } from '../config/config-loader.js';
import { ConfigError } from '../errors.js';
import { createAiSdkProvider, isAiSdkProviderKind } from './ai-sdk-provider.js';
import { API_KEY_ENV_BY_KIND } from './ai-sdk-models.js';
import { DryRunProvider } from './dry-run-provider.js';
import { costAtPrice, lookUpPrice, type PriceLookup } from './model-prices.js';
import type { LlmProvider, LlmUsage } from './provider.js';
import { ScriptedProvider } from './scripted-provider.js';

/** The key for the configured provider: GOVFLOW_API_KEY, else the variable the config names, else the kind's usual one. */
export function resolveApiKey(config: GovflowConfig, env: NodeJS.ProcessEnv): string | null {
  if (env.GOVFLOW_API_KEY) return env.GOVFLOW_API_KEY;
  const kind = config.provider.kind;
  const variable = config.provider.api_key_env ?? (isAiSdkProviderKind(kind) ? API_KEY_ENV_BY_KIND[kind] : undefined);
  if (variable && env[variable]) return env[variable]!;
  if (kind === 'google' && env.GEMINI_API_KEY) return env.GEMINI_API_KEY;
  return null;
}

export function createProvider(config: GovflowConfig, env: NodeJS.ProcessEnv = process.env): LlmProvider {
  const kind = config.provider.kind;
  if (kind === 'dry-run') return new DryRunProvider();
  if (kind === 'scripted') {
    if (!config.provider.script) {
      throw new ConfigError('provider.kind is "scripted" but no script file is set: add provider.script (or GOVFLOW_SCRIPT) naming a YAML/JSON file of responses', 'govflow.config.yaml');
    }
    return ScriptedProvider.fromFile(path.resolve(config.root, config.provider.script));
  }
  return createAiSdkProvider({
    kind,
    model: config.provider.model,
    baseUrl: config.provider.base_url,
    apiKey: resolveApiKey(config, env),
    maxAttempts: config.llm.max_attempts,
    timeoutMs: config.llm.timeout_ms,
    maxOutputBytes: config.llm.max_output_bytes,
    backoffBaseMs: config.llm.backoff_base_ms,
    backoffMaxMs: config.llm.backoff_max_ms,
    stream: config.provider.stream,
  });
}

/** Cost of one call with the config's price table over the defaults. */
export function costCalculator(config: GovflowConfig): (model: string, usage: LlmUsage) => number {
  const prices = new Map<string, PriceLookup>();
  return (model, usage) => {
    let lookup = prices.get(model);
    if (!lookup) {
      lookup = lookUpPrice(model, config.prices, { providerKind: config.provider.kind });
      if (prices.size < 1000) prices.set(model, lookup);
    }
    return costAtPrice(lookup, usage).usd;
  };
}
