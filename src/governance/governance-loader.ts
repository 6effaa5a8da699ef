/**
 * Reads a governance tree into an immutable snapshot with a content hash over every path and text
 * that shapes behaviour. Collects every problem, each naming file and line, instead of stopping at the first.
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { globSync } from 'tinyglobby';
import { CONFIG_FILE_NAME, type GovflowConfig } from '../config/config-loader.js';
import { configGovernancePart } from './config-governance-part.js';
import { loadAgentFiles } from './agent-files.js';
import { resolveAgent, toPosix } from './agent-resolution.js';
import { parseYamlSource, type YamlSource } from '../config/yaml-source.js';
import { ConfigError, errorMessage } from '../errors.js';
import { compileSchema } from '../message/schema-compiler.js';
import { SENTIENT_MESSAGE_SCHEMA } from '../message/sentient-message.js';
import type { AgentDefinition } from './agent-definition.js';
import { FrontmatterError, splitFrontmatter } from '../config/frontmatter.js';
import { checkBudgetedModelsArePriced } from './model-pricing-check.js';
import { OutsideRootError, RootBoundary } from './root-boundary.js';
import { checkRoutingGraph } from './routing-graph.js';
import { checkAgentExpressions } from './agent-expressions.js';
import type { GuardrailRule } from '../privacy/guardrail-rules.js';
import { checkChatContexts } from './chat-contexts.js';
import { GUARDRAILS_FILE, guardrailsPromptText, loadGuardrails } from '../privacy/guardrails-loader.js';

export interface PromptFile {
  /** Root-relative, forward slashes. */
  path: string;
  content: string;
}

export interface GovernanceSnapshot {
  /** SHA-256 over every path and content below; recorded with every message. */
  hash: string;
  agents: ReadonlyMap<string, AgentDefinition>;
  entryAgent: string;
  /** Policies and context, in prompt order. */
  promptFiles: readonly PromptFile[];
  messageSchema: Record<string, unknown>;
  /** Every file the hash covers, for the content-addressed snapshot store. */
  files: Readonly<Record<string, string>>;
  /** Guardrail rules (README "Privacy and guardrails"): config `guardrails:` then governance/guardrails.md. */
  guardrails: readonly GuardrailRule[];
}

export interface GovernanceLoadResult {
  snapshot: GovernanceSnapshot | null;
  errors: ConfigError[];
  warnings: string[];
}

/** Loads the governance tree of `config.root`. Never throws for content problems: see `errors`. */
export function loadGovernance(config: GovflowConfig): GovernanceLoadResult {
  const root = config.root;
  const errors: ConfigError[] = [];
  const warnings: string[] = [];
  const files: Record<string, string> = {};
  const agents = new Map<string, AgentDefinition>();
  // Every file read below passes the root boundary (symlinks resolved) unless allow_outside_root.
  const boundary = new RootBoundary(root, config.allow_outside_root);
  const read = (relative: string): string => {
    const text = readFileSync(boundary.resolve(relative), 'utf8');
    files[relative] = text;
    return text;
  };
  // The config's key lines, for errors about config-declared agents: parsed once, when first needed.
  let configSource: YamlSource | null | undefined;
  const configLine = (keyPath: readonly (string | number)[]): number => {
    if (configSource === undefined) {
      try {
        configSource = config.configFile
          ? parseYamlSource(readFileSync(boundary.resolve(CONFIG_FILE_NAME), 'utf8'), CONFIG_FILE_NAME)
          : null;
      } catch {
        configSource = null;
      }
    }
    return configSource?.lineOf(keyPath) ?? 1;
  };
  try {
    if (config.configFile) boundary.resolve(CONFIG_FILE_NAME);
  } catch (error) {
    errors.push(new ConfigError(errorMessage(error)));
  }
  // The config as the hash and the snapshot store see it: its governance keys only, as loaded.
  const configPart = configGovernancePart(config.written);
  if (configPart !== null) files[CONFIG_FILE_NAME] = configPart;

  /** A markdown file split at its frontmatter; null, with the error recorded, when it cannot be. */
  const readMarkdown = (relative: string) => {
    try {
      return splitFrontmatter(read(relative));
    } catch (error) {
      errors.push(new ConfigError(errorMessage(error), relative, error instanceof FrontmatterError ? error.line : 1));
      return null;
    }
  };
  const addAgent = (agent: AgentDefinition) => {
    const existing = agents.get(agent.name);
    if (!existing) agents.set(agent.name, agent);
    else {
      const taken = `agent name "${agent.name}" is already used by ${existing.declaredIn.file}:${existing.declaredIn.line}; names must be unique`;
      errors.push(new ConfigError(taken, agent.declaredIn.file, agent.declaredIn.line));
    }
  };

  // Agents declared in config first: their files are then not expected to carry frontmatter.
  const configAgentFiles = new Set<string>();
  for (const [name, declaration] of Object.entries(config.agents)) {
    const line = configLine(['agents', name]);
    if (!/^[a-z][a-z0-9_]*$/.test(name)) {
      errors.push(new ConfigError(`agent name "${name}" must match [a-z][a-z0-9_]*`, CONFIG_FILE_NAME, line));
      continue;
    }
    let instructions = declaration.description;
    let file: string | null = null;
    if (declaration.file) {
      file = toPosix(path.normalize(declaration.file));
      configAgentFiles.add(file);
      if (!existsSync(path.join(root, file))) {
        errors.push(
          new ConfigError(
            `agent "${name}": file "${declaration.file}" does not exist`,
            CONFIG_FILE_NAME,
            configLine(['agents', name, 'file']),
          ),
        );
        continue;
      }
      const split = readMarkdown(file);
      if (!split) continue;
      instructions = split.body;
    }
    const lineOf = (keyPath: string[]) => configLine(['agents', name, ...keyPath]);
    const agent = resolveAgent(
      { ...declaration, name },
      { file: CONFIG_FILE_NAME, line },
      file,
      instructions,
      config,
      errors,
      read,
      lineOf,
    );
    if (agent) addAgent(agent);
  }

  loadAgentFiles({ config, errors, warnings, read, readMarkdown, addAgent, configLine }, configAgentFiles);

  const promptFiles = collectPromptFiles(config, read, errors);
  checkModelFile(config, boundary, errors);
  const messageSchema = loadMessageSchema(config, read, errors, () => configLine(['message', 'schema']));
  const entryAgent = checkRoutingGraph(agents, errors, warnings);
  checkAgentExpressions(agents, messageSchema, errors);
  errors.push(
    ...checkBudgetedModelsArePriced(config, agents, (key) => configLine(['limits', key])),
  );
  const guardrails = loadGuardrails(config, read, errors, configLine);
  checkChatContexts(config, agents, read, errors, configLine);

  if (agents.size === 0 && errors.length === 0) {
    errors.push(
      new ConfigError(
        'no agents found: add governance/agents/<name>.md files with frontmatter, or declare `agents:` in govflow.config.yaml',
        'governance/agents',
      ),
    );
  }
  if (errors.length > 0 || !entryAgent) return { snapshot: null, errors, warnings };
  return {
    snapshot: Object.freeze({
      hash: hashFiles(files),
      agents,
      entryAgent,
      promptFiles: Object.freeze(promptFiles),
      messageSchema,
      files: Object.freeze(files),
      guardrails: Object.freeze(guardrails),
    }),
    errors,
    warnings,
  };
}

