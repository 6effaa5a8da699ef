/**
 * SPEC §23 through the path users take: `govflow start --http` as a real child process, the
 * OpenAI adapter against a loopback server that streams each answer in many small deltas. Seed
 * 003's whole body (context_type, context, a client-chosen conversation_id), the answer as the only
 * streamed text, conversations with follow-ups (also after a restart), ownership, the profile and
 * body checks, and seed 003's own example sequences replayed with their names, keys and order.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { buildDistOnce } from '../daemon/build-once.js';
import { answer, cleanupAll, makeRoot, runCli, startDaemon, waitFor } from '../daemon/daemon-helpers.js';
import { singleAgentRoot } from '../support/single-agent-root.js';
import { getJson, httpUrlOf, seed003Shape, type SseEvent } from './http-test-helpers.js';
import { agentOf, answerFor, exampleAppReply } from '../providers/example-app-responder.js';
import { KINDS, providerLines } from '../providers/provider-kinds.js';
import {
  startResponderLlmServer,
  systemPromptOf,
  type IncomingLlmRequest,
  type Responder,
  type ResponderLlmServer,
} from '../providers/responder-llm-server.js';

const OPENAI = KINDS.find((kind) => kind.kind === 'openai')!;
let server: ResponderLlmServer | undefined;

beforeAll(buildDistOnce, 240_000);
afterEach(async () => {
  await cleanupAll();
  await server?.close();
  server = undefined;
});
afterAll(cleanupAll);

/** `text` cut in pieces of `size` characters: the model writes its JSON in many small deltas. */
function deltas(text: string, size = 4): string[] {
  const pieces: string[] = [];
  for (let at = 0; at < text.length; at += size) pieces.push(text.slice(at, at + size));
  return pieces;
}

/** The final agent answers `answer` (streamed in small deltas); every other agent as the example app does. */
function exampleResponder(finalAnswer: (request: IncomingLlmRequest) => string): Responder {
  return (request) => {
    const agent = agentOf(request.system);
    if (agent !== 'final_output_agent') return exampleAppReply(request.system);
    const message = answerFor(agent);
    const text = JSON.stringify({
      ...message,
      output: { content: { answer: finalAnswer(request) }, content_type: 'final_report' },
    });
    return { kind: 'text', text, chunks: deltas(text) };
  };
}

/** The user prompt text of an OpenAI request (every non-system message; Responses API `input` items too). */
function userPromptOf(body: any): string {
  return ((body.messages ?? body.input) as Array<{ role?: string; content?: unknown; output?: unknown }>)
    .filter((message) => message.role !== 'system' && message.role !== 'developer')
    .map((message) => message.content ?? message.output)
    .map((content) =>
      typeof content === 'string'
        ? content
        : Array.isArray(content)
          ? (content as Array<{ text?: string }>).map((part) => part.text ?? '').join('')
          : '',
    )
    .join('\n');
}

const shape = (events: Array<{ event: string; data: unknown }>) =>
  seed003Shape(events.map((event): SseEvent => ({ id: null, ...event })));
const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

interface ChatAnswer {
  status: number;
  headers: Headers;
  events: Array<{ event: string; data: any }>;
  /** The chunks after the last message_start, joined. */
  text: string;
  /** Every chunk, joined. */
  allText: string;
  body: any;
}

async function chat(url: string, body: unknown, token?: string): Promise<ChatAnswer> {
  const response = await fetch(`${url}/v1/agent/chat`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'text/event-stream',
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    body: JSON.stringify(body),
  });
  const raw = await response.text();
  if (!response.headers.get('content-type')?.startsWith('text/event-stream'))
    return {
      status: response.status,
      headers: response.headers,
      events: [],
      text: '',
      allText: '',
      body: JSON.parse(raw),
    };
  expect(raw).not.toMatch(/^id:/m);
  const events = raw
    .split('\n\n')
    .map((frame) => frame.split('\n').filter((line) => line !== '' && !line.startsWith(':')))
    .filter((lines) => lines.length > 0)
    .map((lines) => ({ event: lines[0].slice('event: '.length), data: JSON.parse(lines[1].slice('data: '.length)) }));
  const chunks = (list: typeof events) =>
    list
      .filter((event) => event.event === 'content_chunk')
      .map((event) => event.data.chunk as string)
      .join('');
  const lastStart = events.map((event) => event.event).lastIndexOf('message_start');
  return {
    status: response.status,
    headers: response.headers,
    events,
    text: chunks(events.slice(lastStart + 1)),
    allText: chunks(events),
    body: null,
  };
}

