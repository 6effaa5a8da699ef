/**
 * The conformance matrix's driver and checks, the same for every provider kind: `runFeatures`
 * runs the features of conformance-features.ts through a running daemon's HTTP API (the chat
 * endpoint; requests with their event streams; the approval answered over HTTP), and the checks
 * read what a user relies on — results, seed 003 chat events, the audit entries, files under
 * system/, cassettes, spans at the collector, and what reached the model over the wire.
 */
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { expect } from 'vitest';
import type { LoggedEntry } from '../../src/audit/audit-log-reader.js';
import { parseCassette } from '../../src/llm/cassette-format.js';
import { waitFor } from '../daemon/daemon-helpers.js';
import { SseReader, getJson, postJson, seed003Shape, type SseEvent } from '../http/http-test-helpers.js';
import { auditEntries } from '../pipeline/pipeline-test-helpers.js';
import type { ReceivedSpan } from '../telemetry/otlp-receiver.js';
import { offeredToolsOf } from '../llm/loopback-wire.js';
import { CALL_USAGE, EMAIL, HELPER_OUTPUT, MODEL_CALLS, SPECS, turnOf, type Feature } from './conformance-features.js';
import type { KindCase } from './provider-kinds.js';
import { systemPromptOf, type ResponderLlmServer } from './responder-llm-server.js';

export interface FeatureRun {
  feature: Feature;
  requestId: string;
  sessionId: string;
  events: SseEvent[];
  result: any;
}

async function finalResult(url: string, requestId: string): Promise<any> {
  return waitFor(`the result of ${requestId}`, async () => {
    const body = (await getJson(`${url}/v1/requests/${encodeURIComponent(requestId)}`)).body;
    return body && body.status !== 'queued' && body.status !== 'running' ? body : null;
  });
}

async function runFeature(url: string, feature: Feature, readers: SseReader[]): Promise<FeatureRun> {
  const request = SPECS[feature].request;
  if (feature === 'chat') {
    const chat = await SseReader.open(`${url}/v1/agent/chat`, { method: 'POST', body: { message: request } });
    readers.push(chat);
    const events = await chat.finished(45_000);
    const requestId = chat.headers.get('x-request-id') ?? '';
    return {
      feature,
      requestId,
      sessionId: chat.headers.get('x-conversation-id') ?? '',
      events,
      result: await finalResult(url, requestId),
    };
  }
  const submitted = await postJson(`${url}/v1/requests`, { request });
  expect(submitted.status, JSON.stringify(submitted.body)).toBe(202);
  const { request_id: requestId, session_id: sessionId } = submitted.body as { request_id: string; session_id: string };
  const stream = await SseReader.open(`${url}/v1/requests/${requestId}/events`);
  readers.push(stream);
  if (feature === 'approval') {
    await stream.until((events) => events.some((event) => event.event === 'pending'), 45_000);
    const reply = await postJson(`${url}/v1/sessions/${sessionId}/reply`, {
      approve: true,
      reason: 'conformance check',
    });
    expect(reply.status, JSON.stringify(reply.body)).toBe(202);
  }
  const events = await stream.finished(45_000);
  return { feature, requestId, sessionId, events, result: await finalResult(url, requestId) };
}

/**
 * Runs `features` through the daemon at `url`: all at once, or one after the other in the given
 * order (a scripted provider answers each agent's calls in the order of its file).
 */
export async function runFeatures(
  url: string,
  features: readonly Feature[],
  options: { sequential: boolean },
): Promise<Map<Feature, FeatureRun>> {
  const readers: SseReader[] = [];
  try {
    const runs: FeatureRun[] = [];
    if (options.sequential) for (const feature of features) runs.push(await runFeature(url, feature, readers));
    else runs.push(...(await Promise.all(features.map((feature) => runFeature(url, feature, readers)))));
    return new Map(runs.map((run) => [run.feature, run]));
  } finally {
    await Promise.all(readers.map((reader) => reader.close()));
  }
}

function entriesOf(entries: LoggedEntry[], sessionId: string): LoggedEntry[] {
  return entries.filter((entry) => entry.sessionId === sessionId);
}

function filesUnder(folder: string): string[] {
  if (!existsSync(folder)) return [];
  return readdirSync(folder).flatMap((name) => {
    const full = path.join(folder, name);
    return statSync(full).isDirectory() ? filesUnder(full) : [full];
  });
}

const usageOf = (calls: number) => ({
  input_tokens: calls * CALL_USAGE.input_tokens,
  output_tokens: calls * CALL_USAGE.output_tokens,
});

/**
 * Checks each feature's outcome, its usage the sum of its session's calls; returns every session
 * id the features made (the delegated child's too).
 */
