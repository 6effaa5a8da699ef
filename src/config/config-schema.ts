/**
 * The JSON Schema of govflow.config.yaml and every default, each written once next to its
 * meaning (STYLE: "every default written once, next to its documentation").
 */

/** Defaults, in plain milliseconds and bytes. */
export const CONFIG_DEFAULTS = {
  provider: { kind: 'dry-run', model: 'gpt-4.1-mini', base_url: null, api_key_env: null, script: null, stream: true },
  llm: {
    /** Attempts per LLM call on network errors, 408/409/429/5xx (SPEC §5). */
    max_attempts: 3,
    /** Per-call timeout. */
    timeout_ms: 120_000,
    backoff_base_ms: 500,
    backoff_max_ms: 30_000,
  },
  limits: {
    /** Messages per session before it fails. */
    max_steps: 20,
    /** Plan tasks running at once. */
    max_fan_out: 3,
    /** Repair round-trips per step when output does not parse or validate. */
    max_retries: 2,
    /** Whole-session deadline. */
    session_timeout_ms: 1_800_000,
    max_tokens_per_session: null,
    max_cost_usd_per_session: null,
  },
  intake: {
    /** Sessions running at once. */
    concurrency: 2,
    /** Largest request file accepted. */
    max_bytes: 1_048_576,
    /** Full rescan of the inbox (the watcher is only a hint). */
    rescan_interval_ms: 30_000,
    /** A file must stop changing for this long before it is claimed. */
    settle_ms: 100,
  },
  message: { schema: null },
  prompt: { include: ['context/**/*.md', 'governance/*.md'] },
  daemon: {
    /** Time running steps get to finish after SIGINT/SIGTERM. */
    shutdown_grace_ms: 10_000,
    /** Fsync journal and audit writes. Only benchmarks turn this off. */
    fsync: true,
  },
  /** Built-in tools (SPEC §10). Folders are relative to the root. */
  tools: {
    /** Each session works in `<workspace>/<session_id>/`; built-in file tools never leave it. */
    workspace: 'workspace',
    /** A tool result longer than this is cut (and the journal says so) before the model sees it. */
    max_result_bytes: 65_536,
    /** Largest file read_file returns and write_file accepts. */
    max_file_bytes: 1_048_576,
    http_get: {
      /** Host names http_get may reach (also after every redirect); empty: none. */
      allow_hosts: [] as string[],
      /** Largest response body read. */
      max_bytes: 1_048_576,
      /** Whole request, redirects included. */
      timeout_ms: 10_000,
      /** Redirects followed (each checked against allow_hosts). */
      max_redirects: 5,
    },
  },
  /** MCP servers whose tools agents may be offered as `mcp:<server>/<tool>` (SPEC §10). */
  mcp: {
    servers: {},
    /** One tool call (and a stdio server's start or an HTTP server's handshake). */
    timeout_ms: 30_000,
  },
} as const;

/** Defaults of agent keys that have one. */
export const AGENT_DEFAULTS = {
  /** Model turns per message in the tool loop (SPEC §10). */
  max_turns: 20,
} as const;

const nullableString = { type: ['string', 'null'] };
const positiveInteger = { type: 'integer', minimum: 1 };
const nullablePositiveNumber = { type: ['number', 'null'], exclusiveMinimum: 0 };

/** Agent declaration keys (frontmatter, or config `agents:`). Unknown keys are errors. */
export const AGENT_DECLARATION_SCHEMA = {
  type: 'object',
  additionalProperties: false,
  required: ['name', 'type', 'description'],
  properties: {
    name: { type: 'string', pattern: '^[a-z][a-z0-9_]*$' },
    type: { enum: ['governance', 'operational', 'executional'] },
    description: { type: 'string', minLength: 1 },
    entry: { type: 'boolean' },
    next: { type: ['array', 'null'], items: { type: 'string' }, uniqueItems: true },
    content_type: { type: 'string', minLength: 1 },
    output_schema: { type: ['string', 'object'] },
    plan: { type: 'boolean' },
    on_failure: { type: 'string' },
    model: { type: 'string', minLength: 1 },
    temperature: { type: 'number', minimum: 0, maximum: 2 },
    max_tokens: positiveInteger,
    timeout_ms: positiveInteger,
    max_retries: { type: 'integer', minimum: 0 },
    file: { type: 'string' },
    tools: { type: 'array', items: { type: 'string', minLength: 1 }, uniqueItems: true },
    max_turns: positiveInteger,
    approval: { type: 'array', items: { type: 'string', minLength: 1 }, uniqueItems: true },
  },
} as const;

