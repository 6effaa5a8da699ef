/**
 * Silent failure #2 (issue 11): an unpriced model costs $0, so a cost budget would never stop it.
 * With `limits.max_cost_usd_per_session` or `limits.user_daily_usd` set, every model a session may
 * call must have a price.
 */
import { CONFIG_FILE_NAME, type GovflowConfig } from '../config/config-loader.js';
import { ConfigError } from '../errors.js';
import { lookUpPrice } from '../llm/model-prices.js';
import type { AgentDefinition } from './agent-definition.js';

export function checkBudgetedModelsArePriced(
  config: GovflowConfig,
  agents: ReadonlyMap<string, AgentDefinition>,
  budgetLine: (key: 'max_cost_usd_per_session' | 'user_daily_usd') => number,
): ConfigError[] {
  const key =
    config.limits.max_cost_usd_per_session !== null
      ? 'max_cost_usd_per_session'
      : config.limits.user_daily_usd !== null
        ? 'user_daily_usd'
        : null;
  if (key === null || config.provider.kind === 'dry-run') return [];
  const budget = key === 'user_daily_usd' ? 'set' : `${config.limits.max_cost_usd_per_session}`;
  const usedBy = new Map<string, string[]>([[config.provider.model, ['provider.model']]]);
  for (const agent of agents.values()) {
    if (agent.model === undefined) continue;
    usedBy.set(agent.model, [...(usedBy.get(agent.model) ?? []), `agent ${agent.name} (${agent.declaredIn.file})`]);
  }
  const errors: ConfigError[] = [];
  for (const [model, users] of usedBy) {
    const lookup = lookUpPrice(model, config.prices, { providerKind: config.provider.kind });
    if (lookup.found || lookup.isLocal) continue;
    const message =
      `limits.${key} is ${budget} but model "${model}" (used by ${users.join(', ')}) has no price, so its calls would count as $0 ` +
      `and the budget would never stop them: add pricing: { "${model}": { input_per_mtok: <USD>, output_per_mtok: <USD> } } to ${CONFIG_FILE_NAME}`;
    errors.push(new ConfigError(message, CONFIG_FILE_NAME, budgetLine(key)));
  }
  return errors;
}