export async function checkOutcomes(root: string, runs: Map<Feature, FeatureRun>): Promise<string[]> {
  const entries = await auditEntries(root);
  for (const run of runs.values()) {
    expect(run.result, `${run.feature}: ${JSON.stringify(run.result)}`).toMatchObject({
      status: 'success',
      output: SPECS[run.feature].output,
      messages: 1,
    });
    expect(run.result.usage, `${run.feature}: usage`).toMatchObject(usageOf(SPECS[run.feature].turns.length));
    if (run.feature !== 'chat')
      expect(run.events.at(-1), run.feature).toMatchObject({ event: 'session_finished', data: { status: 'success' } });
    expect(
      entriesOf(entries, run.sessionId).map((entry) => entry.status.code),
      run.feature,
    ).toEqual(['success']);
  }
  const sessionIds = [...runs.values()].map((run) => run.sessionId);

  const chat = runs.get('chat');
  if (chat) {
    // Seed 003's protocol: two LLM turns, zero-based; the tool call named by the provider's id. The
    // text is the answer only (SPEC §23): the words before the tool call are not streamed.
    expect(seed003Shape(chat.events)).toEqual([
      'message_start ["turn"]',
      'tool_call_start ["name","tool_use_id"]',
      'tool_call_result ["is_error","name","tool_use_id"]',
      'message_start ["turn"]',
      'content_chunk ["chunk"]',
      'message_complete []',
    ]);
    expect(chat.events.filter((event) => event.event === 'message_start').map((event) => event.data)).toEqual([
      { turn: 0 },
      { turn: 1 },
    ]);
    const start = chat.events.find((event) => event.event === 'tool_call_start')!.data as {
      tool_use_id: string;
      name: string;
    };
    expect(start.tool_use_id).toMatch(/\S/);
    expect(chat.events.find((event) => event.event === 'tool_call_result')!.data).toEqual({
      tool_use_id: start.tool_use_id,
      name: 'list_files',
      is_error: false,
    });
    expect(chat.events.at(-1)!.data).toEqual({});
    const text = chat.events
      .filter((event) => event.event === 'content_chunk')
      .map((event) => (event.data as { chunk: string }).chunk)
      .join('');
    expect(text).toBe(chat.result.answer);
  }

  const approval = runs.get('approval');
  if (approval) {
    const pending = approval.events.find((event) => event.event === 'pending')!.data as {
      awaiting: string;
      question: string;
    };
    expect(pending.awaiting).toBe('approval');
    expect(pending.question).toContain('write_file');
    // The stream was open when the session resumed: the model's text reached it as it came.
    expect(
      approval.events
        .slice(approval.events.findIndex((event) => event.event === 'pending'))
        .some((event) => event.event === 'content_chunk'),
    ).toBe(true);
    expect(readFileSync(path.join(root, 'workspace', approval.sessionId, 'note.md'), 'utf8')).toBe('Approved note.');
    const [entry] = entriesOf(entries, approval.sessionId);
    expect(entry.tools?.approvals).toEqual([
      expect.objectContaining({
        tool: 'write_file',
        approve: true,
        user: 'local',
        reason: 'conformance check',
        executed_args_match: true,
      }),
    ]);
    expect(entry.tools?.toolCalls?.map((call) => [call.name, call.is_error])).toEqual([['write_file', false]]);
  }

  const guardrail = runs.get('guardrail');
  if (guardrail)
    expect(entriesOf(entries, guardrail.sessionId)[0].guardrails).toEqual([{ rule: 'english-only', action: 'retry' }]);

  const pii = runs.get('pii');
  if (pii) {
    const [entry] = entriesOf(entries, pii.sessionId);
    expect(entry.piiRedacted).toEqual({ email: 1 });
    expect(entry.input).toContain('[EMAIL_1]');
    // Only the vaults and the results that restore it (restore_in_result, of this run or an earlier one) hold the address.
    const restored = (file: string) =>
      file.includes(`${path.sep}outbox${path.sep}`) &&
      file.endsWith('.json') &&
      JSON.stringify(JSON.parse(readFileSync(file, 'utf8')).output) === JSON.stringify(SPECS.pii.output);
    for (const file of filesUnder(path.join(root, 'system'))) {
      if (path.basename(file).includes('vault') || restored(file)) continue;
      expect(readFileSync(file, 'utf8').includes(EMAIL), `${EMAIL} in ${path.relative(root, file)}`).toBe(false);
    }
  }

  const delegation = runs.get('delegation');
  if (delegation) {
    const [entry] = entriesOf(entries, delegation.sessionId);
    const delegations = entry.tools?.delegations ?? [];
    expect(delegations).toEqual([expect.objectContaining({ agent: 'helper_agent', status: 'success' })]);
    const childId = delegations[0].child_session!;
    const child = entriesOf(entries, childId);
    expect(child.map((childEntry) => [childEntry.agent, childEntry.status.code, childEntry.delegation])).toEqual([
      ['helper_agent', 'success', { parentSessionId: delegation.sessionId, depth: 1 }],
    ]);
    expect(
      JSON.parse(readFileSync(path.join(root, 'system', 'outbox', `${child[0].requestId}.json`), 'utf8')),
    ).toMatchObject({ output: HELPER_OUTPUT, usage: usageOf(1) });
    sessionIds.push(childId);
  }
  return sessionIds;
}

