/**
 * Every default of govflow.config.yaml and of agent keys, each written once next to its meaning
 * (STYLE: "every default written once, next to its documentation"). The schema is config-schema.ts.
 * CONFIG_DEFAULTS is not `as const`: its inferred type is the shape of the loaded config
 * (GovflowConfig), so a key that may hold other values than its default says so with `as`.
 */
import { DEFAULT_MAX_DEPTH } from '../message/json-depth.js';
import type { JwtSettings, McpServerConfig, WebhookEventType } from './config-vocabulary.js';
import type { ProviderKind } from './config-schema.js';

/** Options of provider kind local (README "Local models"), used where `provider.local` leaves them out. */
export const LOCAL_PROVIDER_DEFAULTS = {
  /** CPU threads; null: the machine's physical cores (more threads than cores is very slow). */
  threads: null,
  /** Tokens of context (prompt + answer) per call. */
  context_size: 4096,
  /** false: CPU only; 'auto' (or cuda, vulkan, metal) lets node-llama-cpp use a GPU. */
  gpu: false,
} as const;

/** Defaults, in plain milliseconds and bytes. */
export const CONFIG_DEFAULTS = {
  provider: {
    /** dry-run (no LLM), scripted, replay, openai, openai-compatible, anthropic, google, ollama or local (GOVFLOW_PROVIDER). */
    kind: 'dry-run' as ProviderKind,
    /** The model every agent uses unless its own `model:` says otherwise (GOVFLOW_MODEL). */
    model: 'gpt-4.1-mini',
    /** Another address for the provider's API: proxies, gateways, local servers (GOVFLOW_BASE_URL). */
    base_url: null as string | null,
    /** The environment variable holding the API key (GOVFLOW_API_KEY wins); keys are never read from this file. */
    api_key_env: null as string | null,
    /** kind scripted: the YAML or JSON file of responses, for tests (GOVFLOW_SCRIPT). */
    script: null as string | null,
    /** Stream answers from real providers (live content_chunk events); false asks for whole answers. */
    stream: true,
    /** kind replay (README "Record, replay and governance tests"): `{ dir: <cassette file or folder>, on_miss: fail }`; a miss always fails. */
    replay: null as { dir: string; on_miss?: 'fail' } | null,
    /** kind local (README "Local models"): `{ threads, context_size, gpu }`; model: is the .gguf file. */
    local: null as {
      threads?: number | null;
      context_size?: number;
      gpu?: false | 'auto' | 'cuda' | 'vulkan' | 'metal';
    } | null,
  },
  llm: {
    /** Attempts per LLM call on network errors, 408/409/429/5xx (README "CLI: killed runs, exit codes, retries"). */
    max_attempts: 3,
    /** Per-call timeout. */
    timeout_ms: 120_000,
    backoff_base_ms: 500,
    backoff_max_ms: 30_000,
    /**
     * Largest model answer, in UTF-8 bytes (streamed text, or a whole body's text). A call is
     * aborted as soon as its answer passes this; the attempt counts as invalid output.
     */
    max_output_bytes: 1_048_576,
    /** Folder to record every model call to, as cassettes (README "Record, replay and governance tests"); null records nothing. */
    record: null as string | null,
  },
  limits: {
    /** Messages per session before it fails. */
    max_steps: 20,
    /** Plan tasks running at once; also the `delegate` calls of one model turn, and the child sessions of one delegation tree. */
    max_fan_out: 3,
    /** Repair round-trips per step when output does not parse or validate. */
    max_retries: 2,
    /** Whole-session deadline. */
    session_timeout_ms: 1_800_000,
    max_tokens_per_session: null as number | null,
    max_cost_usd_per_session: null as number | null,
    /**
     * Times a session whose step failed with an unexpected internal error is run again (across
     * restarts) before it ends failed with PROCESSING_ERROR: no request can crash forever.
     */
    max_crash_retries: 2,
    /** Delegation (docs/tools.md): a session at depth d may delegate while d < max_depth (user → entry agent = depth 0). */
    max_depth: 2,
    /** Delegation: a child session still running after this is stopped and fails. */
    delegation_deadline_ms: 300_000,
    /** Delegation: tokens one child session may use; null = no budget beyond the session's own. */
    max_tokens_per_delegation: null as number | null,
    /**
     * `intervene`: a failed message of any agent without an `on_failure` of its own pauses its
     * session in `intervention_required` for a steward (docs/run-control.md). Null: it ends failed.
     */
    on_failure: null as 'intervene' | null,
    /**
     * `halt`: a session whose next model call could cross its cost or token budget (its own, its
     * request's, its user's day) pauses `halted_cost` before the call, for a steward's `continue`
     * with new limits (docs/run-control.md). Null: it fails with BUDGET_EXCEEDED.
     */
    on_budget: null as 'halt' | null,
    /** `halt`: a session past its deadline pauses `halted_time` before its next step. Null: it fails with TIMEOUT. */
    on_deadline: null as 'halt' | null,
    /**
     * USD a user may spend on model calls per day in `timezone` (docs/webhooks.md "Budgets"):
     * `{ default: 5, alice: 50 }`; a user not named gets `default` (none: no limit). Past it the
     * user's sessions end failed with BUDGET_EXCEEDED before their next model call. Null: no limit.
     */
    user_daily_usd: null as Record<string, number> | null,
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
    /**
     * Free-space floor of the root's filesystem (64 MiB): below it no new request is claimed
     * (they wait in the inbox) until space is freed; 0 turns the alarm off (issue 20).
     */
    min_free_bytes: 67_108_864,
    /**
     * Requests with files (docs/attachments.md), per request: a request folder in the inbox or a
     * multipart POST holds at most `max_files` attachments of `max_bytes` in all (413 over HTTP);
     * the entry agent gets the text attachments inline up to `inline_bytes` in all (after PII redaction).
     */
    attachments: { max_files: 20, max_bytes: 20_971_520, inline_bytes: 65_536 },
  },
  message: {
    schema: null as string | null,
    /** Deepest JSON nesting accepted in a model's answer (the message object itself is depth 1). */
    max_depth: DEFAULT_MAX_DEPTH,
    /** What agents answer (SPEC §24): `sentient` messages, or seed 000's `sacp` answers the orchestrator maps to them. */
    format: 'sentient' as 'sentient' | 'sacp',
  },
  /** Files that reach prompts must lie inside the root after symlinks are resolved (README "Files outside the root, and prices"). */
  allow_outside_root: false,
  prompt: { include: ['context/**/*.md', 'governance/*.md'] },
  /** PII redaction (README "Privacy and guardrails"): no kinds listed = no redaction, as before Part II. */
  pii: {
    /** Built-in kinds to redact: email, phone, credit_card, iban, national_id, ip_address, secret. */
    redact: [] as string[],
    /** Extra detectors: `{name, pattern}`; the name becomes the placeholder ([EMPLOYEE_ID_1]). */
    custom: [] as Array<{ name: string; pattern: string }>,
    /** Put the originals back into the outbox result (and nowhere else). */
    restore_in_result: false,
  },
  privacy: {
    /**
     * Cluster mode: a file (relative to the root) holding the 32-byte key that encrypts the PII vaults in the store, as
     * 64 hex or 44 base64 characters; `GOVFLOW_VAULT_KEY` wins. Required there with `pii.redact` (docs/privacy.md).
     */
    vault_key_file: null as string | null,
  },
  daemon: {
    /** Time running steps get to finish after SIGINT/SIGTERM. */
    shutdown_grace_ms: 10_000,
    /** Fsync journal and audit writes. Only benchmarks turn this off. */
    fsync: true,
  },
  audit: {
    /**
     * Ed25519 private key (PKCS#8 PEM, from `govflow keygen`), outside the root (docs/audit-log.md): with
     * it the daemon signs a checkpoint of the chain's head after committed entries. Null: no
     * checkpoints.
     */
    signing_key: null as string | null,
    /** At most one checkpoint per this many milliseconds (one more at each day's end and at stop). */
    checkpoint_ms: 1000,
    /** Folders (another disk, a share) and http(s) URLs that receive every checkpoint. */
    witnesses: [] as string[],
    /**
     * Day files older than `keep_days` move to system/logs/archive/YYYYMMDD.log.gz, the journals and
     * results of the sessions that finished on them and the request files of system/archive/YYYYMMDD/
     * to system/logs/archive/YYYYMMDD/ (docs/audit-log.md). Archived days older than `delete_after_days` (above keep_days; in cluster
     * mode deleted from the store, docs/cluster.md) are deleted, never while system/state/legal-hold exists. Null: kept as is.
     */
    retention: { keep_days: null as number | null, archive: 'gzip' as const, delete_after_days: null as number | null },
  },
  telemetry: {
    /**
     * OTLP/HTTP collector (e.g. http://127.0.0.1:4318, or a full …/v1/traces URL). Null: tracing
     * is off unless OTEL_EXPORTER_OTLP_TRACES_ENDPOINT or OTEL_EXPORTER_OTLP_ENDPOINT is set.
     */
    otlp_endpoint: null as string | null,
    /** Put prompts and answers (after PII redaction) on spans. Off: spans carry no message text. */
    capture_content: false,
    /** The `service.name` resource attribute of every span. */
    service_name: 'govflow',
  },
  http: {
    /** `HOST:PORT` to serve the HTTP API on (docs/http-api.md); null: no listener (`govflow start --http` also sets it). */
    listen: null as string | null,
    /**
     * Bearer tokens, stored as their SHA-256 (`govflow token add`), each with a role: `operator` (its own work),
     * `auditor` (reads everything, submits nothing) or `admin` (reads everything, acts on every session:
     * docs/run-control.md); empty: loopback only, every caller is `local`. A running daemon applies an edit at once.
     */
    tokens: [] as Array<{ user: string; sha256: string; role: 'operator' | 'auditor' | 'admin' }>,
    /** Largest request body accepted (413 above it). */
    max_body_bytes: 1_048_576,
    /** Milliseconds between SSE comment heartbeats (docs/http-api.md). */
    heartbeat_ms: 10_000,
    /** A client must send its whole request (headers and body) within this time (slowloris guard). */
    request_timeout_ms: 30_000,
    /**
     * `{ per_user_per_minute, auth_failures_per_minute }` (docs/webhooks.md "Rate limits"): past
     * either, 429 with Retry-After until the minute's window frees; keyed by token user, failed
     * tokens by client address. Null (or a null value): no limit. A running daemon applies an edit at once.
     */
    rate_limit: null as { per_user_per_minute?: number | null; auth_failures_per_minute?: number | null } | null,
    /**
     * Accepted requests waiting to start (docs/webhooks.md "A bounded queue"): at this many,
     * POST /v1/requests answers 503 with Retry-After and inbox files wait in the inbox. Null: no bound.
     */
    max_queued: null as number | null,
    /**
     * `{ origins: ["https://app.example", …] }` (docs/http-api.md "CORS"): browser apps on these origins may
     * call the API (preflights answered, `x-conversation-id` and `x-request-id` exposed); another origin
     * gets no CORS header. Empty: no CORS at all.
     */
    cors: { origins: [] as string[] },
    /**
     * `jwt: { issuer, audience, jwks_url | public_key_file, user_claim, role_claim?, algorithms? }`
     * (docs/http-api.md "JWT bearer tokens"): a bearer that is a JWT is verified (signature,
     * exp/nbf with 30 s of leeway, iss, aud); `user_claim` (default `sub`) is the user, `role_claim`
     * the role (default operator). Keys from `jwks_url` are cached and fetched again for an unknown
     * key id at most once a minute; `public_key_file` (root-relative) is a PEM public key, a JWK or a
     * JWKS. Opaque `tokens` keep working beside it. Null: no JWTs.
     */
    auth: {
      jwt: null as JwtSettings | null,
    },
  },
  /** `POST /v1/agent/chat` as seed 003's clients use it (docs/http-api.md "Chat"). */
  chat: {
    /**
     * Chat profiles by the client's `context_type`: `{ agent?, context_file? }`, the entry agent of
     * that type's turns (default: the usual one) and a root-relative file inside `context/` added to
     * its prompt. A `default` profile serves a message without a type. Empty: every type is accepted;
     * set: an unknown type is a 400 naming the known ones.
     */
    contexts: {} as Record<string, { agent?: string | null; context_file?: string | null }>,
    /** Largest `context` (its JSON text, in bytes) a chat message may carry: 413 above it. */
    max_context_bytes: 65_536,
    /** Earlier turns (message and answer, oldest first) a follow-up's entry agent sees in its prompt. */
    history_turns: 10,
    /** Stream each committed message of the agents before the final one as one chunk (its status.message and a blank line). */
    progress: false,
  },
  /** Where govflow tells the world (docs/webhooks.md). */
  notify: {
    /**
     * Standard Webhooks endpoints: `{ url, events, secret_env }`; events of session_finished,
     * session_paused, approval_requested, session_cancelled (default: all); `secret_env` names the
     * environment variable holding the `whsec_…` signing secret.
     */
    webhooks: [] as Array<{ url: string; events?: WebhookEventType[]; secret_env: string }>,
    /**
     * Let webhooks reach loopback, link-local (169.254.169.254), private, unspecified addresses
     * and this machine's own: off, such a URL is a `govflow validate` error and is never sent to.
     */
    allow_private_targets: false,
  },
  /** Built-in tools (README "Give an agent tools"). Folders are relative to the root. */
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
    /** run_command (docs/claude-code.md): commands run without a shell in the session's workspace. */
    commands: {
      /**
       * Commands run_command may run, in Claude Code's permission syntax: "Bash(npm test)" exactly
       * that command, "Bash(npm run lint:*)" that command with any arguments. Empty: run_command is off.
       */
      allow: [] as string[],
      /** Entries of `allow` whose calls run without a person's approval; every other call waits for one. */
      auto_approve: [] as string[],
      /** A command still running after this is killed, with every process it started. */
      timeout_ms: 60_000,
      /** Output (stdout and stderr) past this stops the command, killed like at the timeout. */
      max_output_bytes: 65_536,
      /** Commands may reach the network (off: their sandbox has none). */
      network: false,
      /**
       * `bwrap`: commands run in bubblewrap (docs/tools.md); where none can be made run_command is a
       * validate error. `none`: they run without one, and every call records `"sandbox": "none"`.
       */
      sandbox: 'bwrap' as 'bwrap' | 'none',
    },
  },
  /**
   * Where sessions, journals, audit chain and results live (docs/cluster.md). `files` (the default) is
   * sections 1–14 on one machine; `postgres` is cluster mode (docs/cluster.md). `url` may name an
   * environment variable as `${NAME}` (GOVFLOW_STORE_URL wins over the file).
   */
  store: {
    kind: 'files' as 'files' | 'postgres',
    url: null as string | null,
    /** The Postgres schema govflow's tables live in (created by the migrations). */
    schema: 'govflow',
  },
  /** Cluster mode (docs/cluster.md); read only with `store.kind: postgres`. */
  cluster: {
    /**
     * A session's lease: a daemon that stops renewing it loses the session to another after this.
     * Leases and the daemon's heartbeat are renewed every third of it; `govflow status` calls a
     * daemon whose heartbeat is older than three renewals (a whole lease) stale.
     */
    lease_ms: 30_000,
    /** Connections each daemon keeps to Postgres. */
    pool_size: 8,
    /** How long a daemon waits for Postgres at start before it exits 2 (docs/cluster.md). */
    connect_timeout_ms: 10_000,
  },
  /**
   * Agents declared in config (name → the frontmatter keys plus `file:`; docs/agents.md), beside two
   * settings for agent files written for Claude Code (docs/claude-code.md).
   */
  agents: {
    /** A folder of Claude Code agent files (e.g. .claude/agents) loaded in place, beside governance/agents/. */
    claude_code_dir: null as string | null,
    /** How Claude Code agent files load (in governance/agents/ and in claude_code_dir). */
    claude_code: {
      /** A Claude Code tool with no govflow counterpart: `warn` (left out, named by validate) or `error`. */
      unknown_tools: 'warn' as 'warn' | 'error',
    },
  },
  /** MCP servers whose tools agents may be offered as `mcp:<server>/<tool>` (README "Give an agent tools"). */
  mcp: {
    /**
     * Servers by name: `{ command, args?, env?, cwd? }` (stdio) or `{ url, headers_env?,
     * forward_authorization? }` (Streamable HTTP), each with `timeout_ms?` (docs/tools.md).
     * `forward_authorization: true` sends the HTTP caller's `Authorization` header, verbatim and held
     * in memory only, on the tool calls of the sessions its request started.
     */
    servers: {} as Record<string, McpServerConfig>,
    /** One tool call (and a stdio server's start or an HTTP server's handshake). */
    timeout_ms: 30_000,
  },
};

/** Defaults of agent keys that have one. */
export const AGENT_DEFAULTS = {
  /** Model turns per message in the tool loop (README "Give an agent tools"). */
  max_turns: 20,
} as const;
