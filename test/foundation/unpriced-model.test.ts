/**
 * Silent failure #2 (issue 11): a model missing from the price table costs $0, so a cost budget
 * on it never stops anything. A budget with an unpriced model is a configuration error naming the
 * model; without a budget the model costs 0 with one warning per model (SPEC §7).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/config-loader.js';
import { costCalculator } from '../../src/llm/create-provider.js';
import { agentMarkdown, minimalRoot, removeTempRoots, runValidate, writeFile } from './governance-root.js';

afterEach(removeTempRoots);

const usage = { inputTokens: 1_000_000, outputTokens: 1_000_000, cachedInputTokens: 0 };

describe('a cost budget with an unpriced model', () => {
  it('is a configuration error naming the model and the line of the budget', async () => {
    const root = minimalRoot();
    writeFile(
      root,
      'govflow.config.yaml',
      ['provider:', '  kind: openai', '  model: house-model-7', 'limits:', '  max_cost_usd_per_session: 1', ''].join(
        '\n',
      ),
    );
    const result = await runValidate(['--root', root]);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(
      /error: govflow\.config\.yaml:5: .*model "house-model-7" \(used by provider\.model\) has no price.*pricing:/,
    );
  });

  it('names an agent whose model override is unpriced, even when the default model is priced', async () => {
    const root = minimalRoot();
    writeFile(
      root,
      'govflow.config.yaml',
      ['provider:', '  kind: openai', '  model: gpt-4.1-mini', 'limits:', '  max_cost_usd_per_session: 1', ''].join(
        '\n',
      ),
    );
    writeFile(
      root,
      'governance/agents/start_agent.md',
      agentMarkdown([
        'name: start_agent',
        'type: governance',
        'description: Starts.',
        'entry: true',
        'next: [finish_agent]',
        'model: mystery-llm',
      ]),
    );
    const result = await runValidate(['--root', root]);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(
      /model "mystery-llm" \(used by agent start_agent \(governance\/agents\/start_agent\.md\)\) has no price/,
    );
    expect(result.stderr).not.toMatch(/gpt-4\.1-mini/);
  });

  it('is fine once pricing: gives the price (SPEC §7 keys), and the price is used', async () => {
    const root = minimalRoot();
    writeFile(
      root,
      'govflow.config.yaml',
      [
        'provider:',
        '  kind: openai',
        '  model: house-model-7',
        'pricing:',
        '  house-model-7: { input_per_mtok: 0.4, output_per_mtok: 1.6 }',
        'limits:',
        '  max_cost_usd_per_session: 1',
        '',
      ].join('\n'),
    );
    const result = await runValidate(['--root', root]);
    expect(result.code, result.stderr).toBe(0);
    expect(costCalculator(loadConfig(root, {}))('house-model-7', usage)).toBeCloseTo(2.0, 10);
  });

  it('is fine for a local provider, whose models cost nothing', async () => {
    const root = minimalRoot();
    writeFile(
      root,
      'govflow.config.yaml',
      ['provider:', '  kind: ollama', '  model: my-finetune', 'limits:', '  max_cost_usd_per_session: 1', ''].join(
        '\n',
      ),
    );
    expect((await runValidate(['--root', root])).code).toBe(0);
  });
});

describe('an unpriced model without a budget', () => {
  it('costs 0 with one warning per model, naming it and how to price it', () => {
    const root = minimalRoot();
    writeFile(root, 'govflow.config.yaml', ['provider:', '  kind: openai', '  model: house-model-7', ''].join('\n'));
    const warnings: string[] = [];
    const cost = costCalculator(loadConfig(root, {}), (message) => warnings.push(message));
    expect(cost('house-model-7', usage)).toBe(0);
    expect(cost('house-model-7', usage)).toBe(0);
    expect(cost('other-model', usage)).toBe(0);
    expect(cost('gpt-4.1-mini', usage)).toBeGreaterThan(0);
    expect(warnings).toHaveLength(2);
    expect(warnings[0]).toMatch(/model "house-model-7" has no price.*\$0.*pricing:/);
    expect(warnings[1]).toMatch(/model "other-model"/);
  });
});