/** The cassettes in `root/cassettes` hold every model call, recorded after redaction. */
export function checkCassettes(root: string, calls = MODEL_CALLS): void {
  const folder = path.join(root, 'cassettes');
  const texts = readdirSync(folder).map((name) => readFileSync(path.join(folder, name), 'utf8'));
  expect(texts.flatMap((text, index) => parseCassette(text, `cassette ${index}`).calls)).toHaveLength(calls);
  const all = texts.join('\n');
  expect(all).toContain('[EMAIL_1]');
  expect(all).not.toContain(EMAIL);
}

/**
 * The spans of `sessionIds` at the collector: one trace per session, a `chat` span per model
 * call with the provider's GenAI name, an `execute_tool` span per tool call, and each audit
 * entry's hash on an `invoke_agent` span.
 */
export async function checkTraces(
  root: string,
  spans: ReceivedSpan[],
  sessionIds: string[],
  options: { provider: string; calls?: number; tools?: string[] },
): Promise<void> {
  const roots = spans.filter(
    (span) =>
      span.name === 'invoke_workflow govflow' && sessionIds.includes(String(span.attributes['gen_ai.conversation.id'])),
  );
  expect(new Set(roots.map((span) => span.attributes['gen_ai.conversation.id']))).toEqual(new Set(sessionIds));
  const traces = new Set(roots.map((span) => span.traceId));
  expect(traces.size).toBe(sessionIds.length);
  const inTraces = spans.filter((span) => traces.has(span.traceId));
  const chats = inTraces.filter((span) => span.name.startsWith('chat '));
  expect(chats).toHaveLength(options.calls ?? MODEL_CALLS);
  expect(new Set(chats.map((span) => span.attributes['gen_ai.provider.name']))).toEqual(new Set([options.provider]));
  expect(
    inTraces
      .filter((span) => span.name.startsWith('execute_tool '))
      .map((span) => span.name)
      .sort(),
  ).toEqual((options.tools ?? ['delegate', 'list_files', 'write_file']).map((tool) => `execute_tool ${tool}`));
  const spanHashes = new Set(
    inTraces
      .filter((span) => span.name.startsWith('invoke_agent '))
      .map((span) => span.attributes['govflow.audit.entry_hash']),
  );
  const entries = (await auditEntries(root)).filter((entry) => sessionIds.includes(entry.sessionId));
  expect(entries.length).toBe(sessionIds.length);
  for (const entry of entries)
    expect(spanHashes.has(entry.hash), `entry hash of ${entry.sessionId} on an invoke_agent span`).toBe(true);
}

/**
 * What reached the model over the kind's wire: every call once, the tools offered natively to
 * desk_agent only, no address in any request, and each feature's last turn carrying the tool's
 * result or the guardrail's message.
 */
export function checkWire(server: ResponderLlmServer, testCase: KindCase): void {
  expect(server.requests.map((request) => request.wire)).toEqual(
    Array.from({ length: MODEL_CALLS }, () => testCase.wire),
  );
  const seen: string[] = [];
  for (const request of server.requests) {
    const text = JSON.stringify(request.body);
    expect(text).not.toContain(EMAIL);
    const { agent, feature, turn } = turnOf({ body: request.body, system: systemPromptOf(request.body) });
    expect(offeredToolsOf(request.body), `${agent} ${feature ?? ''}`).toEqual(
      agent === 'desk_agent' ? ['delegate', 'list_files', 'write_file'] : [],
    );
    // A call streams only while someone reads its session's chunks: the chat always, a delegated child never.
    if (feature === 'chat' || agent === 'helper_agent')
      expect(request.stream, `${agent} ${feature ?? ''} streamed`).toBe(feature === 'chat');
    if (feature === undefined) continue;
    seen.push(`${feature} ${turn}`);
    if (turn === SPECS[feature].turns.length - 1)
      expect(text, `${feature}: what the model sees on its last turn`).toContain(SPECS[feature].lastTurnSees);
  }
  expect(seen.sort()).toEqual(
    Object.entries(SPECS)
      .flatMap(([feature, spec]) => spec.turns.map((_turn, index) => `${feature} ${index}`))
      .sort(),
  );
}
