/**
 * The chat profiles of `chat.contexts` (docs/http-api.md "Chat"), checked with the governance they
 * point into: each `agent` must exist, each `context_file` must be a root-relative file inside
 * `context/` (read here, so the governance hash covers it and the prompt takes it from the snapshot).
 */
import path from 'node:path';
import { ConfigError, errorMessage } from '../errors.js';
import type { GovflowConfig } from '../config/config-loader.js';
import type { AgentDefinition } from './agent-definition.js';

const CONFIG_FILE_NAME = 'govflow.config.yaml';

/** The problem with a `context_file` as written, or null when it is a root-relative path inside `context/`. */
export function contextFileProblem(written: string): string | null {
  const normal = path.posix.normalize(written.replaceAll('\\', '/'));
  if (path.posix.isAbsolute(normal) || !normal.startsWith('context/') || normal.split('/').includes('..'))
    return `"${written}" is not a root-relative path inside context/ (write it like context/chat/workflow.md)`;
  return null;
}

/** Records a ConfigError for every profile whose agent is unknown or whose context file is unusable. */
export function checkChatContexts(
  config: GovflowConfig,
  agents: ReadonlyMap<string, AgentDefinition>,
  read: (relative: string) => string,
  errors: ConfigError[],
  configLine: (keyPath: readonly (string | number)[]) => number,
): void {
  for (const [type, profile] of Object.entries(config.chat.contexts)) {
    const agent = profile.agent ?? null;
    if (agent !== null && !agents.has(agent))
      errors.push(
        new ConfigError(
          `chat.contexts.${type}.agent: no agent "${agent}" (known: ${[...agents.keys()].join(', ')})`,
          CONFIG_FILE_NAME,
          configLine(['chat', 'contexts', type, 'agent']),
        ),
      );
    const file = profile.context_file ?? null;
    if (file === null) continue;
    const line = configLine(['chat', 'contexts', type, 'context_file']);
    const problem = contextFileProblem(file);
    if (problem !== null) {
      errors.push(new ConfigError(`chat.contexts.${type}.context_file: ${problem}`, CONFIG_FILE_NAME, line));
      continue;
    }
    try {
      read(path.posix.normalize(file));
    } catch (error) {
      errors.push(
        new ConfigError(
          `chat.contexts.${type}.context_file: cannot read "${file}": ${errorMessage(error)}`,
          CONFIG_FILE_NAME,
          line,
        ),
      );
    }
  }
}
