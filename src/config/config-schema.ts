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
  telemetry: {
    /**
     * OTLP/HTTP collector (e.g. http://127.0.0.1:4318, or a full …/v1/traces URL). Null: tracing
     * is off unless OTEL_EXPORTER_OTLP_TRACES_ENDPOINT or OTEL_EXPORTER_OTLP_ENDPOINT is set.
     */
    otlp_endpoint: null,
    /** Put prompts and answers (after PII redaction) on spans. Off: spans carry no message text. */
    capture_content: false,
    /** The `service.name` resource attribute of every span. */
    service_name: 'govflow',
  },
  http: {
    /** `HOST:PORT` to serve the HTTP API on (SPEC §11); null: no listener (`govflow start --http` also sets it). */
    listen: null,
    /** Bearer tokens, stored as their SHA-256 (`govflow token add`); empty: loopback only, every caller is `local`. */
    tokens: [],
    /** Largest request body accepted (413 above it). */
    max_body_bytes: 1_048_576,
    /** Milliseconds between SSE comment heartbeats (SPEC: at least every 15 s). */
    heartbeat_ms: 10_000,
    /** A client must send its whole request (headers and body) within this time (slowloris guard). */
    request_timeout_ms: 30_000,
  },
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
    telemetry: {
      type: 'object',
      additionalProperties: false,
      properties: {
        otlp_endpoint: { type: ['string', 'null'], pattern: '^https?://' },
        capture_content: { type: 'boolean' },
        service_name: { type: 'string', minLength: 1 },
      },
    },
    http: {
      type: 'object',
      additionalProperties: false,
      properties: {
        listen: { type: ['string', 'null'], pattern: '^\\[?[^\\s]+\\]?:[0-9]{1,5}$' },
        tokens: {
          type: 'array',
          items: {
            type: 'object',
            additionalProperties: false,
            required: ['user', 'sha256'],
            properties: {
              user: { type: 'string', pattern: '^[A-Za-z0-9._@-]{1,128}$' },
              sha256: { type: 'string', pattern: '^[0-9a-fA-F]{64}$' },
              role: { enum: ['operator', 'auditor'] },
            },
          },
        },
        max_body_bytes: positiveInteger,
        heartbeat_ms: { type: 'integer', minimum: 100, maximum: 15_000 },
        request_timeout_ms: positiveInteger,
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
