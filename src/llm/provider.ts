/**
 * The small provider interface the pipeline talks to. Adapters (dry-run, scripted, the AI SDK
 * providers) implement it; the pipeline never imports a concrete provider.
 */

/** Version of this interface; adapters state the one they implement. */
export const PROVIDER_INTERFACE_VERSION = 1 as const;

/** One call to a model: a stable system prompt (cacheable prefix) and the variable user prompt. */
export interface LlmRequest {
  /** Agent making the call (for scripted replay, logs and errors). */
  agent: string;
  /** The session the call belongs to: layers of the provider pipeline (cancellation) act on it. */
  sessionId?: string;
  /** Stable part: governance files, agent instructions, protocol block. */
  system: string;
  /** Variable part: the input message, repair feedback. */
  prompt: string;
  /** Earlier turns of a repair conversation, oldest first. */
  history?: Array<{ role: 'user' | 'assistant'; content: string }>;
  model: string;
  temperature?: number;
  maxTokens?: number;
  /** JSON Schema of the expected message, for providers with native structured output. */
  jsonSchema?: Record<string, unknown>;
  /** A free-text agent's call (SPEC §24 `protocol: none`): prose wanted, no JSON mode (and no jsonSchema). */
  freeText?: boolean;
  /** Context for providers that fabricate answers (dry-run). */
  expectation?: {
    contentType: string;
    next: string[];
    agentType: string;
    plan: boolean;
    executionalAgents: string[];
    governanceFiles: string[];
    outputSchema: Record<string, unknown> | null;
  };
  /** Shutdown (final); inside `withRetries` also the attempt's timeout and the session deadline. */
  signal: AbortSignal;
  /** Per-attempt timeout for this call (the agent's `timeout_ms`); else `llm.timeout_ms`. */
  timeoutMs?: number;
  /** Milliseconds left before the session deadline: the call ends then and is not retried. */
  deadlineMs?: number;
  /** Called with each streamed text chunk, where the provider streams. */
  onChunk?: (chunk: string) => void;
  /** The only tools offered, in the provider's native tool list (README "Give an agent tools"). */
  tools?: LlmToolOffer[];
  /** The tool loop so far in this step, after `prompt`: each model turn's calls and their results. */
  toolTurns?: LlmToolTurn[];
  /** This agent's earlier model calls in the session's journal: where a scripted list resumes in another process. */
  journaledCalls?: number;
  /** PDFs and images sent as file parts of the first user message (`attachments: native`, docs/attachments.md). */
  files?: LlmFile[];
}

/** A file part: an attachment's bytes as delivered, with its media type. */
export interface LlmFile {
  /** The attachment's path (the file name the provider is told). */
  path: string;
  mediaType: string;
  data: Uint8Array;
}

/** One tool as the model is offered it. */
export interface LlmToolOffer {
  /** govflow's name (`read_file`, `mcp:docs/search`); adapters map it to what their API accepts. */
  name: string;
  description: string;
  /** JSON Schema of the input object. */
  inputSchema: Record<string, unknown>;
}

/** A tool call the model made. */
export interface LlmToolCall {
  id: string;
  /** govflow's name, mapped back from the wire name; a name never offered is kept as written. */
  name: string;
  /** The arguments object, or the raw text when it did not parse (then `inputError` says why). */
  input: unknown;
  inputError?: string;
}

/** One model turn of the tool loop and the results given back. */
export interface LlmToolTurn {
  /** Text the model wrote alongside its calls. */
  text: string;
  calls: LlmToolCall[];
  results: Array<{ id: string; name: string; output: string; isError: boolean }>;
}

export interface LlmUsage {
  inputTokens: number;
  outputTokens: number;
  cachedInputTokens: number;
}

export interface LlmResponse {
  text: string;
  usage: LlmUsage;
  /** The model that actually answered (may differ from the one asked for). */
  model: string;
  provider: string;
  finishReason?: string;
  /** Attempts the adapter made (1 without retries). */
  attempts?: number;
  /** Tool calls of this turn; when present and non-empty, `text` is not the agent's message yet. */
  toolCalls?: LlmToolCall[];
  /** The provider's own reasoning for this answer (SPEC §24): journaled and hashed, never passed on. */
  reasoning?: string;
}

export interface LlmProvider {
  readonly kind: string;
  readonly interfaceVersion: typeof PROVIDER_INTERFACE_VERSION;
  /** True for providers that make up their answers (dry-run); noted in audit entries. */
  readonly synthetic?: boolean;
  generate(request: LlmRequest): Promise<LlmResponse>;
}

/** A layer around `inner` (retries, limits, recording): its kind and synthetic flag, its own `generate`. */
export function wrapProvider<Extra extends object>(
  inner: LlmProvider,
  generate: LlmProvider['generate'],
  extra?: Extra,
): LlmProvider & Extra {
  return Object.freeze({
    kind: inner.kind,
    interfaceVersion: PROVIDER_INTERFACE_VERSION,
    ...(inner.synthetic ? { synthetic: true } : {}),
    generate,
    ...extra,
  } as LlmProvider & Extra);
}
