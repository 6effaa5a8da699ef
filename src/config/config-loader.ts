/**
 * Configuration: govflow.config.yaml + GOVFLOW_* environment → defaults → validation → one
 * frozen object (STYLE, after temporalio's worker options).
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { ConfigError } from '../errors.js';
import { builtinValidator, errorKeyPath, describeSchemaErrors } from '../message/schema-compiler.js';
import { CONFIG_DEFAULTS } from './config-defaults.js';
import { CONFIG_SCHEMA } from './config-schema.js';
import { piiProblem, retentionProblem } from './config-problems.js';
import { jwtSettingsProblem } from './jwt-key-file.js';
import { parseYamlSource } from './yaml-source.js';
import { systemPaths, type SystemPaths } from './system-paths.js';
import { CommandRefusedError, parseCommandPattern, type CommandPattern } from './command-patterns.js';
import { isPlainObject } from '../message/json-text.js';

export const CONFIG_FILE_NAME = 'govflow.config.yaml';

/** An agent as declared in frontmatter or under config `agents:`. */
export interface AgentDeclaration {
  name?: string;
  type: 'governance' | 'operational' | 'executional';
  description: string;
  entry?: boolean;
  next?: string[] | null;
  content_type?: string;
  output_schema?: string | Record<string, unknown>;
  plan?: boolean;
  on_failure?: string;
  model?: string;
  temperature?: number;
  max_tokens?: number;
  timeout_ms?: number;
  max_retries?: number;
  file?: string;
  tools?: string[];
  max_turns?: number;
  approval?: string[];
  /** Agents it may start a child session at (README "Delegation"). */
  delegates?: string[];
  /** What the agent gets of a request's attachments (docs/attachments.md). */
  attachments?: AttachmentMode;
  /** Routes the orchestrator decides with CEL conditions (SPEC §24). */
  routes?: Array<{ when?: string; to: string | null }>;
  /** Template of the agent's input: text with `{{ <CEL expression> }}` parts. */
  input?: string;
  /** CEL expression over its message giving the result's answer (SPEC §23). */
  answer?: string;
  /** `none`: a free-text agent (SPEC §24). */
  protocol?: 'sentient' | 'none';
  /** `sacp`: answers in seed 000's format, mapped to a message (SPEC §24); default: config `message.format`. */
  message_format?: 'sentient' | 'sacp';
}

/** `inline`: listed, text inline; `list`: listed only; `native`: inline, PDFs and images as file parts. */
export type AttachmentMode = 'inline' | 'list' | 'native';

export interface ModelPrice {
  input: number;
  output: number;
  cached_input?: number;
}

type ConfigSections = typeof CONFIG_DEFAULTS;

/**
 * The whole, validated, defaulted configuration, frozen; each section has its defaults' shape
 * (config-defaults.ts), with paths resolved against the root and `${ENV}` in `store.url` expanded.
 */
export interface GovflowConfig extends Omit<ConfigSections, 'agents'> {
  root: string;
  /** Absolute path of the config file read, or null when there was none. */
  configFile: string | null;
  /**
   * The file's top-level keys as written, before defaults and environment: what the governance
   * hash covers (src/governance/config-governance-part.ts) and what a running daemon compares an edit with.
   */
  written: Readonly<Record<string, unknown>>;
  timezone: string;
  /** `prices:` and `pricing:` (converted; docs/configuration.md), merged; `pricing` wins per model. */
  prices: Record<string, ModelPrice>;
  /** Agents declared under `agents:` (its two settings are in `agentSettings`). */
  agents: Record<string, AgentDeclaration>;
  /** `agents.claude_code_dir` (root-relative, forward slashes) and `agents.claude_code` (docs/claude-code.md). */
  agentSettings: ConfigSections['agents'];
  /** `tools.commands.allow` and `auto_approve` parsed (docs/claude-code.md). */
  commandPatterns: { allow: readonly CommandPattern[]; autoApprove: readonly CommandPattern[] };
  paths: SystemPaths;
  /** Guardrail rules as written; compiled (with file and line) by the governance loader. */
  guardrails: unknown[];
}

const validateConfig = builtinValidator('config');

/** True when `zone` is an IANA time zone name this Node.js knows. */
function isValidTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return zone.length > 0;
  } catch {
    return false;
  }
}

function systemTimeZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
}

