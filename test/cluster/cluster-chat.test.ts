/**
 * A chat in cluster mode (SPEC §23, §15): two `govflow start --http` daemons on separate roots
 * sharing one Postgres schema, the OpenAI adapter against a loopback server. A conversation started
 * on one daemon is continued on the other: the turn's chat (conversation, context, history) travels
 * with the request in the store, and both list the same turns.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { buildDistOnce } from '../daemon/build-once.js';
import { cleanupAll, makeRoot, startDaemon } from '../daemon/daemon-helpers.js';
import { getJson, httpUrlOf } from '../http/http-test-helpers.js';
import { exampleAppReply } from '../providers/example-app-responder.js';
import { KINDS, providerLines } from '../providers/provider-kinds.js';
import { startResponderLlmServer, type ResponderLlmServer } from '../providers/responder-llm-server.js';
import { pgTestSchema } from '../support/postgres.js';

const pg = await pgTestSchema('chat');
const OPENAI = KINDS.find((kind) => kind.kind === 'openai')!;
let server: ResponderLlmServer | undefined;

beforeAll(() => buildDistOnce(), 240_000);
afterEach(async () => {
  await cleanupAll();
  await server?.close();
  server = undefined;
});
afterAll(async () => {
  await cleanupAll();
  await pg?.drop();
});

function clusterRoot(): string {
  return makeRoot(
    [
      'timezone: UTC',
      'http: { listen: "127.0.0.1:0" }',
      ...providerLines(OPENAI, server!.url + OPENAI.basePath),
      `store: { kind: postgres, url: "${pg!.url}", schema: ${pg!.schema} }`,
      '',
    ].join('\n'),
    'govflow-cluster-chat-',
  );
}

/** Posts a chat message and reads the whole stream; returns the headers and the text after the last message_start. */
async function chat(url: string, body: unknown): Promise<{ status: number; headers: Headers; text: string }> {
  const response = await fetch(`${url}/v1/agent/chat`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const raw = await response.text();
  const frames = raw
    .split('\n\n')
    .map((frame) => frame.split('\n').filter((line) => line !== '' && !line.startsWith(':')))
    .filter((lines) => lines.length === 2);
  const events = frames.map((lines) => ({ event: lines[0].slice(7), data: JSON.parse(lines[1].slice(6)) }));
  const last = events.map((event) => event.event).lastIndexOf('message_start');
  const text = events
    .slice(last + 1)
    .filter((event) => event.event === 'content_chunk')
    .map((event) => event.data.chunk as string)
    .join('');
  return { status: response.status, headers: response.headers, text };
}

describe.skipIf(!pg)('a chat conversation across the daemons of a cluster', () => {
  it('continues on another daemon a conversation started on one, with its history and context', async () => {
    server = await startResponderLlmServer(({ system }) => exampleAppReply(system));
    const env = { [OPENAI.keyEnv]: OPENAI.key };
    const first = await startDaemon(clusterRoot(), { env, readyTimeoutMs: 30_000 });
    const second = await startDaemon(clusterRoot(), { env, readyTimeoutMs: 30_000 });
    const [urlA, urlB] = [httpUrlOf(first.readyLine), httpUrlOf(second.readyLine)];

    const opened = await chat(urlA, {
      message: 'Summarize the weekly sync.',
      context_type: 'workflow',
      context: { workflow_id: 'wf-1', summary: '3 actions' },
      conversation_id: 'cluster-conv-1',
    });
    expect(opened.status).toBe(200);
    const firstResult = (await getJson(`${urlB}/v1/requests/${opened.headers.get('x-request-id')}`)).body;
    expect(firstResult).toMatchObject({ status: 'success', conversation_id: 'cluster-conv-1', conversation_turn: 0 });
    expect(opened.text).toBe(firstResult.answer);

    const calls = server.requests.length;
    const followed = await chat(urlB, { message: 'Who owns the release notes?', conversation_id: 'cluster-conv-1' });
    expect(followed.status).toBe(200);
    const secondResult = (await getJson(`${urlA}/v1/requests/${followed.headers.get('x-request-id')}`)).body;
    expect(secondResult).toMatchObject({ conversation_id: 'cluster-conv-1', conversation_turn: 1 });
    // Its entry agent saw the first turn, whichever daemon ran it.
    const entryPrompt = JSON.stringify(server.requests[calls].body);
    expect(entryPrompt).toContain('User: Summarize the weekly sync.');
    expect(entryPrompt).toContain(JSON.stringify(`Assistant: ${firstResult.answer}`).slice(1, 40));

    for (const url of [urlA, urlB]) {
      const conversation = (await getJson(`${url}/v1/conversations/cluster-conv-1`)).body;
      expect(conversation.turns.map((turn: any) => [turn.message, turn.status])).toEqual([
        ['Summarize the weekly sync.', 'success'],
        ['Who owns the release notes?', 'success'],
      ]);
    }
    const chain = await pg!.query<{ entry: string }>('select entry from audit_entries order by position');
    expect(chain.filter((row) => row.entry.includes('[CHAT_CONTEXT]: {"type":"workflow"'))).toHaveLength(1);
    await first.stop();
    await second.stop();
  }, 180_000);

  it('takes one of the first messages sent to both daemons at once; the others are 409s', async () => {
    // The model never answers: the turn taken stays running, so no other message can be a later turn.
    server = await startResponderLlmServer(() => ({ kind: 'hang' }));
    const env = { [OPENAI.keyEnv]: OPENAI.key };
    const first = await startDaemon(clusterRoot(), { env, readyTimeoutMs: 30_000 });
    const second = await startDaemon(clusterRoot(), { env, readyTimeoutMs: 30_000 });
    const urls = [httpUrlOf(first.readyLine), httpUrlOf(second.readyLine)];
    for (const conversation of ['race-1', 'race-2', 'race-3']) {
      const controller = new AbortController();
      // Each daemon alone lets one message of a conversation through at a time; two daemons used to take one each.
      const answers = await Promise.all(
        [0, 1, 0, 1].map((daemon, index) =>
          fetch(`${urls[daemon]}/v1/agent/chat`, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ message: `message ${index}`, conversation_id: conversation }),
            signal: controller.signal,
          }),
        ),
      );
      const refusals = answers.filter((answer) => answer.status === 409);
      expect(answers.map((answer) => answer.status).sort()).toEqual([200, 409, 409, 409]);
      for (const refusal of refusals)
        expect(((await refusal.json()) as { error: { message: string } }).error.message).toMatch(
          new RegExp(`^conversation "${conversation}": `),
        );
      controller.abort();
      const turns = await pg!.query<{ turn: string }>(
        `select request->'chat'->>'turn' as turn from sessions where request->'chat'->>'conversation_id' = $1`,
        [conversation],
      );
      expect(turns).toEqual([{ turn: '0' }]);
    }
  }, 120_000);
});