function collectPromptFiles(
  config: GovflowConfig,
  read: (relative: string) => string,
  errors: ConfigError[],
): PromptFile[] {
  const seen = new Set<string>();
  const result: PromptFile[] = [];
  for (const pattern of config.prompt.include) {
    const matches = globSync(pattern, { cwd: config.root, onlyFiles: true, dot: false })
      .map(toPosix)
      .filter((match) => !match.startsWith('system/'))
      .sort();
    for (const match of matches) {
      if (seen.has(match)) continue;
      seen.add(match);
      try {
        const content = read(match);
        result.push({ path: match, content: match === GUARDRAILS_FILE ? guardrailsPromptText(content) : content });
      } catch (error) {
        const why =
          error instanceof OutsideRootError
            ? `prompt.include "${pattern}" matches a file outside the root: `
            : 'cannot read prompt file: ';
        errors.push(new ConfigError(`${why}${errorMessage(error)}`, match));
      }
    }
  }
  return result;
}

/** A local model's weights file steers every run: it must lie inside the root too. */
function checkModelFile(config: GovflowConfig, boundary: RootBoundary, errors: ConfigError[]): void {
  const model = config.provider.model;
  if ((config.provider.kind as string) !== 'local' || !/[\\/]|\.(gguf|bin|onnx|safetensors)$/i.test(model)) return;
  try {
    boundary.resolve(model);
  } catch (error) {
    errors.push(new ConfigError(`provider.model: ${errorMessage(error)}`, CONFIG_FILE_NAME));
  }
}

function loadMessageSchema(
  config: GovflowConfig,
  read: (relative: string) => string,
  errors: ConfigError[],
  schemaLine: () => number,
): Record<string, unknown> {
  if (!config.message.schema) return SENTIENT_MESSAGE_SCHEMA as unknown as Record<string, unknown>;
  const relative = toPosix(path.normalize(config.message.schema));
  try {
    const full = path.join(config.root, relative);
    if (!existsSync(full) || !statSync(full).isFile()) throw new ConfigError(`file "${relative}" does not exist`);
    const schema = JSON.parse(read(relative)) as Record<string, unknown>;
    compileSchema(schema);
    return schema;
  } catch (error) {
    errors.push(new ConfigError(`message.schema: ${errorMessage(error)}`, CONFIG_FILE_NAME, schemaLine()));
    return SENTIENT_MESSAGE_SCHEMA as unknown as Record<string, unknown>;
  }
}

function hashFiles(files: Record<string, string>): string {
  const hash = createHash('sha256');
  for (const name of Object.keys(files).sort()) {
    hash.update(`${name}\0${Buffer.byteLength(files[name])}\0`);
    hash.update(files[name]);
  }
  return hash.digest('hex');
}