const CONTEXT = {
  workflow_id: '550e8400-e29b-41d4-a716-446655440000',
  rule_name: 'Low Stock Alert',
  entity_schema: 'inventory',
  entity_name: 'inventory_items',
  trigger_type: 'on_update',
  owner_email: 'ana.lopez@example.com',
  nodes: [{ id: 'n1', type: 'evaluate_condition' }],
  edges: [],
  summary: '3 actions, 1 branch',
};

function chatRoot(extraConfig: string[] = []): string {
  const root = makeRoot(
    [
      'timezone: UTC',
      'http: { listen: "127.0.0.1:0" }',
      ...providerLines(OPENAI, server!.url + OPENAI.basePath),
      'chat:',
      '  contexts:',
      '    workflow: { context_file: context/chat/workflow.txt }',
      '    tables: {}',
      'pii: { redact: [email] }',
      ...extraConfig,
      '',
    ].join('\n'),
  );
  mkdirSync(path.join(root, 'context', 'chat'), { recursive: true });
  writeFileSync(path.join(root, 'context', 'chat', 'workflow.txt'), 'Workflows are rules: a trigger, then actions.\n');
  return root;
}

const startChatDaemon = (root: string) =>
  startDaemon(root, { env: { [OPENAI.keyEnv]: OPENAI.key }, readyTimeoutMs: 30_000 });

