/**
 * Configuration: govflow.config.yaml + GOVFLOW_* environment → defaults → validation → one
 * frozen object (STYLE, after temporalio's worker options).
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { ConfigError } from '../errors.js';
import { compileSchema, errorKeyPath, describeSchemaErrors } from '../message/schema-compiler.js';
import { CONFIG_DEFAULTS } from './config-defaults.js';
import { CONFIG_SCHEMA } from './config-schema.js';
import { parseYamlSource } from './yaml-source.js';
import { systemPaths, type SystemPaths } from './system-paths.js';
import { PiiConfigError, piiDetectors, type PiiConfig } from '../privacy/pii-redactor.js';
import { isPlainObject } from '../message/json-text.js';

export const CONFIG_FILE_NAME = 'govflow.config.yaml';

export type ProviderKind =
  | 'dry-run'
  | 'scripted'
  | 'openai'
  | 'openai-compatible'
  | 'anthropic'
  | 'google'
  | 'ollama'
  | 'replay'
  | 'local';

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
}

/** An MCP server from config `mcp.servers` (README "Give an agent tools"): stdio (`command`) or Streamable HTTP (`url`). */
export interface McpServerConfig {
  command?: string;
  args?: string[];
  env?: Record<string, string>;
  cwd?: string;
  url?: string;
  /** Header name → name of the environment variable holding its value. */
  headers_env?: Record<string, string>;
  timeout_ms?: number;
}

export interface ToolsConfig {
  /** Absolute: the root-relative `tools.workspace` resolved. */
  workspace: string;
  max_result_bytes: number;
  max_file_bytes: number;
  http_get: { allow_hosts: string[]; max_bytes: number; timeout_ms: number; max_redirects: number };
}

export interface ModelPrice {
  input: number;
  output: number;
  cached_input?: number;
}

/** The whole, validated, defaulted configuration. Frozen. */
export interface GovflowConfig {
  root: string;
  /** Absolute path of the config file read, or null when there was none. */
  configFile: string | null;
  /**
   * The file's top-level keys as written, before defaults and environment: what the governance
   * hash covers (src/governance/config-governance-part.ts) and what a running daemon compares an edit with.
   */
  written: Readonly<Record<string, unknown>>;
  timezone: string;
  provider: {
    kind: ProviderKind;
    model: string;
    base_url: string | null;
    api_key_env: string | null;
    /** Scripted provider: the file of responses (relative to root). */
    script: string | null;
    stream: boolean;
    /** Replay provider: where the cassettes are (relative to root). */
    replay: { dir: string; on_miss?: 'fail' } | null;
    /** Local provider: llama.cpp options (threads default: physical cores). */
    local: { threads?: number | null; context_size?: number; gpu?: false | 'auto' | 'cuda' | 'vulkan' | 'metal' } | null;
  };
  llm: { max_attempts: number; timeout_ms: number; backoff_base_ms: number; backoff_max_ms: number; max_output_bytes: number; record: string | null };
  limits: {
    max_steps: number;
    max_fan_out: number;
    max_retries: number;
    session_timeout_ms: number;
    max_tokens_per_session: number | null;
    max_cost_usd_per_session: number | null;
    max_crash_retries: number;
    max_depth: number;
    delegation_deadline_ms: number;
    max_tokens_per_delegation: number | null;
  };
  intake: { concurrency: number; max_bytes: number; rescan_interval_ms: number; settle_ms: number; min_free_bytes: number };
  message: { schema: string | null; max_depth: number };
  prompt: { include: string[] };
  daemon: { shutdown_grace_ms: number; fsync: boolean };
  /** Signed checkpoints, witnesses and retention of the audit trail (docs/audit-log.md); paths absolute. */
  audit: {
    signing_key: string | null;
    checkpoint_ms: number;
    witnesses: string[];
    retention: { keep_days: number | null; archive: 'gzip'; delete_after_days: number | null };
  };
  /** OpenTelemetry export (README "Traces (OpenTelemetry)"); see src/telemetry/telemetry-settings.ts for the env variables. */
  telemetry: { otlp_endpoint: string | null; capture_content: boolean; service_name: string };
  /** The HTTP API (docs/http-api.md); `listen` null means no HTTP listener. */
  http: {
    listen: string | null;
    tokens: Array<{ user: string; sha256: string; role: 'operator' | 'auditor' }>;
    max_body_bytes: number;
    heartbeat_ms: number;
    request_timeout_ms: number;
  };
  /** `prices:` and `pricing:` (converted; docs/configuration.md), merged; `pricing` wins per model. */
  prices: Record<string, ModelPrice>;
  allow_outside_root: boolean;
  agents: Record<string, AgentDeclaration>;
  tools: ToolsConfig;
  mcp: { servers: Record<string, McpServerConfig>; timeout_ms: number };
  /** The store (docs/cluster.md): `files` (default) or `postgres` (cluster mode); `url` has `${ENV}` expanded. */
  store: { kind: 'files' | 'postgres'; url: string | null; schema: string };
  cluster: { lease_ms: number; pool_size: number; connect_timeout_ms: number };
  paths: SystemPaths;
  /** PII redaction (README "Privacy and guardrails"). */
  pii: PiiConfig;
  /** Guardrail rules as written; compiled (with file and line) by the governance loader. */
  guardrails: unknown[];
}

