/** Picks the provider the configuration names; API keys come from the environment only. */
import path from 'node:path';
import type { GovflowConfig } from '../config/config-loader.js';
import { LOCAL_PROVIDER_DEFAULTS } from '../config/config-defaults.js';
import { ConfigError } from '../errors.js';
import { API_KEY_ENV_BY_KIND, isAiSdkProviderKind } from './ai-sdk-models.js';
import { DryRunProvider } from './dry-run-provider.js';
import { costAtPrice, lookUpPrice, type PriceLookup } from './model-prices.js';
import type { LlmProvider, LlmUsage } from './provider.js';
import { ScriptedProvider } from './scripted-provider.js';
import { ReplayProvider } from './replay-provider.js';
import { LocalProvider, checkModelFile, resolveNodeLlamaCpp } from './local-provider.js';
import { CassetteRecorder, newCassetteFile, recordingProvider } from './recording-provider.js';

/** The key for the configured provider: GOVFLOW_API_KEY, else the variable the config names, else the kind's usual one. */
export function resolveApiKey(config: GovflowConfig, env: NodeJS.ProcessEnv): string | null {
  if (env.GOVFLOW_API_KEY) return env.GOVFLOW_API_KEY;
  const kind = config.provider.kind;
  const variable = config.provider.api_key_env ?? (isAiSdkProviderKind(kind) ? API_KEY_ENV_BY_KIND[kind] : undefined);
  if (variable && env[variable]) return env[variable]!;
  if (kind === 'google' && env.GEMINI_API_KEY) return env.GEMINI_API_KEY;
  return null;
}

/** What `govflow validate` and the daemon's start find wrong with the provider before any call (issue #32). */
export function providerProblems(config: GovflowConfig, env: NodeJS.ProcessEnv): ConfigError[] {
  const problems: ConfigError[] = [];
  const variable = config.provider.api_key_env;
  if (variable !== null && !env.GOVFLOW_API_KEY && !env[variable]) {
    problems.push(
      new ConfigError(
        `provider.api_key_env names ${variable}, which is not set in the environment: export ${variable}=<key> (or GOVFLOW_API_KEY), or remove api_key_env`,
        'govflow.config.yaml',
      ),
    );
  }
  if (config.provider.kind === 'local') {
    const checks = [
      () =>
        checkModelFile(
          config.root,
          config.provider.model,
          (config as { allow_outside_root?: boolean }).allow_outside_root === true,
        ),
      () => resolveNodeLlamaCpp(env.GOVFLOW_NODE_LLAMA_CPP_DIR ?? null),
    ];
    for (const check of checks) {
      try {
        check();
      } catch (error) {
        problems.push(error instanceof ConfigError ? error : new ConfigError(String(error), 'govflow.config.yaml'));
      }
    }
  }
  return problems;
}

export interface CreateProviderOptions {
  /** Record every call to cassettes in this folder (`govflow run --record DIR`); wins over `llm.record`. */
  recordDir?: string | null;
}

/**
 * The configured provider, bare (the runner adds `withRetries`), recorded when `llm.record` or
 * `recordDir` says so. The AI SDK is loaded only for its kinds: a dry-run, scripted, replay or local
 * root starts without it (about 0.1 s of CPU less per start, Node 24).
 */
export async function createProvider(
  config: GovflowConfig,
  env: NodeJS.ProcessEnv = process.env,
  options: CreateProviderOptions = {},
): Promise<LlmProvider> {
  const recordDir = options.recordDir !== undefined ? options.recordDir : config.llm.record;
  const provider = await createBaseProvider(config, env, recordDir !== null);
  if (recordDir === null) return provider;
  return recordingProvider(provider, new CassetteRecorder(newCassetteFile(path.resolve(config.root, recordDir))));
}

async function createBaseProvider(
  config: GovflowConfig,
  env: NodeJS.ProcessEnv,
  recording: boolean,
): Promise<LlmProvider> {
  const kind = config.provider.kind;
  const variable = config.provider.api_key_env;
  if (variable !== null && !env.GOVFLOW_API_KEY && !env[variable]) throw providerProblems(config, env)[0];
  if (kind === 'dry-run') return new DryRunProvider();
  if (kind === 'replay') {
    if (!config.provider.replay) {
      throw new ConfigError(
        'provider.kind is "replay" but no cassettes are named: add provider.replay: { dir: <cassette file or folder>, on_miss: fail }',
        'govflow.config.yaml',
      );
    }
    return ReplayProvider.fromTarget(path.resolve(config.root, config.provider.replay.dir));
  }
  if (kind === 'local') {
    const local = { ...LOCAL_PROVIDER_DEFAULTS, ...config.provider.local };
    return new LocalProvider({
      root: config.root,
      model: config.provider.model,
      threads: local.threads,
      contextSize: local.context_size,
      gpu: local.gpu,
      allowOutsideRoot: (config as { allow_outside_root?: boolean }).allow_outside_root === true,
      moduleDir: env.GOVFLOW_NODE_LLAMA_CPP_DIR ?? null,
    });
  }
  if (kind === 'scripted') {
    if (!config.provider.script) {
      throw new ConfigError(
        'provider.kind is "scripted" but no script file is set: add provider.script (or GOVFLOW_SCRIPT) naming a YAML/JSON file of responses',
        'govflow.config.yaml',
      );
    }
    return ScriptedProvider.fromFile(path.resolve(config.root, config.provider.script));
  }
  const [{ createAiSdkAdapter }, { withRecording }] = await Promise.all([
    import('./ai-sdk-provider.js'),
    import('./recording-middleware.js'),
  ]);
  return createAiSdkAdapter({
    kind,
    model: config.provider.model,
    baseUrl: config.provider.base_url,
    apiKey: resolveApiKey(config, env),
    maxOutputBytes: config.llm.max_output_bytes,
    stream: config.provider.stream,
    ...(recording ? { wrapModel: withRecording } : {}),
  });
}

/** Cost of one call with the config's prices over the defaults; `warn` hears once of each unpriced model. */
export function costCalculator(
  config: GovflowConfig,
  warn?: (message: string) => void,
): (model: string, usage: LlmUsage) => number {
  const prices = new Map<string, PriceLookup>();
  const warned = new Set<string>();
  return (model, usage) => {
    let lookup = prices.get(model);
    if (!lookup) {
      lookup = lookUpPrice(model, config.prices, { providerKind: config.provider.kind });
      if (prices.size < 1000) prices.set(model, lookup);
      if (!lookup.found && !lookup.isLocal && !warned.has(model) && config.provider.kind !== 'dry-run') {
        warned.add(model);
        warn?.(
          `model "${model}" has no price in govflow's table or the config's pricing: its calls count as costing $0; ` +
            `add pricing: { "${model}": { input_per_mtok: ..., output_per_mtok: ... } } to govflow.config.yaml`,
        );
      }
    }
    return costAtPrice(lookup, usage).usd;
  };
}