describe('chat as seed 003 clients use it (SPEC §23), on the real adapter path', () => {
  it('takes seed 003 bodies, streams only the answer, and keeps the conversation across turns and a restart', async () => {
    let turnNumber = 0;
    server = await startResponderLlmServer(
      exampleResponder(() => `Answer number ${++turnNumber}: the rule "Low Stock Alert" **triggers** on update.`),
    );
    const root = chatRoot();
    let daemon = await startChatDaemon(root);
    let url = httpUrlOf(daemon.readyLine);

    // Turn 0: seed 003's whole body, with a client-chosen conversation id.
    const first = await chat(url, {
      message: 'What does this workflow do?',
      context_type: 'workflow',
      context: CONTEXT,
      conversation_id: 'ichor-conv-1',
    });
    expect(first.status).toBe(200);
    expect(first.headers.get('x-conversation-id')).toBe('ichor-conv-1');
    const requestId = first.headers.get('x-request-id')!;
    expect(requestId).toBeTruthy();
    expect(first.events.at(-1)).toEqual({ event: 'message_complete', data: {} });
    expect(first.events.some((event) => event.event === 'error')).toBe(false);
    const result = (await getJson(`${url}/v1/requests/${requestId}`)).body;
    expect(result).toMatchObject({ status: 'success', conversation_id: 'ichor-conv-1', conversation_turn: 0 });
    expect(result.answer).toBe('Answer number 1: the rule "Low Stock Alert" **triggers** on update.');
    // The answer and nothing else, streamed in pieces while the final agent wrote it.
    expect(first.allText).toBe(result.answer);
    // (That it streams while the model still writes: chat-seed-003.test.ts, with a model that waits mid-answer.)
    expect(first.allText).not.toContain('{');
    // One message_start per model call (6 agents), the chunks after the last one.
    expect(first.events.filter((event) => event.event === 'message_start').map((event) => event.data)).toEqual(
      [0, 1, 2, 3, 4, 5].map((turn) => ({ turn })),
    );

    // The entry agent's prompt: the context block titled with its type, PII redacted, and the profile's file.
    const entryPrompt = userPromptOf(server.requests[0].body);
    expect(agentOf(systemPromptOf(server.requests[0].body))).toBe('objective_agent');
    expect(entryPrompt).toContain('[CHAT CONTEXT: workflow]');
    expect(entryPrompt).toContain('Low Stock Alert');
    expect(entryPrompt).not.toContain('ana.lopez@example.com');
    expect(entryPrompt).toContain('Workflows are rules: a trigger, then actions.');
    // Only the entry agent gets it.
    for (const request of server.requests.slice(1)) expect(userPromptOf(request.body)).not.toContain('[CHAT CONTEXT');
    const contextJson = /\[CHAT CONTEXT: workflow\][^\n]*\n(\{.*\})\n\[END OF CHAT CONTEXT: workflow\]/.exec(
      entryPrompt,
    )![1];
    const chatContextLines = () =>
      readdirSync(path.join(root, 'system', 'logs'))
        .filter((name) => name.endsWith('.log'))
        .flatMap((name) => readFileSync(path.join(root, 'system', 'logs', name), 'utf8').split('\n'))
        .filter((line) => line.startsWith('[CHAT_CONTEXT]'));
    expect(chatContextLines()).toEqual([
      `[CHAT_CONTEXT]: ${JSON.stringify({ type: 'workflow', sha256: sha256(contextJson), bytes: Buffer.byteLength(contextJson) })}`,
    ]);

    const logged = (await getJson(`${url}/v1/logs?session=${result.session_id}`)).body.entries;
    expect(logged[0].chatContext).toEqual({
      type: 'workflow',
      sha256: sha256(contextJson),
      bytes: Buffer.byteLength(contextJson),
    });
    expect(logged[1].chatContext).toBeUndefined();

    // Turn 1: a follow-up sees turn 0's message and answer.
    const callsBefore = server.requests.length;
    const second = await chat(url, {
      message: 'And what happens after it fires?',
      context_type: 'tables',
      conversation_id: 'ichor-conv-1',
    });
    expect(second.status).toBe(200);
    expect(second.headers.get('x-conversation-id')).toBe('ichor-conv-1');
    const secondResult = (await getJson(`${url}/v1/requests/${second.headers.get('x-request-id')}`)).body;
    expect(secondResult).toMatchObject({ conversation_id: 'ichor-conv-1', conversation_turn: 1 });
    expect(second.allText).toBe(secondResult.answer);
    const followUpPrompt = userPromptOf(server.requests[callsBefore].body);
    expect(followUpPrompt).toContain('User: What does this workflow do?');
    expect(followUpPrompt).toContain(`Assistant: ${result.answer}`);
    expect(followUpPrompt).not.toContain('[CHAT CONTEXT'); // no context this time: each message's own

    // A restart keeps the conversation: turn 2 sees both earlier turns, oldest first.
    expect((await daemon.stop()).code).toBe(0);
    daemon = await startChatDaemon(root);
    url = httpUrlOf(daemon.readyLine);
    const callsBeforeThird = server.requests.length;
    const third = await chat(url, {
      message: 'Thanks. Anything else?',
      context_type: 'workflow',
      conversation_id: 'ichor-conv-1',
    });
    expect(third.status).toBe(200);
    const thirdResult = (await getJson(`${url}/v1/requests/${third.headers.get('x-request-id')}`)).body;
    expect(thirdResult.conversation_turn).toBe(2);
    const thirdPrompt = userPromptOf(server.requests[callsBeforeThird].body);
    expect(thirdPrompt.indexOf('User: What does this workflow do?')).toBeLessThan(
      thirdPrompt.indexOf('User: And what happens after it fires?'),
    );

    const conversation = (await getJson(`${url}/v1/conversations/ichor-conv-1`)).body;
    expect(conversation).toMatchObject({ conversation_id: 'ichor-conv-1', user: 'local' });
    expect(conversation.turns.map((turn: any) => [turn.request_id, turn.status, turn.message, turn.answer])).toEqual([
      [requestId, 'success', 'What does this workflow do?', result.answer],
      [secondResult.request_id, 'success', 'And what happens after it fires?', secondResult.answer],
      [thirdResult.request_id, 'success', 'Thanks. Anything else?', thirdResult.answer],
    ]);
    const listed = (await getJson(`${url}/v1/sessions`)).body.sessions as any[];
    expect(listed.map((row) => [row.conversation_id, row.conversation_turn]).sort()).toEqual([
      ['ichor-conv-1', 0],
      ['ichor-conv-1', 1],
      ['ichor-conv-1', 2],
    ]);
    const cli = await runCli(['sessions', '--json', '--root', root]);
    expect(
      JSON.parse(cli.stdout)
        .sessions.map((row: any) => row.conversation_turn)
        .sort(),
    ).toEqual([0, 1, 2]);
    expect((await getJson(`${url}/v1/conversations/no-such-conversation`)).status).toBe(404);
    // The web view shows the turns together, on the conversation's page and on each turn's session page.
    for (const page of [`/ui/conversations/ichor-conv-1`, `/ui/sessions/${thirdResult.session_id}`]) {
      const whole = await (await fetch(`${url}${page}`)).text();
      const html = whole.slice(whole.indexOf('id="conversation-turns"'));
      const said = ['What does this workflow do?', 'And what happens after it fires?', 'Thanks. Anything else?'];
      expect(said.map((text) => html.indexOf(text))).toEqual(
        [...said.map((text) => html.indexOf(text))].sort((a, b) => a - b),
      );
      for (const text of said) expect(html).toContain(text);
      expect(html).toContain('Answer number 3: the rule');
      expect(whole).toContain('id="conversation-turns"');
    }
    expect((await getJson(`${url}/v1/verify`)).body.ok).toBe(true);
    expect((await daemon.stop()).code).toBe(0);
  }, 180_000);
});

