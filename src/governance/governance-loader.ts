/**
 * Reads a governance tree into an immutable snapshot with a content hash over every path and text
 * that shapes behaviour. Collects every problem, each naming file and line, instead of stopping at the first.
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { globSync } from 'tinyglobby';
import { CONFIG_FILE_NAME, type AgentDeclaration, type GovflowConfig } from '../config/config-loader.js';
import { AGENT_DECLARATION_SCHEMA } from '../config/config-schema.js';
import { configGovernancePart } from './config-governance-part.js';
import { fromClaudeCodeAgent, isClaudeCodeAgent } from './claude-agent-file.js';
import { parseYamlSource, type YamlSource } from '../config/yaml-source.js';
import { ConfigError, errorMessage } from '../errors.js';
import { compileSchema, describeSchemaErrors, errorKeyPath } from '../message/schema-compiler.js';
import { SENTIENT_MESSAGE_SCHEMA } from '../message/sentient-message.js';
import { DEFAULT_CONTENT_TYPE, type AgentDefinition } from './agent-definition.js';
import { FrontmatterError, splitFrontmatter } from '../config/frontmatter.js';
import { checkBudgetedModelsArePriced } from './model-pricing-check.js';
import { OutsideRootError, RootBoundary } from './root-boundary.js';
import { checkRoutingGraph } from './routing-graph.js';
import type { GuardrailRule } from '../privacy/guardrail-rules.js';
import { GUARDRAILS_FILE, guardrailsPromptText, loadGuardrails } from '../privacy/guardrails-loader.js';
import { AGENT_DEFAULTS } from '../config/config-defaults.js';
import { toolPatternProblem } from '../tools/tool-names.js';
import { isPlainObject } from '../message/json-text.js';

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

const validateDeclaration = compileSchema(AGENT_DECLARATION_SCHEMA as unknown as Record<string, unknown>);

function toPosix(relative: string): string {
  return relative.split(path.sep).join('/');
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

  const agentsFolder = path.join(root, 'governance', 'agents');
  const agentFiles = existsSync(agentsFolder)
    ? readdirSync(agentsFolder)
        .filter((name) => name.endsWith('.md'))
        .sort()
    : [];
  for (const fileName of agentFiles) {
    const relative = `governance/agents/${fileName}`;
    if (configAgentFiles.has(relative)) continue;
    const split = readMarkdown(relative);
    if (!split) continue;
    if (split.frontmatter === null) {
      if (configAgentFiles.size > 0) {
        // A tree whose agents are declared in config may keep other markdown beside them.
        warnings.push(
          `${relative}: no frontmatter and not named by any \`agents:\` entry in govflow.config.yaml; ignored`,
        );
        continue;
      }
      const how =
        'start the file with a "---" block (name, type, description, ...) or declare this agent under `agents:` in govflow.config.yaml with `file:`';
      errors.push(new ConfigError(`no YAML frontmatter: ${how}`, relative, 1));
      continue;
    }
    let source;
    try {
      source = parseYamlSource(split.frontmatter, relative, split.frontmatterLine);
    } catch (error) {
      errors.push(error instanceof ConfigError ? error : new ConfigError(errorMessage(error), relative, 1));
      continue;
    }
    let declaration = source.value;
    if (!isPlainObject(declaration)) {
      errors.push(
        new ConfigError('frontmatter must be a YAML mapping (name: ..., type: ...)', relative, split.frontmatterLine),
      );
      continue;
    }
    if (isClaudeCodeAgent(declaration as Record<string, unknown>)) {
      const converted = fromClaudeCodeAgent(declaration as Record<string, unknown>, relative, source.lineOf);
      if (converted.errors.length > 0) {
        errors.push(...converted.errors);
        continue;
      }
      declaration = converted.declaration;
    }
    if (!validateDeclaration(declaration)) {
      for (const error of validateDeclaration.errors ?? []) {
        if (error.keyword === 'if') continue;
        const [sentence] = describeSchemaErrors([error]);
        errors.push(
          new ConfigError(`frontmatter ${sentence.replace(/^\//, '')}`, relative, source.lineOf(errorKeyPath(error))),
        );
      }
      continue;
    }
    const typed = declaration as AgentDeclaration & { name: string };
    const expectedName = fileName.replace(/\.md$/, '');
    if (typed.name !== expectedName && typed.name !== expectedName.toLowerCase().replace(/-/g, '_')) {
      warnings.push(`${relative}: agent name "${typed.name}" differs from the file name "${expectedName}"`);
    }
    const agent = resolveAgent(
      typed,
      { file: relative, line: source.lineOf(['name']) },
      relative,
      split.body,
      config,
      errors,
      read,
      source.lineOf,
    );
    if (agent) addAgent(agent);
  }

  const promptFiles = collectPromptFiles(config, read, errors);
  checkModelFile(config, boundary, errors);
  const messageSchema = loadMessageSchema(config, read, errors, () => configLine(['message', 'schema']));
  const entryAgent = checkRoutingGraph(agents, errors, warnings);
  errors.push(
    ...checkBudgetedModelsArePriced(config, agents, () => configLine(['limits', 'max_cost_usd_per_session'])),
  );
  const guardrails = loadGuardrails(config, read, errors, configLine);

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

function resolveAgent(
  declaration: AgentDeclaration & { name: string },
  declaredIn: { file: string; line: number },
  file: string | null,
  instructions: string,
  config: GovflowConfig,
  errors: ConfigError[],
  read: (relative: string) => string,
  lineOf: (keyPath: string[]) => number = () => declaredIn.line,
): AgentDefinition | null {
  let outputSchema: Record<string, unknown> | null = null;
  if (declaration.output_schema !== undefined) {
    const line = lineOf(['output_schema']);
    try {
      if (typeof declaration.output_schema === 'string') {
        const schemaPath = toPosix(path.normalize(declaration.output_schema));
        if (!existsSync(path.join(config.root, schemaPath))) {
          throw new ConfigError(
            `output_schema file "${declaration.output_schema}" does not exist (paths are relative to the root)`,
          );
        }
        outputSchema = JSON.parse(read(schemaPath)) as Record<string, unknown>;
      } else {
        outputSchema = declaration.output_schema;
      }
      compileSchema(outputSchema);
    } catch (error) {
      const why =
        error instanceof OutsideRootError ? 'output_schema file' : 'output_schema is not a usable JSON Schema:';
      errors.push(new ConfigError(`agent "${declaration.name}": ${why} ${errorMessage(error)}`, declaredIn.file, line));
      return null;
    }
  }
  // Deny by default: a tool name that matches nothing is a mistake to hear about now, not a silent empty offer.
  const servers = Object.keys(config.mcp.servers);
  let toolsValid = true;
  for (const key of ['tools', 'approval'] as const) {
    (declaration[key] ?? []).forEach((pattern, index) => {
      const problem = toolPatternProblem(pattern, servers);
      if (!problem) return;
      toolsValid = false;
      errors.push(
        new ConfigError(
          `agent "${declaration.name}": ${key}: ${problem}`,
          declaredIn.file,
          lineOf([key, String(index)]),
        ),
      );
    });
  }
  if (!toolsValid) return null;
  // A local model answers under a JSON grammar, which rules out tool calls (and so `delegate`).
  const toolKey =
    config.provider.kind !== 'local'
      ? undefined
      : (['tools', 'delegates'] as const).find((key) => (declaration[key] ?? []).length > 0);
  if (toolKey) {
    const why = toolKey === 'delegates' ? ', and delegating is a tool call (delegate)' : '';
    errors.push(
      new ConfigError(
        `agent "${declaration.name}": ${toolKey}: provider.kind local cannot offer tools${why} (a local model answers under a JSON grammar, which rules out tool calls); remove ${toolKey}: from this agent or use a provider kind with tool calls (openai, anthropic, google, openai-compatible, ollama, scripted)`,
        declaredIn.file,
        lineOf([toolKey]),
      ),
    );
    return null;
  }
  const attachmentsProblem = nativeAttachmentsProblem(declaration, config);
  if (attachmentsProblem) {
    errors.push(
      new ConfigError(`agent "${declaration.name}": ${attachmentsProblem}`, declaredIn.file, lineOf(['attachments'])),
    );
    return null;
  }
  for (const pattern of declaration.approval ?? []) {
    const offered = (declaration.tools ?? []).some(
      (tool) =>
        tool === pattern ||
        (tool.endsWith('*') && pattern.startsWith(tool.slice(0, -1))) ||
        (pattern.endsWith('*') && tool.startsWith(pattern.slice(0, -1))),
    );
    if (!offered)
      errors.push(
        new ConfigError(
          `agent "${declaration.name}": approval: "${pattern}" is not among its tools, so it can never be called; add it to tools: or remove it`,
          declaredIn.file,
          lineOf(['approval']),
        ),
      );
  }
  return {
    name: declaration.name,
    type: declaration.type,
    description: declaration.description,
    entry: declaration.entry ?? false,
    next: declaration.next ?? [],
    contentType: declaration.content_type ?? DEFAULT_CONTENT_TYPE,
    outputSchema,
    plan: declaration.plan ?? false,
    onFailure: declaration.on_failure ?? null,
    model: declaration.model,
    temperature: declaration.temperature,
    maxTokens: declaration.max_tokens,
    timeoutMs: declaration.timeout_ms,
    maxRetries: declaration.max_retries,
    file,
    declaredIn: {
      ...declaredIn,
      keyLines: {
        entry: lineOf(['entry']),
        next: lineOf(['next']),
        plan: lineOf(['plan']),
        on_failure: lineOf(['on_failure']),
        delegates: lineOf(['delegates']),
      },
    },
    instructions,
    tools: [...(declaration.tools ?? [])],
    maxTurns: declaration.max_turns ?? AGENT_DEFAULTS.max_turns,
    approval: [...(declaration.approval ?? [])],
    delegates: [...(declaration.delegates ?? [])],
    attachments: declaration.attachments ?? null,
  };
}

/** Provider kinds whose APIs take PDFs and images as file parts (docs/attachments.md). */
const NATIVE_FILE_KINDS: readonly string[] = ['openai', 'anthropic', 'google'];

/** Why `attachments: native` cannot apply: another provider kind, or redaction (a file part cannot be redacted). */
function nativeAttachmentsProblem(declaration: AgentDeclaration, config: GovflowConfig): string | null {
  if (declaration.attachments !== 'native') return null;
  if (!NATIVE_FILE_KINDS.includes(config.provider.kind))
    return `attachments: native sends PDFs and images as file parts, which provider.kind "${config.provider.kind}" does not take (only ${NATIVE_FILE_KINDS.join(', ')}); use attachments: inline or list, or one of those provider kinds`;
  if (config.pii.redact.length > 0 || config.pii.custom.length > 0)
    return 'attachments: native sends PDFs and images to the model as they are, but pii.redact is set and a file part cannot be redacted; use attachments: inline (text attachments are redacted) or list, or drop pii.redact';
  return null;
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
