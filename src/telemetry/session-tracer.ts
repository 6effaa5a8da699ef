/**
 * Turns the live session events into spans named by the OpenTelemetry GenAI conventions (README "Traces (OpenTelemetry)"):
 *
 *   invoke_workflow govflow          one per session run (root; its trace id derives from the session id)
 *   └─ invoke_agent <agent>          one per message, carrying govflow.audit.entry_hash
 *      ├─ chat <model>               one per model call (repairs are further calls)
 *      └─ execute_tool <tool>        one per tool call
 *
 * A session that pauses and resumes (even in another process) keeps its trace: each run opens a
 * new root span under the same trace id. Listens only; a session never waits for tracing.
 */
import {
  ROOT_CONTEXT,
  SpanKind,
  SpanStatusCode,
  trace,
  type Attributes,
  type Span,
  type Tracer,
} from '@opentelemetry/api';
import { sha256Hex } from '../sha256-hex.js';
import type { SessionEventMap, SessionEvents } from '../pipeline/session-events.js';

export interface SessionTracerOptions {
  /** Put prompts, answers and tool data on spans (the caller passes text after PII redaction). */
  captureContent: boolean;
  /** Called right before a session's root span starts, so the id generator can pick its trace id. */
  beforeRootSpan?: (sessionId: string) => void;
}

/** GenAI provider names (gen_ai.provider.name) for govflow's provider kinds. */
const PROVIDER_NAMES: Record<string, string> = {
  openai: 'openai',
  anthropic: 'anthropic',
  google: 'gcp.gemini',
  ollama: 'ollama',
  'openai-compatible': 'openai',
};

interface OpenStep {
  agent: string;
  taskId: string | null;
  span: Span;
}

interface SessionSpans {
  root: Span;
  steps: OpenStep[];
  calls: Map<string, Span>;
  tools: Map<string, Span>;
}

const WORKFLOW_NAME = 'govflow';

/** The trace id of a session: the first 128 bits of SHA-256(session id), so every run of it shares one trace. */
export function sessionTraceId(sessionId: string): string {
  return sha256Hex(sessionId).slice(0, 32);
}

export class SessionTracer {
  private readonly sessions = new Map<string, SessionSpans>();
  private readonly unsubscribers: Array<() => void> = [];

  constructor(
    private readonly tracer: Tracer,
    events: SessionEvents,
    private readonly options: SessionTracerOptions,
  ) {
    const on = <K extends keyof SessionEventMap>(name: K, handler: (payload: SessionEventMap[K]) => void) => {
      this.unsubscribers.push(events.on(name, handler));
    };
    on('session_started', (event) => this.sessionStarted(event));
    on('step_started', (event) => this.stepStarted(event));
    on('model_call_started', (event) => this.modelCallStarted(event));
    on('model_call_finished', (event) => this.modelCallFinished(event));
    on('tool_call_start', (event) => this.toolCallStarted(event));
    on('tool_call_result', (event) => this.toolCallFinished(event));
    on('message', (event) => this.messageCommitted(event));
    on('pending', (event) =>
      this.sessionEnded(
        event.sessionId,
        { 'govflow.session.status': 'pending', 'govflow.pending.awaiting': event.awaiting },
        null,
      ),
    );
    on('session_finished', (event) =>
      this.sessionEnded(
        event.sessionId,
        { 'govflow.session.status': event.status },
        event.status === 'failed' ? 'session failed' : null,
      ),
    );
  }

  /** Stops listening and ends every span still open (daemon stop): nothing open is lost. */
  detach(): void {
    for (const unsubscribe of this.unsubscribers.splice(0)) unsubscribe();
    for (const sessionId of [...this.sessions.keys()])
      this.sessionEnded(sessionId, { 'govflow.session.status': 'interrupted' }, null);
  }

  /** Sessions with spans open right now (tests, diagnostics). */
  get openSessions(): number {
    return this.sessions.size;
  }

  private sessionStarted(event: SessionEventMap['session_started']): void {
    const spans = this.session(event.sessionId);
    spans.root.setAttributes({
      'govflow.request.id': event.requestId,
      'govflow.entry_agent': event.entryAgent,
      ...(event.user ? { 'govflow.user': event.user } : {}),
    });
  }