/** The user's words in a single-agent request: what the scripted model keys its answer on. */
function lastUserText(body: any): string {
  return userPromptOf(body);
}

/** One terminal agent with a tool; its answers depend on what the user wrote. */
const workerResponder: Responder = (request) => {
  const prompt = lastUserText(request.body);
  const sawToolResult = ((request.body.messages ?? request.body.input) as Array<{ role?: string; type?: string }>).some(
    (message) => message.role === 'tool' || message.type === 'function_call_output',
  );
  if (prompt.includes('look it up') && !sawToolResult)
    return { kind: 'tool_calls', calls: [{ id: 't1', name: 'list_files', arguments: '{"path":"."}' }] };
  if (prompt.includes('take your time')) return { kind: 'hang' };
  let message: Record<string, unknown>;
  if (prompt.includes('draft first') && !prompt.includes('rejected by the orchestrator')) {
    // An attempt the orchestrator rejects (no such status): its streamed words are not the answer.
    message = answer({ content: 'A first draft that will be rejected.', contentType: 'report' });
    message.status = { code: 'done', message: 'done' };
  } else if (prompt.includes('please fail')) {
    message = answer({
      content: null,
      contentType: 'report',
      status: 'failed',
      message: 'The rule store is unreachable.',
    });
    message.error = {
      has_error: true,
      error_code: 'DEPENDENCY_ERROR',
      error_message: 'The rule store is unreachable.',
      retry_count: 0,
      recoverable: false,
    };
  } else if (prompt.includes('ask me') && !prompt.includes('Low Stock')) {
    message = answer({ content: null, contentType: 'report', status: 'pending', message: 'Which rule do you mean?' });
  } else message = answer({ content: 'The workflow has 3 actions.', contentType: 'report' });
  const text = JSON.stringify(message);
  return { kind: 'text', text, chunks: deltas(text, 3) };
};

const TOKENS = { alice: 'alice-token-1', bob: 'bob-token-2', root: 'admin-token-3' };

function workerRoot(): string {
  const tokenLines = Object.entries(TOKENS).map(
    ([user, token]) =>
      `    - { user: ${user}, sha256: "${sha256(token)}", role: ${user === 'root' ? 'admin' : 'operator'} }`,
  );
  const root = singleAgentRoot(
    [
      'timezone: UTC',
      'http:',
      '  listen: "127.0.0.1:0"',
      '  tokens:',
      ...tokenLines,
      ...providerLines(OPENAI, server!.url + OPENAI.basePath),
      'chat:',
      '  max_context_bytes: 2048',
      '  contexts:',
      '    workflow: {}',
      '    tables: { agent: worker_agent }',
      '',
    ].join('\n'),
    ['tools: [list_files]'],
  );
  mkdirSync(path.join(root, 'workspace'), { recursive: true });
  return root;
}