const MCP_SERVER_SCHEMA = {
  type: 'object',
  additionalProperties: false,
  properties: {
    command: { type: 'string', minLength: 1 },
    args: { type: 'array', items: { type: 'string' } },
    env: { type: 'object', additionalProperties: { type: 'string' } },
    cwd: { type: 'string', minLength: 1 },
    url: { type: 'string', pattern: '^https?://' },
    headers_env: { type: 'object', additionalProperties: { type: 'string', pattern: '^[A-Za-z_][A-Za-z0-9_]*$' } },
    timeout_ms: positiveInteger,
  },
} as const;

export const CONFIG_SCHEMA = {
  type: 'object',
  additionalProperties: false,
  properties: {
    timezone: { type: 'string', minLength: 1 },
    provider: {
      type: 'object',
      additionalProperties: false,
      properties: {
        kind: {
          enum: ['dry-run', 'scripted', 'openai', 'openai-compatible', 'anthropic', 'google', 'ollama'],
        },
        model: { type: 'string', minLength: 1 },
        base_url: nullableString,
        api_key_env: nullableString,
        script: nullableString,
        stream: { type: 'boolean' },
      },
    },
    llm: {
      type: 'object',
      additionalProperties: false,
      properties: {
        max_attempts: positiveInteger,
        timeout_ms: positiveInteger,
        backoff_base_ms: { type: 'integer', minimum: 0 },
        backoff_max_ms: { type: 'integer', minimum: 0 },
      },
    },
    limits: {
      type: 'object',
      additionalProperties: false,
      properties: {
        max_steps: positiveInteger,
        max_fan_out: positiveInteger,
        max_retries: { type: 'integer', minimum: 0 },
        session_timeout_ms: positiveInteger,
        max_tokens_per_session: { type: ['integer', 'null'], minimum: 1 },
        max_cost_usd_per_session: nullablePositiveNumber,
      },
    },
    intake: {
      type: 'object',
      additionalProperties: false,
      properties: {
        concurrency: positiveInteger,
        max_bytes: positiveInteger,
        rescan_interval_ms: positiveInteger,
        settle_ms: { type: 'integer', minimum: 0 },
      },
    },
    message: {
      type: 'object',
      additionalProperties: false,
      properties: { schema: nullableString },
    },
    prompt: {
      type: 'object',
      additionalProperties: false,
      properties: { include: { type: 'array', items: { type: 'string', minLength: 1 } } },
    },
    daemon: {
      type: 'object',
      additionalProperties: false,
      properties: { shutdown_grace_ms: { type: 'integer', minimum: 0 }, fsync: { type: 'boolean' } },
    },
    tools: {
      type: 'object',
      additionalProperties: false,
      properties: {
        workspace: { type: 'string', minLength: 1 },
        max_result_bytes: positiveInteger,
        max_file_bytes: positiveInteger,
        http_get: {
          type: 'object',
          additionalProperties: false,
          properties: {
            allow_hosts: { type: 'array', items: { type: 'string', minLength: 1 } },
            max_bytes: positiveInteger,
            timeout_ms: positiveInteger,
            max_redirects: { type: 'integer', minimum: 0 },
          },
        },
      },
    },
    mcp: {
      type: 'object',
      additionalProperties: false,
      properties: {
        servers: {
          type: 'object',
          propertyNames: { pattern: '^[A-Za-z0-9_.-]+$' },
          additionalProperties: MCP_SERVER_SCHEMA,
        },
        timeout_ms: positiveInteger,
      },
    },
    prices: {
      type: 'object',
      additionalProperties: {
        type: 'object',
        additionalProperties: false,
        required: ['input', 'output'],
        properties: {
          input: { type: 'number', minimum: 0 },
          output: { type: 'number', minimum: 0 },
          cached_input: { type: 'number', minimum: 0 },
        },
      },
    },
    agents: {
      type: 'object',
      additionalProperties: {
        ...AGENT_DECLARATION_SCHEMA,
        required: ['type', 'description'],
      },
    },
  },
} as const;