  /** The session's open spans; a run that did not start here (a resume, a reply) opens its root now. */
  private session(sessionId: string): SessionSpans {
    let spans = this.sessions.get(sessionId);
    if (!spans) {
      this.options.beforeRootSpan?.(sessionId);
      const root = this.startSpan('invoke_workflow', WORKFLOW_NAME, null, {
        'gen_ai.workflow.name': WORKFLOW_NAME,
        'gen_ai.conversation.id': sessionId,
        'govflow.session.id': sessionId,
      });
      spans = { root, steps: [], calls: new Map(), tools: new Map() };
      this.sessions.set(sessionId, spans);
    }
    return spans;
  }

  private startStep(
    spans: SessionSpans,
    sessionId: string,
    agent: string,
    taskId: string | null,
    sequence: number | null,
  ): OpenStep {
    const span = this.startSpan('invoke_agent', agent, spans.root, {
      'gen_ai.agent.name': agent,
      'gen_ai.conversation.id': sessionId,
      ...(taskId ? { 'govflow.task.id': taskId } : {}),
      ...(sequence !== null ? { 'govflow.message.sequence': sequence } : {}),
    });
    const step = { agent, taskId, span };
    spans.steps.push(step);
    return step;
  }

  /** `<operation> <name>` under `parent` (a root span when null). */
  private startSpan(
    operation: string,
    name: string,
    parent: Span | null,
    attributes: Attributes,
    kind = SpanKind.INTERNAL,
  ): Span {
    const context = parent ? trace.setSpan(ROOT_CONTEXT, parent) : ROOT_CONTEXT;
    return this.tracer.startSpan(
      `${operation} ${name}`,
      { kind, attributes: { 'gen_ai.operation.name': operation, ...attributes } },
      context,
    );
  }

  /** The open step of this agent (and task, when known), the oldest when several match; one opened now when none is. */
  private stepFor(sessionId: string, agent: string, taskId: string | null | undefined): OpenStep {
    const spans = this.session(sessionId);
    return (
      spans.steps.find((step) => step.agent === agent && (taskId === undefined || step.taskId === taskId)) ??
      spans.steps.find((step) => step.agent === agent) ??
      this.startStep(spans, sessionId, agent, taskId ?? null, null)
    );
  }

  private stepStarted(event: SessionEventMap['step_started']): void {
    this.startStep(this.session(event.sessionId), event.sessionId, event.agent, event.taskId, event.sequence);
  }

  private modelCallStarted(event: SessionEventMap['model_call_started']): void {
    const step = this.stepFor(event.sessionId, event.agent, event.taskId);
    const attributes: Attributes = {
      'gen_ai.provider.name': PROVIDER_NAMES[event.provider] ?? event.provider,
      'gen_ai.request.model': event.model,
      'gen_ai.agent.name': event.agent,
      'gen_ai.conversation.id': event.sessionId,
      'govflow.provider.kind': event.provider,
      'govflow.attempt': event.attempt,
    };
    if (this.options.captureContent) {
      if (event.system !== undefined)
        attributes['gen_ai.system_instructions'] = JSON.stringify([{ type: 'text', content: event.system }]);
      if (event.prompt !== undefined) {
        const messages = [...(event.history ?? []), { role: 'user', content: event.prompt }];
        attributes['gen_ai.input.messages'] = JSON.stringify(
          messages.map((message) => ({ role: message.role, parts: [{ type: 'text', content: message.content }] })),
        );
      }
    }
    this.session(event.sessionId).calls.set(
      callKey(event),
      this.startSpan('chat', event.model, step.span, attributes, SpanKind.CLIENT),
    );
  }

