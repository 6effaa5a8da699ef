/** The JSON Schema of govflow.config.yaml; the defaults are in config-defaults.ts, an agent declaration's schema in agent-declaration-schema.ts. */
import { JWT_ALGORITHMS, MCP_SERVER_SCHEMA, PII_KINDS, WEBHOOK_EVENT_TYPES } from './config-vocabulary.js';
import { AGENT_DECLARATION_SCHEMA } from './agent-declaration-schema.js';

const nullableString = { type: ['string', 'null'] };
const positiveInteger = { type: 'integer', minimum: 1 };
const nullablePositiveNumber = { type: ['number', 'null'], exclusiveMinimum: 0 };

/** A price table by model: `input`, `output` and optional `cached_input`, each name ending in `suffix`. */
function priceTableSchema(suffix: string) {
  const price = { type: 'number', minimum: 0 };
  return {
    type: 'object',
    additionalProperties: {
      type: 'object',
      additionalProperties: false,
      required: [`input${suffix}`, `output${suffix}`],
      properties: { [`input${suffix}`]: price, [`output${suffix}`]: price, [`cached_input${suffix}`]: price },
    },
  };
}

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
          enum: [
            'dry-run',
            'scripted',
            'openai',
            'openai-compatible',
            'anthropic',
            'google',
            'ollama',
            'replay',
            'local',
          ],
        },
        model: { type: 'string', minLength: 1 },
        base_url: nullableString,
        api_key_env: nullableString,
        script: nullableString,
        stream: { type: 'boolean' },
        replay: {
          type: ['object', 'null'],
          additionalProperties: false,
          required: ['dir'],
          properties: { dir: { type: 'string', minLength: 1 }, on_miss: { enum: ['fail'] } },
        },
        local: {
          type: ['object', 'null'],
          additionalProperties: false,
          properties: {
            threads: { type: ['integer', 'null'], minimum: 1 },
            context_size: { type: 'integer', minimum: 64 },
            gpu: { enum: [false, 'auto', 'cuda', 'vulkan', 'metal'] },
          },
        },
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
        max_output_bytes: positiveInteger,
        record: nullableString,
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
        max_crash_retries: { type: 'integer', minimum: 0 },
        max_depth: { type: 'integer', minimum: 0 },
        delegation_deadline_ms: positiveInteger,
        max_tokens_per_delegation: { type: ['integer', 'null'], minimum: 1 },
        on_failure: { enum: ['intervene', null] },
        on_budget: { enum: ['halt', null] },
        on_deadline: { enum: ['halt', null] },
        user_daily_usd: {
          type: ['object', 'null'],
          propertyNames: { pattern: '^[A-Za-z0-9._@-]{1,128}$' },
          additionalProperties: { type: 'number', minimum: 0 },
        },
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
        min_free_bytes: { type: 'integer', minimum: 0 },
        attachments: {
          type: 'object',
          additionalProperties: false,
          properties: {
            max_files: { type: 'integer', minimum: 0 },
            max_bytes: { type: 'integer', minimum: 0 },
            inline_bytes: { type: 'integer', minimum: 0 },
          },
        },
      },
    },
    message: {
      type: 'object',
      additionalProperties: false,
      // Capped so that every walk over a message (JSON text, schema checks) stays far from the stack's
      // end: JSON.stringify overflows it near depth 4,000.
      properties: {
        schema: nullableString,
        max_depth: { type: 'integer', minimum: 4, maximum: 1000 },
        format: { enum: ['sentient', 'sacp'] },
      },
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
    audit: {
      type: 'object',
      additionalProperties: false,
      properties: {
        signing_key: nullableString,
        checkpoint_ms: positiveInteger,
        witnesses: { type: 'array', items: { type: 'string', minLength: 1 } },
        retention: {
          type: 'object',
          additionalProperties: false,
          properties: {
            keep_days: { type: ['integer', 'null'], minimum: 1 },
            archive: { enum: ['gzip'] },
            delete_after_days: { type: ['integer', 'null'], minimum: 1 },
          },
        },
      },
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
              role: { enum: ['operator', 'auditor', 'admin'] },
            },
          },
        },
        max_body_bytes: positiveInteger,
        heartbeat_ms: { type: 'integer', minimum: 100, maximum: 15_000 },
        request_timeout_ms: positiveInteger,
        rate_limit: {
          type: ['object', 'null'],
          additionalProperties: false,
          properties: {
            per_user_per_minute: { type: ['integer', 'null'], minimum: 1 },
            auth_failures_per_minute: { type: ['integer', 'null'], minimum: 1 },
          },
        },
        max_queued: { type: ['integer', 'null'], minimum: 1 },
        cors: {
          type: 'object',
          additionalProperties: false,
          properties: {
            // An origin is scheme://host[:port]: no path, no trailing slash (what browsers send in Origin).
            origins: { type: 'array', uniqueItems: true, items: { type: 'string', pattern: '^https?://[^/\\s]+$' } },
          },
        },
        auth: {
          type: 'object',
          additionalProperties: false,
          properties: {
            jwt: {
              type: ['object', 'null'],
              additionalProperties: false,
              required: ['issuer', 'audience'],
              properties: {
                issuer: { type: 'string', minLength: 1 },
                audience: {
                  anyOf: [
                    { type: 'string', minLength: 1 },
                    { type: 'array', minItems: 1, items: { type: 'string', minLength: 1 } },
                  ],
                },
                jwks_url: { type: 'string', pattern: '^https?://[^\\s]+$' },
                public_key_file: { type: 'string', minLength: 1 },
                user_claim: { type: 'string', minLength: 1 },
                role_claim: { type: 'string', minLength: 1 },
                algorithms: { type: 'array', minItems: 1, uniqueItems: true, items: { enum: JWT_ALGORITHMS } },
              },
            },
          },
        },
      },
    },
    chat: {
      type: 'object',
      additionalProperties: false,
      properties: {
        contexts: {
          type: 'object',
          propertyNames: { pattern: '^[a-z][a-z0-9_-]{0,63}$' },
          additionalProperties: {
            type: 'object',
            additionalProperties: false,
            properties: {
              agent: { type: ['string', 'null'], minLength: 1 },
              context_file: { type: ['string', 'null'], minLength: 1 },
            },
          },
        },
        max_context_bytes: positiveInteger,
        history_turns: { type: 'integer', minimum: 0, maximum: 1000 },
        progress: { type: 'boolean' },
      },
    },
    notify: {
      type: 'object',
      additionalProperties: false,
      properties: {
        webhooks: {
          type: 'array',
          items: {
            type: 'object',
            additionalProperties: false,
            required: ['url', 'secret_env'],
            properties: {
              url: { type: 'string', pattern: '^https?://[^\\s]+$' },
              events: { type: 'array', minItems: 1, uniqueItems: true, items: { enum: WEBHOOK_EVENT_TYPES } },
              secret_env: { type: 'string', pattern: '^[A-Za-z_][A-Za-z0-9_]*$' },
            },
          },
        },
        allow_private_targets: { type: 'boolean' },
      },
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
        commands: {
          type: 'object',
          additionalProperties: false,
          properties: {
            allow: { type: 'array', uniqueItems: true, items: { type: 'string', minLength: 1 } },
            auto_approve: { type: 'array', uniqueItems: true, items: { type: 'string', minLength: 1 } },
            timeout_ms: positiveInteger,
            max_output_bytes: positiveInteger,
            network: { type: 'boolean' },
            sandbox: { enum: ['bwrap', 'none'] },
          },
        },
      },
    },
    store: {
      type: 'object',
      additionalProperties: false,
      properties: {
        kind: { enum: ['files', 'postgres'] },
        url: { type: ['string', 'null'], minLength: 1 },
        schema: { type: 'string', pattern: '^[a-z_][a-z0-9_]{0,62}$' },
      },
    },
    cluster: {
      type: 'object',
      additionalProperties: false,
      properties: {
        lease_ms: { type: 'integer', minimum: 1000 },
        pool_size: { type: 'integer', minimum: 2, maximum: 100 },
        connect_timeout_ms: { type: 'integer', minimum: 100, maximum: 25_000 },
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
    prices: priceTableSchema(''),
    /** Prices as `{ model: { input_per_mtok, output_per_mtok } }`, USD per million tokens; wins over `prices` per model. */
    pricing: priceTableSchema('_per_mtok'),
    /** Let prompt includes, agent files, schemas and model files lie outside the root (README "Files outside the root, and prices"). */
    allow_outside_root: { type: 'boolean' },
    pii: {
      type: 'object',
      additionalProperties: false,
      properties: {
        redact: { type: 'array', uniqueItems: true, items: { enum: PII_KINDS } },
        custom: {
          type: 'array',
          items: {
            type: 'object',
            additionalProperties: false,
            required: ['name', 'pattern'],
            properties: {
              name: { type: 'string', pattern: '^[a-z][a-z0-9_]*$' },
              pattern: { type: 'string', minLength: 1 },
            },
          },
        },
        restore_in_result: { type: 'boolean' },
      },
    },
    privacy: {
      type: 'object',
      additionalProperties: false,
      properties: { vault_key_file: nullableString },
    },
    /** Guardrail rules; checked with file and line by the governance loader (src/privacy/guardrail-rules.ts). */
    guardrails: { type: 'array', items: { type: 'object' } },
    agents: {
      type: 'object',
      // Two settings; every other key is an agent's name.
      properties: {
        claude_code_dir: nullableString,
        claude_code: {
          type: 'object',
          additionalProperties: false,
          properties: { unknown_tools: { enum: ['warn', 'error'] } },
        },
      },
      additionalProperties: {
        ...AGENT_DECLARATION_SCHEMA,
        required: ['type', 'description'],
      },
    },
  },
} as const;

export type ProviderKind = (typeof CONFIG_SCHEMA.properties.provider.properties.kind.enum)[number];
