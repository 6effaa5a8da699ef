/**
 * A chat turn's context and history keep no PII original anywhere but the vault (SPEC §23 "after PII
 * redaction", §12, §15), files mode and cluster mode alike: `govflow start --http` as a real child
 * process, the OpenAI adapter against a loopback server, `pii: { redact: [email], restore_in_result:
 * true }`. Turn 0's context holds an address and its answer another (restored in its result, so
 * turn 1's history carries it); afterwards no file under system/ but the vaults and the outbox
 * results, and (cluster mode) no column of any table of the store, holds either address. The
 * prompts have the placeholders and `[CHAT_CONTEXT]` hashes the redacted JSON the prompt got.
 */
import { createHash, randomBytes } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { buildDistOnce } from '../daemon/build-once.js';
import { cleanupAll, makeRoot, startDaemon } from '../daemon/daemon-helpers.js';
import { getJson, httpUrlOf } from './http-test-helpers.js';
import { agentOf, answerFor, exampleAppReply } from '../providers/example-app-responder.js';
import { KINDS, providerLines } from '../providers/provider-kinds.js';
import { startResponderLlmServer, type ResponderLlmServer } from '../providers/responder-llm-server.js';
import { pgTestSchema } from '../support/postgres.js';
import { unsealVault } from '../../src/privacy/vault-cipher.js';

const pg = await pgTestSchema('chat_pii');
const OPENAI = KINDS.find((kind) => kind.kind === 'openai')!;
const JANE = 'jane.doe@example.com';
const BOB = 'bob.roe@example.org';
const CAROL = 'carol.poe@example.net';
const KEY = randomBytes(32).toString('hex');
let server: ResponderLlmServer | undefined;

beforeAll(buildDistOnce, 240_000);
afterEach(async () => {
  await cleanupAll();
  await server?.close();
  server = undefined;
});
afterAll(async () => {
  await cleanupAll();
  await pg?.drop();
});

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

/** Every file under `dir`. */
function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const file = path.join(dir, name);
    return statSync(file).isDirectory() ? filesUnder(file) : [file];
  });
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
          : JSON.stringify(content),
    )
    .join('\n');
}