/** The `provider` keys the environment sets (when not empty), by variable. */
const PROVIDER_ENVIRONMENT = {
  kind: 'GOVFLOW_PROVIDER',
  model: 'GOVFLOW_MODEL',
  base_url: 'GOVFLOW_BASE_URL',
  script: 'GOVFLOW_SCRIPT',
} as const;

/** A fresh copy of `defaults` with what the user wrote over it: mappings merged key by key, anything else replaced. */
function withDefaults(defaults: unknown, written: unknown): unknown {
  if (written === undefined) return structuredClone(defaults);
  if (!isPlainObject(defaults) || !isPlainObject(written)) return structuredClone(written);
  const merged = structuredClone(defaults);
  for (const [key, value] of Object.entries(written)) merged[key] = withDefaults(defaults[key], value);
  return merged;
}

/** Loads and validates the configuration of `root`. Throws ConfigError naming file, line and key. */
export function loadConfig(root: string, env: NodeJS.ProcessEnv = process.env): GovflowConfig {
  const absoluteRoot = path.resolve(root);
  const file = path.join(absoluteRoot, CONFIG_FILE_NAME);
  let user: Record<string, unknown> = {};
  let lineOf: (keyPath: readonly (string | number)[]) => number = () => 1;
  const configFile = existsSync(file) ? file : null;
  if (configFile) {
    const source = parseYamlSource(readFileSync(configFile, 'utf8'), CONFIG_FILE_NAME);
    if (source.value !== null && source.value !== undefined && !isPlainObject(source.value)) {
      throw new ConfigError(
        'the config must be a YAML mapping of keys (timezone:, provider:, ...)',
        CONFIG_FILE_NAME,
        1,
      );
    }
    user = (source.value as Record<string, unknown> | null) ?? {};
    lineOf = source.lineOf;
  }

  if (!validateConfig(user)) {
    const first = validateConfig.errors![0];
    const keyPath = errorKeyPath(first);
    const [sentence] = describeSchemaErrors([first]);
    throw new ConfigError(
      `${sentence.replace(/^\//, '').replace(/\//g, '.')} — docs/configuration.md lists every key with its values and default`,
      CONFIG_FILE_NAME,
      lineOf(keyPath),
    );
  }

  const defaulted = <K extends keyof ConfigSections>(name: K) =>
    withDefaults(CONFIG_DEFAULTS[name], user[name]) as ConfigSections[K];
  const provider = defaulted('provider');
  for (const [key, variable] of Object.entries(PROVIDER_ENVIRONMENT))
    if (env[variable]) (provider as unknown as Record<string, unknown>)[key] = env[variable];
  const validKinds: readonly string[] = CONFIG_SCHEMA.properties.provider.properties.kind.enum;
  if (!validKinds.includes(provider.kind)) {
    throw new ConfigError(
      `GOVFLOW_PROVIDER="${provider.kind}" is not a provider kind; use one of ${validKinds.join(', ')}`,
    );
  }

  const fromEnvironment = Boolean(env.GOVFLOW_TIMEZONE);
  const timezone = env.GOVFLOW_TIMEZONE || ((user.timezone as string | undefined) ?? systemTimeZone());
  if (!isValidTimeZone(timezone)) {
    throw new ConfigError(
      `timezone "${timezone}" (from ${fromEnvironment ? 'GOVFLOW_TIMEZONE' : `${CONFIG_FILE_NAME}:${lineOf(['timezone'])}`}) is not a valid ` +
        `IANA time zone name; use one like "Asia/Singapore", "America/New_York" or "UTC"`,
      fromEnvironment ? undefined : CONFIG_FILE_NAME,
      fromEnvironment ? undefined : lineOf(['timezone']),
    );
  }

  const mcp = defaulted('mcp');
  for (const [name, server] of Object.entries(mcp.servers)) {
    if ((server.command === undefined) === (server.url === undefined)) {
      throw new ConfigError(
        `mcp.servers.${name} needs exactly one of \`command\` (a stdio server govflow starts) or \`url\` (a Streamable HTTP server)`,
        CONFIG_FILE_NAME,
        lineOf(['mcp', 'servers', name]),
      );
    }
    if (server.forward_authorization === true && server.url === undefined)
      throw new ConfigError(
        `mcp.servers.${name}.forward_authorization forwards the HTTP caller's Authorization header, which only a server with \`url\` ` +
          `(Streamable HTTP) can receive: remove it, or give the server a url`,
        CONFIG_FILE_NAME,
        lineOf(['mcp', 'servers', name, 'forward_authorization']),
      );
  }

  const http = defaulted('http');
  const jwt = jwtSettingsProblem(http.auth.jwt, absoluteRoot);
  if (jwt !== null) throw new ConfigError(jwt.message, CONFIG_FILE_NAME, lineOf(jwt.keyPath));
  if (http.auth.jwt?.public_key_file !== undefined)
    http.auth.jwt.public_key_file = path.resolve(absoluteRoot, http.auth.jwt.public_key_file);
  const config: GovflowConfig = {
    root: absoluteRoot,
    configFile,
    written: structuredClone(user),
    timezone,
    provider,
    llm: defaulted('llm'),
    limits: defaulted('limits'),
    intake: defaulted('intake'),
    message: defaulted('message'),
    prompt: defaulted('prompt'),
    daemon: defaulted('daemon'),
    audit: auditSettings(root, defaulted('audit')),
    telemetry: defaulted('telemetry'),
    notify: defaulted('notify'),
    chat: defaulted('chat'),
    http: {
      ...http,
      tokens: http.tokens.map((token: { user: string; sha256: string; role?: 'operator' | 'auditor' | 'admin' }) => ({
        user: token.user,
        sha256: token.sha256.toLowerCase(),
        role: token.role ?? 'operator',
      })),
    },
    prices: { ...((user.prices as Record<string, ModelPrice> | undefined) ?? {}), ...pricingTable(user.pricing) },
    allow_outside_root: defaulted('allow_outside_root'),
    ...agentsSection(user.agents, lineOf),
    tools: toolsSection(absoluteRoot, defaulted('tools')),
    mcp,
    store: storeSection(defaulted('store'), env, lineOf(['store'])),
    cluster: defaulted('cluster'),
    paths: systemPaths(absoluteRoot),
    pii: defaulted('pii'),
    privacy: defaulted('privacy'),
    guardrails: (user.guardrails as unknown[] | undefined) ?? [],
    commandPatterns: { allow: [], autoApprove: [] },
  };
  config.commandPatterns = commandPatterns(config.tools.commands, lineOf);
  const pii = piiProblem(config.pii);
  if (pii !== null) throw new ConfigError(pii.message, CONFIG_FILE_NAME, lineOf(pii.keyPath));
  const problem = retentionProblem(config);
  if (problem !== null)
    throw new ConfigError(problem, CONFIG_FILE_NAME, lineOf(['audit', 'retention', 'delete_after_days']));
  if (env.GOVFLOW_FSYNC === '0') config.daemon.fsync = false;
  return deepFreeze(config);
}