describe('a chat turn as the client sees it, on the real adapter path', () => {
  it("replays seed 003's example sequences, ends failed turns with error, and streams a paused turn's question", async () => {
    server = await startResponderLlmServer(workerResponder);
    const root = workerRoot();
    const daemon = await startChatDaemon(root);
    const url = httpUrlOf(daemon.readyLine);

    // "Simple question (no tools)".
    const simple = await chat(url, { message: 'What does this workflow do?', context_type: 'workflow' }, TOKENS.alice);
    expect(shape(simple.events)).toEqual(['message_start ["turn"]', 'content_chunk ["chunk"]', 'message_complete []']);
    expect(simple.events[0].data).toEqual({ turn: 0 });
    expect(simple.events.at(-1)!.data).toEqual({});
    expect(simple.allText).toBe('The workflow has 3 actions.');
    // Without conversation_id, the conversation is the new session.
    const simpleResult = (await getJson(`${url}/v1/requests/${simple.headers.get('x-request-id')}`, TOKENS.alice)).body;
    expect(simple.headers.get('x-conversation-id')).toBe(simpleResult.session_id);
    expect(simpleResult).toMatchObject({ answer: 'The workflow has 3 actions.', conversation_turn: 0 });

    // "Question requiring a tool call (2 turns)": the words before a tool call are not the answer.
    const tool = await chat(url, { message: 'Please look it up.', context_type: 'workflow' }, TOKENS.alice);
    expect(shape(tool.events)).toEqual([
      'message_start ["turn"]',
      'tool_call_start ["name","tool_use_id"]',
      'tool_call_result ["is_error","name","tool_use_id"]',
      'message_start ["turn"]',
      'content_chunk ["chunk"]',
      'message_complete []',
    ]);
    expect(tool.events.filter((event) => event.event === 'message_start').map((event) => event.data)).toEqual([
      { turn: 0 },
      { turn: 1 },
    ]);
    expect(tool.events[1].data).toEqual({ tool_use_id: 't1', name: 'list_files' });
    expect(tool.events[2].data).toEqual({ tool_use_id: 't1', name: 'list_files', is_error: false });
    expect(tool.allText).toBe('The workflow has 3 actions.');

    // A failed turn: error {message}, then message_complete {}.
    const failed = await chat(url, { message: 'Now please fail.', context_type: 'workflow' }, TOKENS.alice);
    expect(failed.events.slice(-2).map((event) => event.event)).toEqual(['error', 'message_complete']);
    expect(failed.events.at(-2)!.data).toEqual({ message: 'The rule store is unreachable.' });
    expect(failed.events.at(-1)!.data).toEqual({});

    // A paused turn streams its question; the next message of the conversation answers it.
    const asked = await chat(url, { message: 'Please ask me something.', conversation_id: 'alice-c1' }, TOKENS.alice);
    expect(asked.events.map((event) => event.event).at(-1)).toBe('message_complete');
    expect(asked.text).toBe('Which rule do you mean?');
    const pausedRequest = asked.headers.get('x-request-id');
    expect((await getJson(`${url}/v1/requests/${pausedRequest}`, TOKENS.alice)).body).toMatchObject({
      status: 'pending',
      answer: 'Which rule do you mean?',
    });

    // Another user's conversation is not found; an admin reads it but may not continue it.
    expect((await chat(url, { message: 'Low Stock', conversation_id: 'alice-c1' }, TOKENS.bob)).status).toBe(404);
    expect((await getJson(`${url}/v1/conversations/alice-c1`, TOKENS.bob)).status).toBe(404);
    expect((await getJson(`${url}/v1/conversations/alice-c1`, TOKENS.root)).body.user).toBe('alice');
    expect((await chat(url, { message: 'Low Stock', conversation_id: 'alice-c1' }, TOKENS.root)).status).toBe(403);

    const replied = await chat(url, { message: 'The Low Stock rule.', conversation_id: 'alice-c1' }, TOKENS.alice);
    expect(replied.headers.get('x-request-id')).toBe(pausedRequest);
    expect(replied.text).toBe('The workflow has 3 actions.');
    const turns = (await getJson(`${url}/v1/conversations/alice-c1`, TOKENS.alice)).body.turns;
    expect(turns).toHaveLength(1);
    expect(turns[0]).toMatchObject({
      request_id: pausedRequest,
      status: 'success',
      answer: 'The workflow has 3 actions.',
    });

    // Body checks: seed 003's fields only, in their patterns; a known type when chat.contexts is set.
    const refused = async (body: unknown) => {
      const response = await chat(url, body, TOKENS.alice);
      return [response.status, response.body?.error?.message as string];
    };
    expect(await refused({ message: 'hi', model: 'x' })).toEqual([
      400,
      expect.stringContaining('unknown field "model"'),
    ]);
    expect(await refused({ message: 'hi', context_type: 'Work Flow' })).toEqual([
      400,
      expect.stringContaining('context_type'),
    ]);
    expect(await refused({ message: 'hi', context_type: 'orders' })).toEqual([
      400,
      expect.stringContaining('"workflow", "tables"'),
    ]);
    expect(await refused({ message: 'hi', context: ['not', 'an', 'object'] })).toEqual([
      400,
      expect.stringContaining('"context"'),
    ]);
    expect(await refused({ message: 'hi', conversation_id: 'has spaces' })).toEqual([
      400,
      expect.stringContaining('conversation_id'),
    ]);
    expect(await refused({ message: 'hi', context: { blob: 'x'.repeat(3000) } })).toEqual([
      413,
      expect.stringContaining('chat.max_context_bytes'),
    ]);

    // A rejected attempt: a new message_start, and the chunks after the last one are the answer.
    const repaired = await chat(url, { message: 'Write a draft first.' }, TOKENS.alice);
    expect(repaired.events.filter((event) => event.event === 'message_start')).toHaveLength(2);
    expect(repaired.allText).toContain('A first draft');
    expect(repaired.text).toBe('The workflow has 3 actions.');
    expect((await getJson(`${url}/v1/verify`, TOKENS.root)).body.ok).toBe(true);

    // While the last turn still runs, the next message of its conversation is a 409.
    const leaving = new AbortController();
    const calls = server!.requests.length;
    const slow = fetch(`${url}/v1/agent/chat`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${TOKENS.alice}` },
      body: JSON.stringify({ message: 'Please take your time.', conversation_id: 'alice-c2' }),
      signal: leaving.signal,
    }).catch(() => null);
    await waitFor('the slow turn to reach the model', () => server!.arrivedAt.length > calls, { timeoutMs: 30_000 });
    const busy = await chat(url, { message: 'Are you there?', conversation_id: 'alice-c2' }, TOKENS.alice);
    expect(busy.status).toBe(409);
    expect(busy.headers.get('x-conversation-id')).toBe('alice-c2');
    expect(busy.body.error.message).toContain('still running');
    leaving.abort();
    await slow;
  }, 120_000);
});

describe('chat.contexts is checked with the governance (govflow validate)', () => {
  it('names a profile whose agent does not exist or whose context_file is outside context/', async () => {
    const root = makeRoot(
      [
        'timezone: UTC',
        'chat:',
        '  contexts:',
        '    workflow: { agent: no_such_agent }',
        '    tables: { context_file: governance/agents/objective_agent.md }',
        '    orders: { context_file: context/missing.txt }',
        '',
      ].join('\n'),
    );
    const checked = await runCli(['validate', '--root', root]);
    expect(checked.code).not.toBe(0);
    const output = checked.stdout + checked.stderr;
    expect(output).toContain('chat.contexts.workflow.agent: no agent "no_such_agent"');
    expect(output).toContain('chat.contexts.tables.context_file');
    expect(output).toContain('inside context/');
    expect(output).toContain('chat.contexts.orders.context_file: cannot read "context/missing.txt"');
  }, 60_000);
});