/** Posts a chat message and reads its whole stream; returns its request id. */
async function chat(url: string, body: unknown): Promise<string> {
  const response = await fetch(`${url}/v1/agent/chat`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  await response.text();
  expect(response.status).toBe(200);
  return response.headers.get('x-request-id')!;
}

/** The final agent writes an address of its own; every other agent answers as the example app does. */
function startModel(): Promise<ResponderLlmServer> {
  return startResponderLlmServer((request) => {
    const agent = agentOf(request.system);
    if (agent !== 'final_output_agent') return exampleAppReply(request.system);
    const output = { content: { answer: `Ask ${BOB} about it.` }, content_type: 'final_report' };
    return { kind: 'text', text: JSON.stringify({ ...answerFor(agent), output }) };
  });
}

function chatRoot(extra: string[]): string {
  return makeRoot(
    [
      'timezone: UTC',
      'http: { listen: "127.0.0.1:0" }',
      ...providerLines(OPENAI, server!.url + OPENAI.basePath),
      'chat: { contexts: { workflow: {} } }',
      'pii: { redact: [email], restore_in_result: true }',
      ...extra,
      '',
    ].join('\n'),
    'govflow-chat-pii-',
  );
}

/**
 * Two turns of one conversation on the daemon at `root`; checks the prompts and the
 * audit lines (`[CHAT_CONTEXT]`, `[PII_REDACTED]`), and returns the system/ files that must hold no original.
 */
async function twoTurns(root: string, logLines: () => Promise<string[]>, resultAnswer: string): Promise<string[]> {
  const env = { [OPENAI.keyEnv]: OPENAI.key, GOVFLOW_VAULT_KEY: KEY };
  const daemon = await startDaemon(root, { env, readyTimeoutMs: 30_000 });
  const url = httpUrlOf(daemon.readyLine);

  const first = await chat(url, {
    message: 'Who should hear about this rule?',
    context_type: 'workflow',
    context: { rule: 'Low Stock Alert', owner: { email: JANE }, notes: [`cc ${JANE}`] },
    conversation_id: 'pii-conv',
  });
  const firstResult = (await getJson(`${url}/v1/requests/${first}`)).body;
  expect(firstResult).toMatchObject({ status: 'success', conversation_turn: 0 });
  expect(firstResult.answer).toBe(resultAnswer);
  const entryPrompt = userPromptOf(server!.requests[0].body);
  const contextJson = /\[CHAT CONTEXT: workflow\][^\n]*\n(\{.*\})\n\[END OF CHAT CONTEXT: workflow\]/.exec(
    entryPrompt,
  )![1];
  expect(JSON.parse(contextJson)).toEqual({
    rule: 'Low Stock Alert',
    owner: { email: '[EMAIL_1]' },
    notes: ['cc [EMAIL_1]'],
  });
  // The context's two addresses counted on the entry agent's entry (user input), the answer's on the final agent's.
  expect((await logLines()).filter((line) => line.startsWith('[PII_REDACTED]'))).toEqual([
    '[PII_REDACTED]: {"email":2}',
    '[PII_REDACTED]: {"email":1}',
  ]);
  expect((await logLines()).filter((line) => line.startsWith('[CHAT_CONTEXT]'))).toEqual([
    `[CHAT_CONTEXT]: ${JSON.stringify({ type: 'workflow', sha256: sha256(contextJson), bytes: Buffer.byteLength(contextJson) })}`,
  ]);

  const calls = server!.requests.length;
  const second = await chat(url, {
    message: 'And who owns it?',
    context_type: 'workflow',
    context: { rule: 'Low Stock Alert', owner: { email: JANE } },
    conversation_id: 'pii-conv',
  });
  expect((await getJson(`${url}/v1/requests/${second}`)).body).toMatchObject({
    status: 'success',
    conversation_turn: 1,
  });
  // Turn 1's vault starts from turn 0's: the context's address stays [EMAIL_1], the history's answer [EMAIL_2].
  const followUp = userPromptOf(server!.requests[calls].body);
  expect(followUp).toContain('User: Who should hear about this rule?');
  expect(followUp).toContain('Assistant: Ask [EMAIL_2] about it.');
  expect(followUp).toContain('{"rule":"Low Stock Alert","owner":{"email":"[EMAIL_1]"}}');
  for (const request of server!.requests) {
    const text = JSON.stringify(request.body);
    for (const original of [JANE, BOB]) expect(text).not.toContain(original);
  }
  expect((await daemon.stop()).code).toBe(0);

  const system = path.join(root, 'system');
  const checked = filesUnder(system).filter(
    (file) => !/[/\\]outbox[/\\][^/\\]+\.json$/.test(file) && path.basename(file) !== 'pii-vault.json',
  );
  return checked;
}

function expectNoOriginalIn(files: string[]): void {
  for (const file of files) {
    const text = readFileSync(file).toString('latin1');
    for (const original of [JANE, BOB]) expect(text, file).not.toContain(original);
  }
}

describe('a chat turn keeps no PII original outside the vault', () => {
  it('files mode: no file under system/ but the vault and the outbox results holds one', async () => {
    server = await startModel();
    const root = chatRoot([]);
    const logLines = async () =>
      readdirSync(path.join(root, 'system', 'logs'))
        .filter((name) => name.endsWith('.log'))
        .flatMap((name) => readFileSync(path.join(root, 'system', 'logs', name), 'utf8').split('\n'));

    // Its result has the original back (restore_in_result), and so has the history of turn 1's order.
    const files = await twoTurns(root, logLines, `Ask ${BOB} about it.`);
    // The archived chat requests are among them (their context and history redacted in place).
    const archived = files.filter(
      (file) => /[/\\]archive[/\\]/.test(file) && readFileSync(file, 'utf8').includes('"chat"'),
    );
    expect(archived.length).toBeGreaterThanOrEqual(2);
    expectNoOriginalIn(files);
  }, 180_000);

  it.skipIf(!pg)(
    'cluster mode: no column of any table of the store holds one',
    async () => {
      server = await startModel();
      const root = chatRoot([`store: { kind: postgres, url: "${pg!.url}", schema: ${pg!.schema} }`]);
      const auditLines = async () =>
        (await pg!.query<{ entry: string }>('select entry from audit_entries order by position')).flatMap((row) =>
          row.entry.split('\n'),
        );

      // The store's result is redacted (the outbox's alone is restored): the history has turn 0's placeholder.
      const files = await twoTurns(root, auditLines, 'Ask [EMAIL_2] about it.');
      expectNoOriginalIn(files);

      const tables = await pg!.query<{ table_name: string }>(
        "select table_name from information_schema.tables where table_schema = $1 and table_type = 'BASE TABLE'",
        [pg!.schema],
      );
      expect(tables.map((table) => table.table_name)).toContain('sessions');
      for (const { table_name: table } of tables) {
        for (const row of await pg!.query(`select * from "${table}"`)) {
          for (const [column, value] of Object.entries(row)) {
            const text = Buffer.isBuffer(value) ? value.toString('latin1') : JSON.stringify(value);
            for (const original of [JANE, BOB]) expect(text ?? '', `${table}.${column}`).not.toContain(original);
          }
        }
      }
    },
    180_000,
  );
});

/** The final agent answers turn 0 with Bob's address, and turn 1 with a placeholder for each of the three people. */
function startTwoTurnModel(): Promise<ResponderLlmServer> {
  let finals = 0;
  return startResponderLlmServer((request) => {
    const agent = agentOf(request.system);
    if (agent !== 'final_output_agent') return exampleAppReply(request.system);
    const answer = finals++ === 0 ? `Ask ${BOB} about it.` : 'Jane is [EMAIL_1], Bob is [EMAIL_2], Carol is [EMAIL_3].';
    const output = { content: { answer }, content_type: 'final_report' };
    return { kind: 'text', text: JSON.stringify({ ...answerFor(agent), output }) };
  });
}

/**
 * Turn 0 names Jane (its [EMAIL_1]) and answers with Bob (its [EMAIL_2]); turn 1 names Carol. Turn 1
 * starts from a copy of turn 0's vault: its history's placeholders keep their people, Carol gets a
 * new one, and its restored result names each of the three rightly.
 */
async function placeholdersAcrossTurns(
  root: string,
  vaultOf: (sessionId: string) => Promise<Array<[string, string]>>,
): Promise<void> {
  const env = { [OPENAI.keyEnv]: OPENAI.key, GOVFLOW_VAULT_KEY: KEY };
  const daemon = await startDaemon(root, { env, readyTimeoutMs: 30_000 });
  const url = httpUrlOf(daemon.readyLine);

  const first = await chat(url, { message: `Tell ${JANE} about the Low Stock Alert.`, conversation_id: 'vault-conv' });
  const firstResult = (await getJson(`${url}/v1/requests/${first}`)).body;
  expect(firstResult).toMatchObject({ status: 'success', conversation_turn: 0 });
  expect(userPromptOf(server!.requests[0].body)).toContain('Tell [EMAIL_1] about the Low Stock Alert.');

  const calls = server!.requests.length;
  const second = await chat(url, { message: `Loop in ${CAROL} as well.`, conversation_id: 'vault-conv' });
  const secondResult = (await getJson(`${url}/v1/requests/${second}`)).body;
  expect(secondResult).toMatchObject({ status: 'success', conversation_turn: 1 });
  // One placeholder, one person: the history's keep turn 0's meaning, and Carol's is new.
  const followUp = userPromptOf(server!.requests[calls].body);
  expect(followUp).toContain('User: Tell [EMAIL_1] about the Low Stock Alert.');
  expect(followUp).toContain('Assistant: Ask [EMAIL_2] about it.');
  expect(followUp).toContain('Loop in [EMAIL_3] as well.');
  for (const request of server!.requests) {
    const text = JSON.stringify(request.body);
    for (const original of [JANE, BOB, CAROL]) expect(text).not.toContain(original);
  }
  expect(await vaultOf(firstResult.session_id)).toEqual([
    ['EMAIL_1', JANE],
    ['EMAIL_2', BOB],
  ]);
  expect(await vaultOf(secondResult.session_id)).toEqual([
    ['EMAIL_1', JANE],
    ['EMAIL_2', BOB],
    ['EMAIL_3', CAROL],
  ]);
  // The outbox's result (restore_in_result) puts back the right person for each placeholder.
  const restored = JSON.parse(readFileSync(path.join(root, 'system', 'outbox', `${second}.json`), 'utf8'));
  expect(restored.answer).toBe(`Jane is ${JANE}, Bob is ${BOB}, Carol is ${CAROL}.`);
  expect((await daemon.stop()).code).toBe(0);
}

describe("a conversation's turn starts from its previous turn's vault", () => {
  it('files mode: a placeholder in the history and the new turn stands for one person', async () => {
    server = await startTwoTurnModel();
    const root = chatRoot([]);
    await placeholdersAcrossTurns(root, async (sessionId) => {
      const file = path.join(root, 'system', 'sessions', sessionId, 'pii-vault.json');
      const vault = JSON.parse(readFileSync(file, 'utf8')) as {
        entries: Array<{ placeholder: string; value: string }>;
      };
      return vault.entries.map((entry) => [entry.placeholder, entry.value]);
    });
  }, 180_000);

  it.skipIf(!pg)(
    "cluster mode: the store's sealed vault of turn 1 starts from turn 0's",
    async () => {
      server = await startTwoTurnModel();
      const root = chatRoot([`store: { kind: postgres, url: "${pg!.url}", schema: ${pg!.schema} }`]);
      await placeholdersAcrossTurns(root, async (sessionId) => {
        const rows = await pg!.query<{ sealed: Buffer }>('select sealed from pii_vaults where session_id = $1', [
          sessionId,
        ]);
        return unsealVault(Buffer.from(KEY, 'hex'), sessionId, rows[0].sealed).map((entry) => [
          entry.placeholder,
          entry.value,
        ]);
      });
    },
    180_000,
  );
});