const validateConfig = compileSchema(CONFIG_SCHEMA as unknown as Record<string, unknown>);

/** True when `zone` is an IANA time zone name this Node.js knows. */
export function isValidTimeZone(zone: string): boolean {
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

function environmentOverrides(env: NodeJS.ProcessEnv): Record<string, [string, string]> {
  // key path → [value, variable name], for errors that say where a bad value came from.
  const table: Array<[string, string]> = [
    ['timezone', 'GOVFLOW_TIMEZONE'],
    ['provider.kind', 'GOVFLOW_PROVIDER'],
    ['provider.model', 'GOVFLOW_MODEL'],
    ['provider.base_url', 'GOVFLOW_BASE_URL'],
    ['provider.script', 'GOVFLOW_SCRIPT'],
  ];
  const result: Record<string, [string, string]> = {};
  for (const [key, variable] of table) {
    const value = env[variable];
    if (value !== undefined && value !== '') result[key] = [value, variable];
  }
  return result;
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
      throw new ConfigError('the config must be a YAML mapping of keys (timezone:, provider:, ...)', CONFIG_FILE_NAME, 1);
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

  const overrides = environmentOverrides(env);
  const section = (name: string) => (isPlainObject(user[name]) ? (user[name] as Record<string, unknown>) : {});
  const provider = { ...CONFIG_DEFAULTS.provider, ...section('provider') } as GovflowConfig['provider'];
  for (const [key, [value]] of Object.entries(overrides)) {
    if (key.startsWith('provider.')) (provider as unknown as Record<string, unknown>)[key.slice(9)] = value;
  }
  const validKinds = (CONFIG_SCHEMA.properties.provider.properties.kind.enum as readonly string[]);
  if (!validKinds.includes(provider.kind)) {
    throw new ConfigError(
      `GOVFLOW_PROVIDER="${provider.kind}" is not a provider kind; use one of ${validKinds.join(', ')}`,
    );
  }

  const timezone = overrides.timezone?.[0] ?? (user.timezone as string | undefined) ?? systemTimeZone();
  if (!isValidTimeZone(timezone)) {
    const from = overrides.timezone ? `GOVFLOW_TIMEZONE` : `${CONFIG_FILE_NAME}:${lineOf(['timezone'])}`;
    throw new ConfigError(
      `timezone "${timezone}" (from ${from}) is not a valid IANA time zone name; use one like "Asia/Singapore", "America/New_York" or "UTC"`,
      overrides.timezone ? undefined : CONFIG_FILE_NAME,
      overrides.timezone ? undefined : lineOf(['timezone']),
    );
  }

  for (const [name, server] of Object.entries((section('mcp').servers as Record<string, McpServerConfig> | undefined) ?? {})) {
    if ((server.command === undefined) === (server.url === undefined)) {
      throw new ConfigError(
        `mcp.servers.${name} needs exactly one of \`command\` (a stdio server govflow starts) or \`url\` (a Streamable HTTP server)`,
        CONFIG_FILE_NAME,
        lineOf(['mcp', 'servers', name]),
      );
    }
  }

  const messageSection = section('message');
  const config: GovflowConfig = {
    root: absoluteRoot,
    configFile,
    written: structuredClone(user),
    timezone,
    provider,
    llm: { ...CONFIG_DEFAULTS.llm, ...section('llm') } as GovflowConfig['llm'],
    limits: { ...CONFIG_DEFAULTS.limits, ...section('limits') } as GovflowConfig['limits'],
    intake: { ...CONFIG_DEFAULTS.intake, ...section('intake') } as GovflowConfig['intake'],
    message: {
      schema: (messageSection.schema as string | null | undefined) ?? null,
      max_depth: (messageSection.max_depth as number | undefined) ?? CONFIG_DEFAULTS.message.max_depth,
    },
    prompt: { include: [...((section('prompt').include as string[] | undefined) ?? CONFIG_DEFAULTS.prompt.include)] },
    daemon: { ...CONFIG_DEFAULTS.daemon, ...section('daemon') } as GovflowConfig['daemon'],
    audit: auditSettings(root, section('audit')),
    telemetry: { ...CONFIG_DEFAULTS.telemetry, ...section('telemetry') } as GovflowConfig['telemetry'],
    http: {
      ...CONFIG_DEFAULTS.http,
      ...section('http'),
      tokens: ((section('http').tokens as Array<{ user: string; sha256: string; role?: 'operator' | 'auditor' }> | undefined) ?? []).map((token) => ({
        user: token.user,
        sha256: token.sha256.toLowerCase(),
        role: token.role ?? 'operator',
      })),
    } as GovflowConfig['http'],
    prices: { ...((user.prices as Record<string, ModelPrice> | undefined) ?? {}), ...pricingTable(user.pricing) },
    allow_outside_root: (user.allow_outside_root as boolean | undefined) ?? CONFIG_DEFAULTS.allow_outside_root,
    agents: (user.agents as Record<string, AgentDeclaration> | undefined) ?? {},
    tools: toolsSection(absoluteRoot, section('tools')),
    mcp: {
      servers: (section('mcp').servers as Record<string, McpServerConfig> | undefined) ?? {},
      timeout_ms: (section('mcp').timeout_ms as number | undefined) ?? CONFIG_DEFAULTS.mcp.timeout_ms,
    },
    store: storeSection(section('store'), env, lineOf(['store'])),
    cluster: { ...CONFIG_DEFAULTS.cluster, ...section('cluster') } as GovflowConfig['cluster'],
    paths: systemPaths(absoluteRoot),
    pii: { ...CONFIG_DEFAULTS.pii, ...section('pii') } as PiiConfig,
    guardrails: (user.guardrails as unknown[] | undefined) ?? [],
  };
  try {
    piiDetectors(config.pii); // bad kinds and unsafe custom patterns fail here, with their line
  } catch (error) {
    if (!(error instanceof PiiConfigError)) throw error;
    throw new ConfigError(error.message, CONFIG_FILE_NAME, lineOf(error.keyPath));
  }
  const problem = retentionProblem(config);
  if (problem !== null) throw new ConfigError(problem, CONFIG_FILE_NAME, lineOf(['audit', 'retention', 'delete_after_days']));
  if (env.GOVFLOW_FSYNC === '0') config.daemon.fsync = false;
  return deepFreeze(config);
}

/**
 * `store:` with its URL resolved: GOVFLOW_STORE_URL wins; `${NAME}` in the URL is replaced by
 * that environment variable (so a password need not sit in the file). Errors never echo the URL.
 */
function storeSection(user: Record<string, unknown>, env: NodeJS.ProcessEnv, line: number): GovflowConfig['store'] {
  const kind = (env.GOVFLOW_STORE ?? (user.kind as string | undefined) ?? CONFIG_DEFAULTS.store.kind) as GovflowConfig['store']['kind'];
  if (kind !== 'files' && kind !== 'postgres') throw new ConfigError(`GOVFLOW_STORE="${kind}" is not a store kind; use files or postgres`);
  const written = env.GOVFLOW_STORE_URL || ((user.url as string | null | undefined) ?? null);
  const url = written === null ? null : written.replace(/\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g, (_match, name: string) => {
    const value = env[name];
    if (value === undefined) throw new ConfigError(`store.url names the environment variable \${${name}}, which is not set; set it or write the URL out`, CONFIG_FILE_NAME, line);
    return value;
  });
  if (kind === 'postgres' && !url) {
    throw new ConfigError('store.kind is postgres but store.url is not set: give a URL such as postgres://user@host:5432/db (or set GOVFLOW_STORE_URL)', env.GOVFLOW_STORE ? undefined : CONFIG_FILE_NAME, env.GOVFLOW_STORE ? undefined : line);
  }
  return { kind, url, schema: (user.schema as string | undefined) ?? CONFIG_DEFAULTS.store.schema };
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

function toolsSection(root: string, user: Record<string, unknown>): ToolsConfig {
  const defaults = CONFIG_DEFAULTS.tools;
  const httpGet = isPlainObject(user.http_get) ? user.http_get : {};
  return {
    workspace: path.resolve(root, (user.workspace as string | undefined) ?? defaults.workspace),
    max_result_bytes: (user.max_result_bytes as number | undefined) ?? defaults.max_result_bytes,
    max_file_bytes: (user.max_file_bytes as number | undefined) ?? defaults.max_file_bytes,
    http_get: {
      ...defaults.http_get,
      ...httpGet,
      allow_hosts: [...((httpGet.allow_hosts as string[] | undefined) ?? defaults.http_get.allow_hosts)].map((host) => host.toLowerCase()),
    } as ToolsConfig['http_get'],
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
function auditSettings(root: string, raw: Record<string, unknown>): GovflowConfig['audit'] {
  const defaults = CONFIG_DEFAULTS.audit;
  const keyPath = typeof raw.signing_key === 'string' ? path.resolve(root, raw.signing_key) : null;
  if (keyPath !== null) {
    const relative = path.relative(path.resolve(root), keyPath);
    if (relative === '' || (!relative.startsWith('..') && !path.isAbsolute(relative))) {
      throw new ConfigError(`audit.signing_key ${keyPath} is inside the root: keep the private key outside it (e.g. /etc/govflow/audit.key), so whoever can write the root cannot sign`, CONFIG_FILE_NAME);
    }
  }
  const retention = (raw.retention as Record<string, unknown> | undefined) ?? {};
  const witnesses = ((raw.witnesses as string[] | undefined) ?? defaults.witnesses).map((witness) => (/^https?:\/\//.test(witness) ? witness : path.resolve(root, witness)));
  return {
    signing_key: keyPath,
    checkpoint_ms: (raw.checkpoint_ms as number | undefined) ?? defaults.checkpoint_ms,
    witnesses,
    retention: { ...defaults.retention, ...retention } as GovflowConfig['audit']['retention'],
  };
}

/** Only archived days are deleted (docs/audit-log.md "Retention and archives"): what makes `delete_after_days` wrong, or null. */
function retentionProblem(config: GovflowConfig): string | null {
  const { keep_days: keep, delete_after_days: deleteAfter } = config.audit.retention;
  if (deleteAfter === null) return null;
  if (config.store.kind === 'postgres') {
    return 'audit.retention.delete_after_days is not supported with store.kind: postgres (the chain, journals and results live in Postgres, which retention does not prune); remove it, or set it to null';
  }
  if (keep === null) return `audit.retention.delete_after_days (${deleteAfter}) needs audit.retention.keep_days: only archived days are deleted; set keep_days below ${deleteAfter}`;
  if (deleteAfter <= keep) return `audit.retention.delete_after_days (${deleteAfter}) must be greater than audit.retention.keep_days (${keep}): days are deleted only after they were archived`;
  return null;
}
