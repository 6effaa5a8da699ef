/**
 * What other modules name from the config schema (src/config/config-schema.ts): the settings of an
 * MCP server and of JWT bearer tokens as written, the webhook events and the PII kinds.
 */
const positiveInteger = { type: 'integer', minimum: 1 };

/** An MCP server from config `mcp.servers` (README "Give an agent tools"): stdio (`command`) or Streamable HTTP (`url`). */
export interface McpServerConfig {
  command?: string;
  args?: string[];
  env?: Record<string, string>;
  cwd?: string;
  url?: string;
  /** Header name → name of the environment variable holding its value. */
  headers_env?: Record<string, string>;
  /** Sends the HTTP caller's own `Authorization` header on the tool calls of sessions it started (docs/tools.md); memory only. */
  forward_authorization?: boolean;
  timeout_ms?: number;
}

export const MCP_SERVER_SCHEMA = {
  type: 'object',
  additionalProperties: false,
  properties: {
    command: { type: 'string', minLength: 1 },
    args: { type: 'array', items: { type: 'string' } },
    env: { type: 'object', additionalProperties: { type: 'string' } },
    cwd: { type: 'string', minLength: 1 },
    url: { type: 'string', pattern: '^https?://' },
    headers_env: { type: 'object', additionalProperties: { type: 'string', pattern: '^[A-Za-z_][A-Za-z0-9_]*$' } },
    forward_authorization: { type: 'boolean' },
    timeout_ms: positiveInteger,
  },
} as const;

/** `http.auth.jwt` as written (docs/http-api.md "JWT bearer tokens"); `public_key_file` is made absolute by the loader. */
export interface JwtSettings {
  issuer: string;
  audience: string | string[];
  jwks_url?: string;
  public_key_file?: string;
  user_claim?: string;
  role_claim?: string;
  algorithms?: Array<(typeof JWT_ALGORITHMS)[number]>;
}

/** The asymmetric signature algorithms `http.auth.jwt.algorithms` may list (jose's names). */
export const JWT_ALGORITHMS = [
  'RS256',
  'RS384',
  'RS512',
  'PS256',
  'PS384',
  'PS512',
  'ES256',
  'ES384',
  'ES512',
  'EdDSA',
  'Ed25519',
] as const;

/** The events a webhook may subscribe to (docs/webhooks.md). */
export const WEBHOOK_EVENT_TYPES = [
  'session_finished',
  'session_paused',
  'approval_requested',
  'session_cancelled',
  'intervention_required',
] as const;

export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

/** The built-in PII kinds `pii.redact` may name (src/privacy/pii-detectors.ts has a detector for each). */
export const PII_KINDS = ['email', 'phone', 'credit_card', 'iban', 'national_id', 'ip_address', 'secret'] as const;
