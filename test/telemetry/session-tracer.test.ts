import { afterEach, describe, expect, it } from 'vitest';
import { InMemorySpanExporter, type ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { SessionEvents } from '../../src/pipeline/session-events.js';
import { sessionTraceId } from '../../src/telemetry/session-tracer.js';
import { startTracePipeline, type TracePipeline } from '../../src/telemetry/trace-pipeline.js';
import type { TelemetrySettings } from '../../src/telemetry/telemetry-settings.js';
import {
  TWO_TASKS,
  auditEntries,
  exampleRoot,
  happyResponses,
  removeTempDirs,
  scripted,
  withRuntime,
} from '../pipeline/pipeline-test-helpers.js';

afterEach(removeTempDirs);

function settings(captureContent: boolean): TelemetrySettings {
  return {
    tracesUrl: 'http://127.0.0.1:9/v1/traces',
    source: 'telemetry.otlp_endpoint',
    captureContent,
    serviceName: 'govflow-test',
    headers: {},
  };
}

function parentOf(span: ReadableSpan): string | undefined {
  return span.parentSpanContext?.spanId;
}

function named(spans: ReadableSpan[], prefix: string): ReadableSpan[] {
  return spans.filter((span) => span.name.startsWith(prefix));
}

describe('session tracing (in-memory exporter)', () => {
  it('traces a real session: one trace, invoke_agent per message with its audit entry hash, chat per model call, parallel tasks kept apart', async () => {
    const folder = exampleRoot();
    const exporter = new InMemorySpanExporter();
    let pipeline: TracePipeline | undefined;
    const outcome = await withRuntime(folder, scripted(happyResponses(TWO_TASKS)), async (runtime) => {
      pipeline = startTracePipeline(runtime.events, settings(false), { exporter, immediate: true });
      return runtime.runner.startSession(
        {
          requestId: 'req-trace-1',
          text: 'Summarize: Ana sends the budget.',
          sourceFile: 'request.txt',
          claimedPath: null,
        },
        new AbortController().signal,
      );
    });
    await pipeline!.flush();
    expect(outcome.status).toBe('success');
    // Read before shutdown: the in-memory exporter forgets its spans when it shuts down.
    const spans = exporter.getFinishedSpans();
    await pipeline!.shutdown();

    const [root, ...otherRoots] = named(spans, 'invoke_workflow');
    expect(otherRoots).toHaveLength(0);
    expect(root.name).toBe('invoke_workflow govflow');
    expect(parentOf(root)).toBeUndefined();
    expect(root.attributes['gen_ai.conversation.id']).toBe(outcome.sessionId);
    expect(root.attributes['govflow.request.id']).toBe('req-trace-1');
    expect(root.attributes['govflow.session.status']).toBe('success');
    expect(root.spanContext().traceId).toBe(sessionTraceId(outcome.sessionId));
    expect(new Set(spans.map((span) => span.spanContext().traceId))).toEqual(new Set([root.spanContext().traceId]));
    expect(spans[0].resource.attributes['service.name']).toBe('govflow-test');

    const agents = named(spans, 'invoke_agent ');
    const entries = (await auditEntries(folder)).filter((entry) => entry.sessionId === outcome.sessionId);
    expect(agents).toHaveLength(entries.length);
    for (const entry of entries) {
      const span = agents.find((candidate) => candidate.attributes['govflow.message.id'] === entry.messageId);
      expect(span, `an invoke_agent span for message ${entry.sequence}`).toBeDefined();
      expect(span!.name).toBe(`invoke_agent ${entry.agent}`);
      expect(span!.attributes['govflow.audit.entry_hash']).toBe(entry.hash);
      expect(span!.attributes['gen_ai.operation.name']).toBe('invoke_agent');
      expect(span!.attributes['gen_ai.agent.name']).toBe(entry.agent);
      expect(span!.attributes['govflow.message.sequence']).toBe(entry.sequence);
      expect(parentOf(span!)).toBe(root.spanContext().spanId);
    }

    const chats = named(spans, 'chat ');
    expect(chats).toHaveLength(entries.length);
    for (const chat of chats) {
      expect(chat.name).toBe(`chat ${String(chat.attributes['gen_ai.request.model'])}`);
      expect(chat.attributes['gen_ai.operation.name']).toBe('chat');
      expect(chat.attributes['gen_ai.provider.name']).toBe('scripted');
      expect(typeof chat.attributes['gen_ai.usage.input_tokens']).toBe('number');
      expect(typeof chat.attributes['gen_ai.usage.output_tokens']).toBe('number');
      const parent = agents.find((span) => span.spanContext().spanId === parentOf(chat));
      expect(parent, 'each chat span sits under an invoke_agent span').toBeDefined();
      expect(parent!.attributes['gen_ai.agent.name']).toBe(chat.attributes['gen_ai.agent.name']);
      expect(chat.attributes['gen_ai.input.messages']).toBeUndefined();
      expect(chat.attributes['gen_ai.output.messages']).toBeUndefined();
    }
  });
});

/** Drives a tracer through the bus the way the runner does, one step of `agent`. */
function step(
  events: SessionEvents,
  sessionId: string,
  agent: string,
  options: {
    taskId?: string;
    sequence: number;
    attempts?: number;
    tool?: { id: string; name: string; isError: boolean };
  },
): void {
  const taskId = options.taskId ?? null;
  events.emit('step_started', { sessionId, agent, sequence: options.sequence, taskId });
  for (let attempt = 0; attempt < (options.attempts ?? 1); attempt++) {
    events.emit('model_call_started', {
      sessionId,
      agent,
      model: 'gpt-4.1-mini',
      provider: 'openai',
      attempt,
      taskId,
      system: `system of ${agent}`,
      prompt: `Reach [EMAIL_1] about ${agent} attempt ${attempt}`,
      history: [],
    });
    events.emit('model_call_finished', {
      sessionId,
      agent,
      model: 'gpt-4.1-mini-2025',
      provider: 'openai',
      attempt,
      taskId,
      inputTokens: 100 + attempt,
      outputTokens: 20,
      ms: 5,
      error: attempt === 0 && (options.attempts ?? 1) > 1 ? 'HTTP 503' : null,
      response: `{"answer":"${agent}"}`,
    });
  }
  if (options.tool) {
    events.emit('tool_call_start', {
      sessionId,
      agent,
      id: options.tool.id,
      name: options.tool.name,
      input: { path: 'notes.txt' },
      taskId,
    });
    events.emit('tool_call_result', {
      sessionId,
      agent,
      id: options.tool.id,
      name: options.tool.name,
      isError: options.tool.isError,
      ms: 3,
      taskId,
      output: 'file text',
    });
  }
  events.emit('message', {
    sessionId,
    sequence: options.sequence,
    agent,
    status: 'success',
    outputType: 'summary',
    messageId: `m-${agent}-${options.sequence}`,
    entryHash: `hash-${options.sequence}`,
    taskId,
  });
}

describe('session tracing (events on the bus)', () => {
  it('records content only with capture_content, as the redacted text the model saw; tool calls become execute_tool spans', async () => {
    for (const captureContent of [true, false]) {
      const events = new SessionEvents();
      const exporter = new InMemorySpanExporter();
      const pipeline = startTracePipeline(events, settings(captureContent), { exporter, immediate: true });
      events.emit('session_started', {
        sessionId: 'sess-content',
        requestId: 'r1',
        user: 'alice',
        entryAgent: 'objective_agent',
      });
      step(events, 'sess-content', 'objective_agent', {
        sequence: 1,
        attempts: 2,
        tool: { id: 'call-1', name: 'read_file', isError: true },
      });
      events.emit('session_finished', { sessionId: 'sess-content', requestId: 'r1', status: 'failed' });
      await pipeline.flush();
      const spans = exporter.getFinishedSpans();
      const [agent] = named(spans, 'invoke_agent objective_agent');
      const chats = named(spans, 'chat gpt-4.1-mini');
      expect(chats.map((chat) => chat.attributes['govflow.attempt'])).toEqual([0, 1]);
      for (const chat of chats) expect(parentOf(chat)).toBe(agent.spanContext().spanId);
      expect(chats[0].status.code).toBe(2); // ERROR: the 503
      expect(chats[1].attributes['gen_ai.response.model']).toBe('gpt-4.1-mini-2025');
      expect(chats[1].attributes['gen_ai.provider.name']).toBe('openai');
      expect(chats[1].attributes['gen_ai.usage.input_tokens']).toBe(101);
      const [tool] = named(spans, 'execute_tool read_file');
      expect(parentOf(tool)).toBe(agent.spanContext().spanId);
      expect(tool.attributes['gen_ai.tool.call.id']).toBe('call-1');
      expect(tool.attributes['gen_ai.operation.name']).toBe('execute_tool');
      expect(tool.status.code).toBe(2);
      const [workflow] = named(spans, 'invoke_workflow');
      expect(workflow.status.code).toBe(2);
      expect(workflow.attributes['govflow.user']).toBe('alice');
      if (captureContent) {
        expect(JSON.parse(String(chats[1].attributes['gen_ai.input.messages']))).toEqual([
          { role: 'user', parts: [{ type: 'text', content: 'Reach [EMAIL_1] about objective_agent attempt 1' }] },
        ]);
        expect(String(chats[1].attributes['gen_ai.system_instructions'])).toContain('system of objective_agent');
        expect(String(chats[1].attributes['gen_ai.output.messages'])).toContain('{\\"answer\\":\\"objective_agent\\"}');
        expect(tool.attributes['gen_ai.tool.call.arguments']).toBe('{"path":"notes.txt"}');
        expect(tool.attributes['gen_ai.tool.call.result']).toBe('file text');
      } else {
        const keys = spans.flatMap((span) => Object.keys(span.attributes));
        for (const key of [
          'gen_ai.input.messages',
          'gen_ai.output.messages',
          'gen_ai.system_instructions',
          'gen_ai.tool.call.arguments',
          'gen_ai.tool.call.result',
        ]) {
          expect(keys).not.toContain(key);
        }
      }
      await pipeline.shutdown();
    }
  });

  it('keeps parallel tasks of one agent apart by task id, and a session resumed after a pause in its own trace', async () => {
    const events = new SessionEvents();
    const exporter = new InMemorySpanExporter();
    const pipeline = startTracePipeline(events, settings(false), { exporter, immediate: true });
    events.emit('session_started', {
      sessionId: 'sess-pause',
      requestId: 'r2',
      user: null,
      entryAgent: 'planning_agent',
    });
    // Two tasks of the same agent interleave: t2's call starts before t1's step ends.
    events.emit('step_started', { sessionId: 'sess-pause', agent: 'summarizer_agent', sequence: 2, taskId: 't1' });
    events.emit('step_started', { sessionId: 'sess-pause', agent: 'summarizer_agent', sequence: 2, taskId: 't2' });
    events.emit('model_call_started', {
      sessionId: 'sess-pause',
      agent: 'summarizer_agent',
      model: 'm',
      provider: 'google',
      attempt: 0,
      taskId: 't2',
    });
    events.emit('model_call_finished', {
      sessionId: 'sess-pause',
      agent: 'summarizer_agent',
      model: 'm',
      provider: 'google',
      attempt: 0,
      taskId: 't2',
      inputTokens: 1,
      outputTokens: 1,
      ms: 1,
      error: null,
    });
    events.emit('message', {
      sessionId: 'sess-pause',
      sequence: 2,
      agent: 'summarizer_agent',
      status: 'success',
      outputType: 'summary',
      messageId: 'm-t2',
      entryHash: 'h2',
      taskId: 't2',
    });
    events.emit('message', {
      sessionId: 'sess-pause',
      sequence: 3,
      agent: 'summarizer_agent',
      status: 'success',
      outputType: 'summary',
      messageId: 'm-t1',
      entryHash: 'h3',
      taskId: 't1',
    });
    events.emit('pending', {
      sessionId: 'sess-pause',
      question: 'Which budget?',
      awaiting: 'reply',
      pause: 'reply:m1',
    });
    expect(pipeline.tracer.openSessions).toBe(0);
    // The reply resumes the session (no session_started): a second run in the same trace.
    step(events, 'sess-pause', 'final_output_agent', { sequence: 4 });
    events.emit('session_finished', { sessionId: 'sess-pause', requestId: 'r2', status: 'success' });
    await pipeline.flush();
    const spans = exporter.getFinishedSpans();
    const runs = named(spans, 'invoke_workflow');
    expect(runs.map((run) => run.attributes['govflow.session.status'])).toEqual(['pending', 'success']);
    expect(new Set(spans.map((span) => span.spanContext().traceId))).toEqual(new Set([sessionTraceId('sess-pause')]));
    const t2 = spans.find((span) => span.attributes['govflow.message.id'] === 'm-t2')!;
    expect(t2.attributes['govflow.task.id']).toBe('t2');
    const [chat] = named(spans, 'chat m');
    expect(parentOf(chat)).toBe(t2.spanContext().spanId);
    expect(chat.attributes['gen_ai.provider.name']).toBe('gcp.gemini');
    const t1 = spans.find((span) => span.attributes['govflow.message.id'] === 'm-t1')!;
    expect(t1.attributes['govflow.task.id']).toBe('t1');
    expect(t1.attributes['govflow.audit.entry_hash']).toBe('h3');
    const final = spans.find((span) => span.name === 'invoke_agent final_output_agent')!;
    expect(parentOf(final)).toBe(runs[1].spanContext().spanId);
    await pipeline.shutdown();
  });

  it('ends spans left open when it stops, so a daemon stop loses nothing that began', async () => {
    const events = new SessionEvents();
    const exporter = new InMemorySpanExporter();
    const pipeline = startTracePipeline(events, settings(false), { exporter, immediate: true });
    events.emit('session_started', {
      sessionId: 'sess-stop',
      requestId: 'r3',
      user: null,
      entryAgent: 'objective_agent',
    });
    events.emit('step_started', { sessionId: 'sess-stop', agent: 'objective_agent', sequence: 1, taskId: null });
    events.emit('model_call_started', {
      sessionId: 'sess-stop',
      agent: 'objective_agent',
      model: 'm',
      provider: 'openai',
      attempt: 0,
    });
    pipeline.tracer.detach();
    await pipeline.flush();
    const spans = exporter.getFinishedSpans();
    expect(spans.map((span) => span.name).sort()).toEqual([
      'chat m',
      'invoke_agent objective_agent',
      'invoke_workflow govflow',
    ]);
    expect(named(spans, 'invoke_workflow')[0].attributes['govflow.session.status']).toBe('interrupted');
    // Detached: later events make no spans.
    events.emit('step_started', { sessionId: 'sess-stop', agent: 'goal_agent', sequence: 2, taskId: null });
    expect(pipeline.tracer.openSessions).toBe(0);
    await pipeline.shutdown();
  });
});

describe('session tracing of a real session with capture_content', () => {
  it('records the redacted prompt and answer the runner passes on, never the original PII', async () => {
    const folder = exampleRoot('pii: { redact: [email] }\n');
    const exporter = new InMemorySpanExporter();
    let pipeline: TracePipeline | undefined;
    const outcome = await withRuntime(folder, scripted(happyResponses(TWO_TASKS)), async (runtime) => {
      pipeline = startTracePipeline(runtime.events, settings(true), { exporter, immediate: true });
      return runtime.runner.startSession(
        {
          requestId: 'req-trace-pii',
          text: 'Summarize: mail ana.lopez@example.org the budget.',
          sourceFile: 'request.txt',
          claimedPath: null,
        },
        new AbortController().signal,
      );
    });
    await pipeline!.flush();
    expect(outcome.status).toBe('success');
    const chats = named(exporter.getFinishedSpans(), 'chat ');
    const first = chats.find((chat) => chat.attributes['gen_ai.agent.name'] === 'objective_agent')!;
    const input = String(first.attributes['gen_ai.input.messages']);
    expect(input).toContain('[EMAIL_1]');
    expect(typeof first.attributes['gen_ai.output.messages']).toBe('string');
    for (const chat of chats) {
      for (const value of Object.values(chat.attributes)) expect(String(value)).not.toContain('ana.lopez@example.org');
    }
    await pipeline!.shutdown();
  });
});
