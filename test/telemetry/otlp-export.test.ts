import { afterEach, describe, expect, it } from 'vitest';
import { openRuntime } from '../../src/daemon/runtime.js';
import { sessionTraceId } from '../../src/telemetry/session-tracer.js';
import {
  TWO_TASKS,
  auditEntries,
  exampleRoot,
  happyResponses,
  removeTempDirs,
  scripted,
} from '../pipeline/pipeline-test-helpers.js';
import { OtlpReceiver } from './otlp-receiver.js';

const receivers: OtlpReceiver[] = [];
afterEach(async () => {
  await Promise.all(receivers.splice(0).map((receiver) => receiver.close()));
  removeTempDirs();
});

async function receiver(): Promise<OtlpReceiver> {
  const started = await OtlpReceiver.start();
  receivers.push(started);
  return started;
}

async function runTraced(root: string, env: NodeJS.ProcessEnv, requestId: string, warnings: string[] = []) {
  const log = { info() {}, error() {}, warn: (message: string) => void warnings.push(message) };
  const runtime = await openRuntime(root, { provider: scripted(happyResponses(TWO_TASKS)), env, log });
  try {
    expect(runtime.telemetry).not.toBeNull();
    return await runtime.runner.startSession(
      { requestId, text: 'Summarize: Ana sends the budget.', sourceFile: 'request.txt', claimedPath: null },
      new AbortController().signal,
    );
  } finally {
    await runtime.close();
  }
}

describe('OTLP/HTTP export to a loopback receiver', () => {
  it('exports the session as JSON to <telemetry.otlp_endpoint>/v1/traces when the runtime closes, with names, attributes and parentage intact', async () => {
    const collector = await receiver();
    const root = exampleRoot(`telemetry: { otlp_endpoint: "${collector.url}", service_name: govflow-ci }\n`);
    const outcome = await runTraced(root, {}, 'req-otlp-1');
    expect(outcome.status).toBe('success');
    expect(collector.requests.length).toBeGreaterThan(0);
    expect(
      collector.requests.every(
        (request) => request.path === '/v1/traces' && request.contentType.includes('application/json'),
      ),
    ).toBe(true);

    const spans = collector.spans;
    const workflow = spans.filter((span) => span.name === 'invoke_workflow govflow');
    expect(workflow).toHaveLength(1);
    expect(workflow[0].parentSpanId).toBeNull();
    expect(workflow[0].traceId).toBe(sessionTraceId(outcome.sessionId));
    expect(workflow[0].attributes['gen_ai.conversation.id']).toBe(outcome.sessionId);
    expect(workflow[0].serviceName).toBe('govflow-ci');
    expect(new Set(spans.map((span) => span.traceId)).size).toBe(1);

    const entries = (await auditEntries(root)).filter((entry) => entry.sessionId === outcome.sessionId);
    const agents = spans.filter((span) => span.name.startsWith('invoke_agent '));
    expect(agents.map((span) => span.attributes['govflow.audit.entry_hash']).sort()).toEqual(
      entries.map((entry) => entry.hash).sort(),
    );
    for (const span of agents) {
      expect(span.parentSpanId).toBe(workflow[0].spanId);
      expect(span.attributes['gen_ai.conversation.id']).toBe(outcome.sessionId);
    }
    const chats = spans.filter((span) => span.name.startsWith('chat '));
    expect(chats).toHaveLength(entries.length);
    for (const chat of chats) {
      expect(chat.attributes['gen_ai.operation.name']).toBe('chat');
      expect(chat.attributes['gen_ai.request.model']).toBe(chat.name.slice('chat '.length));
      expect(typeof chat.attributes['gen_ai.usage.input_tokens']).toBe('number');
      expect(typeof chat.attributes['gen_ai.usage.output_tokens']).toBe('number');
      const parent = agents.find((span) => span.spanId === chat.parentSpanId);
      expect(parent?.attributes['gen_ai.agent.name']).toBe(chat.attributes['gen_ai.agent.name']);
    }
  });

  it('takes OTEL_EXPORTER_OTLP_TRACES_ENDPOINT as written and sends OTEL_EXPORTER_OTLP_HEADERS', async () => {
    const collector = await receiver();
    const root = exampleRoot();
    await runTraced(
      root,
      {
        OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: `${collector.url}/v1/traces`,
        OTEL_EXPORTER_OTLP_HEADERS: 'x-tenant=audit%20team',
      },
      'req-otlp-2',
    );
    expect(collector.spans.some((span) => span.name === 'invoke_workflow govflow')).toBe(true);
    expect(collector.requests[0].headers['x-tenant']).toBe('audit team');
  });

  it('is off without an endpoint, and a collector that is down never fails a session', async () => {
    const off = await openRuntime(exampleRoot(), { provider: scripted(happyResponses(TWO_TASKS)), env: {} });
    expect(off.telemetry).toBeNull();
    await off.close();

    const collector = await receiver();
    const url = collector.url;
    await collector.close();
    receivers.pop();
    const root = exampleRoot(`telemetry: { otlp_endpoint: "${url}" }\n`);
    const warnings: string[] = [];
    const outcome = await runTraced(root, {}, 'req-otlp-3', warnings);
    expect(outcome.status).toBe('success');
    expect(
      warnings.filter((warning) => warning.startsWith('tracing:')),
      warnings.join('\n'),
    ).toHaveLength(1);
    expect(warnings.find((warning) => warning.startsWith('tracing:'))).toMatch(
      /check that the collector runs|did not take the last spans/,
    );
  });
});
