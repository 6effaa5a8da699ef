/** `govflow validate`: config, agents, routing graph, schemas — every error with file and line. */
import { loadConfig } from '../config/config-loader.js';
import { ConfigError, errorMessage } from '../errors.js';
import { loadGovernance } from '../governance/governance-loader.js';
import { describeRoutingGraph } from '../governance/routing-graph.js';
import { providerProblems } from '../llm/create-provider.js';
import { webhookProblems } from '../notify/webhook-notifier.js';
import { commandSandboxProblems } from '../tools/command-sandbox.js';
import { resolvedTargetProblems } from '../notify/webhook-targets.js';
import type { CommandDefinition } from './command-context.js';

export const validateCommand: CommandDefinition = {
  async run({ root, io }) {
    let config;
    try {
      config = loadConfig(root, io.env);
    } catch (error) {
      io.stderr(`error: ${error instanceof ConfigError ? error.describe() : errorMessage(error)}\n`);
      return 1;
    }
    const loaded = loadGovernance(config);
    const { snapshot, warnings } = loaded;
    // Webhook targets as resolved now (docs/webhooks.md); the provider as the daemon would start it: a key
    // variable that is not set, a local model or module missing.
    const targets = await resolvedTargetProblems(config);
    const errors = [
      ...loaded.errors,
      ...providerProblems(config, io.env),
      ...webhookProblems(config, io.env),
      ...targets.errors,
    ];
    for (const warning of [...warnings, ...targets.warnings]) io.stderr(`warning: ${warning}\n`);
    // run_command's sandbox (docs/tools.md): none possible is an error; an interpreter auto-approved, a warning.
    const commands = commandSandboxProblems(config, io.env);
    errors.push(...commands.errors);
    for (const warning of commands.warnings) io.stderr(`warning: ${warning}\n`);
    if (errors.length > 0 || !snapshot) {
      for (const error of errors) io.stderr(`error: ${error.describe()}\n`);
      io.stderr(`${errors.length} error(s) in ${root}\n`);
      return 1;
    }
    const lines = [
      `govflow validate: OK (${root})`,
      `config: ${config.configFile ?? 'none (defaults)'}; provider ${config.provider.kind}; timezone ${config.timezone}`,
      `agents: ${snapshot.agents.size} (entry: ${snapshot.entryAgent})`,
      'routing graph:',
      ...describeRoutingGraph(snapshot.agents).map((line) => `  ${line}`),
      `prompt files: ${snapshot.promptFiles.map((file) => file.path).join(', ') || '(none)'}`,
      `message schema: ${config.message.schema ?? 'built-in Sentient schema'}`,
      `governance hash: ${snapshot.hash}`,
    ];
    io.stdout(`${lines.join('\n')}\n`);
    return 0;
  },
};