/**
 * `store:` with its URL resolved: GOVFLOW_STORE_URL wins; `${NAME}` in the URL is replaced by
 * that environment variable (so a password need not sit in the file). Errors never echo the URL.
 */
function storeSection(store: GovflowConfig['store'], env: NodeJS.ProcessEnv, line: number): GovflowConfig['store'] {
  const kind = (env.GOVFLOW_STORE ?? store.kind) as GovflowConfig['store']['kind'];
  if (kind !== 'files' && kind !== 'postgres')
    throw new ConfigError(`GOVFLOW_STORE="${kind}" is not a store kind; use files or postgres`);
  const written = env.GOVFLOW_STORE_URL || store.url;
  const url =
    written === null
      ? null
      : written.replace(/\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g, (_match, name: string) => {
          const value = env[name];
          if (value === undefined)
            throw new ConfigError(
              `store.url names the environment variable \${${name}}, which is not set; set it or write the URL out`,
              CONFIG_FILE_NAME,
              line,
            );
          return value;
        });
  if (kind === 'postgres' && !url) {
    throw new ConfigError(
      'store.kind is postgres but store.url is not set: give a URL such as postgres://user@host:5432/db (or set GOVFLOW_STORE_URL)',
      env.GOVFLOW_STORE ? undefined : CONFIG_FILE_NAME,
      env.GOVFLOW_STORE ? undefined : line,
    );
  }
  return { kind, url, schema: store.schema };
}

