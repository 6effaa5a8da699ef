/**
 * Pricing: cached input at its own rate, snapshot and gateway names, user overrides, local
 * models free, unknown models flagged rather than silently free.
 */
import { describe, expect, it } from 'vitest';
import { DEFAULT_MODEL_PRICES, costUsd, findModelPrice } from '../../src/llm/model-prices.js';

const usage = (inputTokens: number, outputTokens: number, cachedInputTokens = 0) => ({
  inputTokens,
  outputTokens,
  cachedInputTokens,
});

describe('costUsd', () => {
  it('prices input, output and cached input separately (gpt-4.1-mini)', () => {
    // 600k uncached × 0.40 + 400k cached × 0.10 + 1M output × 1.60, per million.
    const estimate = costUsd('gpt-4.1-mini', usage(1_000_000, 1_000_000, 400_000));
    expect(estimate.priceKnown).toBe(true);
    expect(estimate.pricedAs).toBe('gpt-4.1-mini');
    expect(estimate.usd).toBeCloseTo(0.24 + 0.04 + 1.6, 10);
  });

  it('prices a dated snapshot as its family and never a longer name as a shorter one', () => {
    expect(costUsd('gpt-4.1-mini-2025-04-14', usage(1, 1)).pricedAs).toBe('gpt-4.1-mini');
    expect(costUsd('gpt-4o-mini', usage(1, 1)).pricedAs).toBe('gpt-4o-mini');
    expect(costUsd('claude-sonnet-4-20250514', usage(1_000_000, 0)).usd).toBeCloseTo(3, 10);
    expect(costUsd('claude-3-5-haiku-20241022', usage(0, 1_000_000)).usd).toBeCloseTo(4, 10);
    expect(costUsd('gemini-2.5-flash', usage(0, 1_000_000)).usd).toBeCloseTo(2.5, 10);
    expect(costUsd('gemini-2.5-flash-lite', usage(0, 1_000_000)).pricedAs).toBe('gemini-2.5-flash-lite');
  });

  it('accepts gateway names (vendor/model) and any case', () => {
    expect(costUsd('openai/GPT-4o', usage(1_000_000, 0)).usd).toBeCloseTo(2.5, 10);
  });

  it('flags an unknown model: cost 0, price unknown', () => {
    expect(costUsd('mystery-model-9', usage(1_000, 1_000))).toEqual({ usd: 0, priceKnown: false });
    // A known name as a mere prefix without a separator is not a match.
    expect(costUsd('gpt-4.1x', usage(1_000, 1_000)).priceKnown).toBe(false);
  });

  it('lets a user table override and extend the defaults', () => {
    const overrides = {
      'gpt-4.1-mini': { input: 1, output: 2 },
      'house-model': { input: 5, output: 10, cached_input: 1 },
    };
    // No cached_input in the override: cached tokens are billed at the input price.
    expect(costUsd('gpt-4.1-mini', usage(1_000_000, 1_000_000, 500_000), overrides).usd).toBeCloseTo(3, 10);
    expect(costUsd('house-model', usage(2_000_000, 0, 1_000_000), overrides).usd).toBeCloseTo(6, 10);
  });

  it('treats every model of a local provider as free, unless the user priced it', () => {
    expect(costUsd('some-local-finetune', usage(10_000, 10_000), undefined, { providerKind: 'ollama' })).toEqual({
      usd: 0,
      priceKnown: true,
    });
    expect(costUsd('gpt-4o', usage(1_000_000, 0), undefined, { providerKind: 'ollama' }).usd).toBe(0);
    const priced = costUsd(
      'my-llama',
      usage(1_000_000, 0),
      { 'my-llama': { input: 0.5, output: 0 } },
      { providerKind: 'ollama' },
    );
    expect(priced.usd).toBeCloseTo(0.5, 10);
  });

  it('prices common local model families at 0 whatever the provider', () => {
    expect(costUsd('llama3.1:8b', usage(1_000, 1_000))).toMatchObject({ usd: 0, priceKnown: true, pricedAs: 'llama3' });
  });

  it('never bills more cached tokens than input tokens', () => {
    expect(costUsd('gpt-4.1', usage(100, 0, 500)).usd).toBeCloseTo((100 * 0.5) / 1_000_000, 12);
  });
});

describe('the default table', () => {
  it('has the models the docs promise, with non-negative prices', () => {
    for (const model of [
      'gpt-4.1',
      'gpt-4.1-mini',
      'gpt-4.1-nano',
      'gpt-4o',
      'gpt-4o-mini',
      'o4-mini',
      'claude-sonnet-4',
      'claude-3-5-haiku',
      'gemini-2.5-pro',
      'gemini-2.5-flash',
    ]) {
      const found = findModelPrice(model);
      expect(found?.key, model).toBe(model);
    }
    for (const price of Object.values(DEFAULT_MODEL_PRICES)) {
      expect(price.input).toBeGreaterThanOrEqual(0);
      expect(price.output).toBeGreaterThanOrEqual(price.input);
      if (price.cached_input !== undefined) expect(price.cached_input).toBeLessThanOrEqual(price.input);
    }
  });

  it('is frozen', () => {
    expect(Object.isFrozen(DEFAULT_MODEL_PRICES)).toBe(true);
  });
});
