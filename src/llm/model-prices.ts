/** What a call cost, for budgets and the audit log: a default price table, overridden by the user's. */
import type { ModelPrice } from '../config/config-loader.js';
import type { LlmUsage } from './provider.js';

/** USD per million tokens by model name or name prefix; `cached_input` defaults to `input`. */
export type ModelPriceTable = Readonly<Record<string, ModelPrice>>;

/**
 * Published list prices (USD / 1M tokens) as of mid-2025, standard tier, no batch discount.
 * Gemini 2.5 Pro is the ≤200k-token-prompt price. Anthropic's cache *writes* cost 1.25× input;
 * they are billed here at the input price (a small underestimate, noted rather than modelled).
 * Local model families (what Ollama serves) cost nothing.
 */
export const DEFAULT_MODEL_PRICES: ModelPriceTable = Object.freeze({
  'gpt-4.1': { input: 2.0, output: 8.0, cached_input: 0.5 },
  'gpt-4.1-mini': { input: 0.4, output: 1.6, cached_input: 0.1 },
  'gpt-4.1-nano': { input: 0.1, output: 0.4, cached_input: 0.025 },
  'gpt-4o': { input: 2.5, output: 10.0, cached_input: 1.25 },
  'gpt-4o-mini': { input: 0.15, output: 0.6, cached_input: 0.075 },
  o3: { input: 2.0, output: 8.0, cached_input: 0.5 },
  'o4-mini': { input: 1.1, output: 4.4, cached_input: 0.275 },
  'claude-opus-4': { input: 15.0, output: 75.0, cached_input: 1.5 },
  'claude-sonnet-4': { input: 3.0, output: 15.0, cached_input: 0.3 },
  'claude-3-7-sonnet': { input: 3.0, output: 15.0, cached_input: 0.3 },
  'claude-3-5-sonnet': { input: 3.0, output: 15.0, cached_input: 0.3 },
  'claude-3-5-haiku': { input: 0.8, output: 4.0, cached_input: 0.08 },
  'claude-haiku-4-5': { input: 1.0, output: 5.0, cached_input: 0.1 },
  'gemini-2.5-pro': { input: 1.25, output: 10.0, cached_input: 0.31 },
  'gemini-2.5-flash': { input: 0.3, output: 2.5, cached_input: 0.075 },
  'gemini-2.5-flash-lite': { input: 0.1, output: 0.4, cached_input: 0.025 },
  'gemini-2.0-flash': { input: 0.1, output: 0.4, cached_input: 0.025 },
  llama3: { input: 0, output: 0 },
  'qwen2.5': { input: 0, output: 0 },
  qwen3: { input: 0, output: 0 },
  mistral: { input: 0, output: 0 },
  gemma3: { input: 0, output: 0 },
  phi4: { input: 0, output: 0 },
});

/** Provider kinds that run models locally: every model they serve costs 0. */
const LOCAL_PROVIDER_KINDS: ReadonlySet<string> = new Set(['ollama']);

/** The result of pricing one call. */
export interface CostEstimate {
  /** Cost in USD; 0 when the price is unknown. */
  usd: number;
  /** False when no table knows the model: the 0 means "unknown", not "free". */
  priceKnown: boolean;
  /** The table key that priced the call (after prefix matching), when one did. */
  pricedAs?: string;
}

/**
 * Gateways name models `vendor/model` (`openai/gpt-4.1`); dated snapshots add a suffix
 * (`gpt-4.1-mini-2025-04-14`, `claude-sonnet-4-20250514`), Ollama a tag (`llama3.1:8b`).
 * The key that matches is the exact name, else the longest key the name starts with, followed
 * by `-`, `:`, `.` or `@` — so `gpt-4o-mini` never prices as `gpt-4o`.
 */
function findInTable(model: string, table: ModelPriceTable): { key: string; price: ModelPrice } | undefined {
  const exact = table[model];
  if (exact) return { key: model, price: exact };
  let best: string | undefined;
  for (const key of Object.keys(table)) {
    if (!model.startsWith(key)) continue;
    const next = model.charAt(key.length);
    if (!'-:.@'.includes(next)) continue;
    if (best === undefined || key.length > best.length) best = key;
  }
  return best === undefined ? undefined : { key: best, price: table[best] as ModelPrice };
}

/**
 * The price of `model`: the user table first (so a user can correct any default), then the
 * defaults. Names are compared in lower case, with any `vendor/` prefix removed.
 */
export function findModelPrice(
  model: string,
  overrides?: ModelPriceTable,
  defaults: ModelPriceTable | null = DEFAULT_MODEL_PRICES,
): { key: string; price: ModelPrice } | undefined {
  const normalised = model.trim().toLowerCase();
  const bare = normalised.includes('/') ? normalised.slice(normalised.lastIndexOf('/') + 1) : normalised;
  for (const table of [overrides, defaults]) {
    if (!table) continue;
    const lowered = Object.fromEntries(Object.entries(table).map(([key, price]) => [key.toLowerCase(), price]));
    const found = findInTable(normalised, lowered) ?? findInTable(bare, lowered);
    if (found) return found;
  }
  return undefined;
}

/**
 * Cost of one call. An unknown model costs 0 with `priceKnown: false`, so budgets can warn
 * instead of treating it as free; a local provider's (ollama) is free unless the user prices it.
 */
export function costUsd(
  model: string,
  usage: LlmUsage,
  overrides?: ModelPriceTable,
  options?: { providerKind?: string },
): CostEstimate {
  return costAtPrice(lookUpPrice(model, overrides, options), usage);
}

/** Which price applies to a model (the slow part of {@link costUsd}; callers may keep it per model). */
export interface PriceLookup {
  isLocal: boolean;
  found: { key: string; price: ModelPrice } | undefined;
}

export function lookUpPrice(
  model: string,
  overrides?: ModelPriceTable,
  options?: { providerKind?: string },
): PriceLookup {
  const isLocal = options?.providerKind !== undefined && LOCAL_PROVIDER_KINDS.has(options.providerKind);
  // A local model is free unless the user priced it (e.g. to account for their own hardware).
  return { isLocal, found: findModelPrice(model, overrides, isLocal ? null : DEFAULT_MODEL_PRICES) };
}

/** {@link costUsd} with the price already looked up. */
export function costAtPrice({ isLocal, found }: PriceLookup, usage: LlmUsage): CostEstimate {
  if (!found) return { usd: 0, priceKnown: isLocal };
  const { price, key } = found;
  // Providers report cached tokens as part of the input; never bill more cached than input.
  const cached = Math.min(Math.max(0, usage.cachedInputTokens), Math.max(0, usage.inputTokens));
  const uncached = Math.max(0, usage.inputTokens) - cached;
  const usd =
    (uncached * price.input +
      cached * (price.cached_input ?? price.input) +
      Math.max(0, usage.outputTokens) * price.output) /
    1_000_000;
  return { usd, priceKnown: true, pricedAs: key };
}