/** `pricing: { model: { input_per_mtok, output_per_mtok } }` (docs/configuration.md) as the price table's entries. */
function pricingTable(pricing: unknown): Record<string, ModelPrice> {
  const table: Record<string, ModelPrice> = {};
  if (!isPlainObject(pricing)) return table;
  for (const [model, value] of Object.entries(pricing)) {
    const price = value as { input_per_mtok: number; output_per_mtok: number; cached_input_per_mtok?: number };
    table[model] = {
      input: price.input_per_mtok,
      output: price.output_per_mtok,
      ...(price.cached_input_per_mtok === undefined ? {} : { cached_input: price.cached_input_per_mtok }),
    };
  }
  return table;
}

/** `agents:` split into the agents it declares and its two settings (the claude_code_dir checked to be a plain relative path). */
function agentsSection(
  written: unknown,
  lineOf: (keyPath: readonly (string | number)[]) => number,
): Pick<GovflowConfig, 'agents' | 'agentSettings'> {
  const { claude_code_dir: dir, claude_code: claudeCode, ...agents } = (written ?? {}) as Record<string, unknown>;
  const settings = withDefaults(CONFIG_DEFAULTS.agents, { claude_code_dir: dir, claude_code: claudeCode });
  const agentSettings = settings as ConfigSections['agents'];
  if (typeof dir === 'string') {
    const relative = path.posix.normalize(dir.replace(/\\/g, '/')).replace(/\/$/, '');
    if (path.posix.isAbsolute(relative) || relative === '..' || relative.startsWith('../') || relative === '.') {
      throw new ConfigError(
        `agents.claude_code_dir "${dir}" must be a folder inside the root, relative to it (e.g. .claude/agents)`,
        CONFIG_FILE_NAME,
        lineOf(['agents', 'claude_code_dir']),
      );
    }
    agentSettings.claude_code_dir = relative;
  }
  return { agents: agents as Record<string, AgentDeclaration>, agentSettings };
}

/** `tools.commands.allow` and `auto_approve` parsed; an entry that is no command pattern, or auto-approves a command not allowed, is an error. */
function commandPatterns(
  commands: GovflowConfig['tools']['commands'],
  lineOf: (keyPath: readonly (string | number)[]) => number,
): GovflowConfig['commandPatterns'] {
  const parsed = (key: 'allow' | 'auto_approve') =>
    commands[key].map((text, index) => {
      try {
        return parseCommandPattern(text);
      } catch (error) {
        if (!(error instanceof CommandRefusedError)) throw error;
        throw new ConfigError(
          `tools.commands.${key}: ${error.message}`,
          CONFIG_FILE_NAME,
          lineOf(['tools', 'commands', key, index]),
        );
      }
    });
  const allow = parsed('allow');
  const autoApprove = parsed('auto_approve');
  autoApprove.forEach((pattern, index) => {
    if (!commands.allow.includes(pattern.text))
      throw new ConfigError(
        `tools.commands.auto_approve: "${pattern.text}" is not in tools.commands.allow; a command runs only when allow lists it, so add it ` +
          `there too (or remove it here)`,
        CONFIG_FILE_NAME,
        lineOf(['tools', 'commands', 'auto_approve', index]),
      );
  });
  return { allow, autoApprove };
}

/** `tools` with the workspace resolved and host names lower-cased. */
function toolsSection(root: string, tools: GovflowConfig['tools']): GovflowConfig['tools'] {
  return {
    ...tools,
    workspace: path.resolve(root, tools.workspace),
    http_get: { ...tools.http_get, allow_hosts: tools.http_get.allow_hosts.map((host) => host.toLowerCase()) },
  };
}

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value)) deepFreeze(child);
  }
  return value;
}

/**
 * The audit section with its paths resolved. The signing key must lie outside the root (docs/audit-log.md):
 * whoever can write the root must not be able to sign with the daemon's key.
 */
function auditSettings(root: string, audit: GovflowConfig['audit']): GovflowConfig['audit'] {
  const keyPath = audit.signing_key === null ? null : path.resolve(root, audit.signing_key);
  if (keyPath !== null) {
    const relative = path.relative(path.resolve(root), keyPath);
    if (relative === '' || (!relative.startsWith('..') && !path.isAbsolute(relative))) {
      throw new ConfigError(
        `audit.signing_key ${keyPath} is inside the root: keep the private key outside it (e.g. /etc/govflow/audit.key), so whoever can write ` +
          `the root cannot sign`,
        CONFIG_FILE_NAME,
      );
    }
  }
  return {
    ...audit,
    signing_key: keyPath,
    witnesses: audit.witnesses.map((witness) => (/^https?:\/\//.test(witness) ? witness : path.resolve(root, witness))),
  };
}