  private modelCallFinished(event: SessionEventMap['model_call_finished']): void {
    const span = take(this.session(event.sessionId).calls, callKey(event));
    if (!span) return;
    span.setAttributes({
      'gen_ai.response.model': event.model,
      'gen_ai.usage.input_tokens': event.inputTokens,
      'gen_ai.usage.output_tokens': event.outputTokens,
    });
    if (this.options.captureContent && typeof event.response === 'string') {
      span.setAttribute(
        'gen_ai.output.messages',
        JSON.stringify([{ role: 'assistant', parts: [{ type: 'text', content: event.response }] }]),
      );
    }
    if (event.error !== null) {
      span.setAttribute('error.type', 'provider_error');
      span.setStatus({ code: SpanStatusCode.ERROR, message: event.error });
    }
    span.end();
  }

  private toolCallStarted(event: SessionEventMap['tool_call_start']): void {
    const step = this.stepFor(event.sessionId, event.agent, event.taskId);
    const attributes: Attributes = {
      'gen_ai.tool.name': event.name,
      'gen_ai.tool.call.id': event.id,
      'gen_ai.agent.name': event.agent,
      'gen_ai.conversation.id': event.sessionId,
    };
    if (this.options.captureContent && event.input !== undefined)
      attributes['gen_ai.tool.call.arguments'] = safeJson(event.input);
    this.session(event.sessionId).tools.set(
      toolKey(event),
      this.startSpan('execute_tool', event.name, step.span, attributes),
    );
  }

  private toolCallFinished(event: SessionEventMap['tool_call_result']): void {
    const span = take(this.session(event.sessionId).tools, toolKey(event));
    if (!span) return;
    if (this.options.captureContent && event.output !== undefined)
      span.setAttribute('gen_ai.tool.call.result', event.output);
    if (event.isError) {
      span.setAttribute('error.type', 'tool_error');
      span.setStatus({ code: SpanStatusCode.ERROR, message: `tool ${event.name} returned an error` });
    }
    span.end();
  }

  private messageCommitted(event: SessionEventMap['message']): void {
    const spans = this.session(event.sessionId);
    const step = this.stepFor(event.sessionId, event.agent, event.taskId);
    spans.steps.splice(spans.steps.indexOf(step), 1);
    step.span.setAttributes({
      'govflow.message.id': event.messageId,
      'govflow.message.sequence': event.sequence,
      'govflow.message.status': event.status,
      ...(event.outputType ? { 'govflow.message.output_type': event.outputType } : {}),
      ...(event.entryHash ? { 'govflow.audit.entry_hash': event.entryHash } : {}),
    });
    if (event.status === 'failed')
      step.span.setStatus({ code: SpanStatusCode.ERROR, message: `agent ${event.agent} failed` });
    this.endOpenChildren(spans, event.agent);
    step.span.end();
  }

  /** Ends calls and tools of `agent` (all when null) left open, e.g. by an interrupted step. */
  private endOpenChildren(spans: SessionSpans, agent: string | null): void {
    for (const map of [spans.calls, spans.tools]) {
      for (const [key, span] of map) {
        if (agent !== null && !key.startsWith(`${agent}\u0000`)) continue;
        map.delete(key);
        span.end();
      }
    }
  }

  private sessionEnded(sessionId: string, attributes: Attributes, failure: string | null): void {
    const spans = this.sessions.get(sessionId);
    if (!spans) return;
    this.sessions.delete(sessionId);
    this.endOpenChildren(spans, null);
    for (const step of spans.steps) step.span.end();
    spans.root.setAttributes(attributes);
    if (failure) spans.root.setStatus({ code: SpanStatusCode.ERROR, message: failure });
    spans.root.end();
  }
}

/** The span under `key`, no longer in `spans`. */
function take(spans: Map<string, Span>, key: string): Span | undefined {
  const span = spans.get(key);
  spans.delete(key);
  return span;
}

function callKey(event: { agent: string; taskId?: string | null; attempt: number }): string {
  return `${event.agent}\u0000${event.taskId ?? ''}\u0000${event.attempt}`;
}

function toolKey(event: { agent: string; id: string }): string {
  return `${event.agent}\u0000${event.id}`;
}

function safeJson(value: unknown): string {
  try {
    return typeof value === 'string' ? value : (JSON.stringify(value) ?? 'null');
  } catch {
    return String(value);
  }
}
