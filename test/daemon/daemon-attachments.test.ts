/**
 * Requests with files (SPEC §22) end to end: one real `govflow start` with its HTTP API, talking
 * to a loopback server in OpenAI's wire format that records every request. Request folders moved
 * in by one rename or copied in slowly, every refusal (the whole folder to system/failed/, nothing
 * of it at the model), multipart uploads within and past the limits, the attachments in the
 * workspace (read_file and list_files see them, write_file is refused), on the first audit entry,
 * in the result and on the web page, the text ones inline and redacted for the entry agent only.
 */
import { execFileSync } from 'node:child_process';
import { request } from 'node:http';
import { existsSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toolResultsOf } from '../llm/loopback-wire.js';
import type { ScriptedReply } from '../llm/loopback-llm-server.js';
import { agentOf, exampleAppReply } from '../providers/example-app-responder.js';
import { startResponderLlmServer, systemPromptOf, type ResponderLlmServer } from '../providers/responder-llm-server.js';
import { httpUrlOf } from '../http/http-test-helpers.js';
import { buildDistOnce } from './build-once.js';
import {
  cleanupAll,
  inboxOf,
  listDir,
  makeRoot,
  readAuditEntries,
  readResult,
  readResults,
  runCli,
  startDaemon,
  waitFor,
  type DaemonProcess,
  type ResultFile,
} from './daemon-helpers.js';
import { binaryBytes, dropFolder, expectedList, sha256, treeOf, userTextOf, writeTree } from './attachments-support.js';

const EMAIL = 'jane.doe@example.com';
const IBAN = 'GB82 WEST 1234 5698 7654 32';
const TOOLS_TAG = 'PLEASE-USE-TOOLS';
const REFUSED = 'REFUSED-MARKER-7c1f';

let server: ResponderLlmServer;
let root: string;
let daemon: DaemonProcess;
let api: string;

/** The example app's answers; the entry agent first calls the file tools when the request asks for it. */
function responder(request: { body: any; system: string }): ScriptedReply {
  const agent = agentOf(request.system);
  if (
    agent === 'objective_agent' &&
    userTextOf(request.body).includes(TOOLS_TAG) &&
    toolResultsOf(request.body).length === 0
  )
    return {
      kind: 'tool_calls',
      calls: [
        { id: 'call_read', name: 'read_file', arguments: JSON.stringify({ path: 'attachments/notes/contact.txt' }) },
        { id: 'call_list', name: 'list_files', arguments: JSON.stringify({ path: 'attachments' }) },
        {
          id: 'call_write',
          name: 'write_file',
          arguments: JSON.stringify({ path: 'attachments/contract.pdf', content: 'overwritten' }),
        },
      ],
    };
  return exampleAppReply(request.system);
}

beforeAll(async () => {
  await buildDistOnce();
  server = await startResponderLlmServer(responder);
  root = makeRoot(
    [
      'timezone: UTC',
      'provider:',
      '  kind: openai',
      '  model: gpt-4.1-mini',
      `  base_url: ${JSON.stringify(`${server.url}/v1`)}`,
      'intake:',
      '  settle_ms: 1500',
      '  attachments: { max_files: 3, max_bytes: 1048576, inline_bytes: 4096 }',
      'pii: { redact: [email, iban] }',
      // The body bound of JSON requests; uploads are bounded by intake.attachments instead.
      'http: { listen: "127.0.0.1:0", max_body_bytes: 4096 }',
      '',
    ].join('\n'),
    'govflow-attachments-',
  );
  const objective = path.join(root, 'governance', 'agents', 'objective_agent.md');
  writeFileSync(
    objective,
    readFileSync(objective, 'utf8').replace(
      'entry: true\n',
      'entry: true\ntools: [read_file, list_files, write_file]\n',
    ),
  );
  daemon = await startDaemon(root, { env: { OPENAI_API_KEY: 'sk-loopback-attachments' } });
  api = httpUrlOf(daemon.readyLine);
}, 180_000);

afterAll(async () => {
  if (daemon && !daemon.hasExited) await daemon.stop();
  await server?.close();
  await cleanupAll();
});

function resultFrom(sourceFile: string): ResultFile | undefined {
  return readResults(root).find((result) => result.source_file === sourceFile);
}

async function waitForResult(sourceFile: string): Promise<ResultFile & { attachments?: unknown }> {
  return waitFor(`the result of ${sourceFile}`, () => resultFrom(sourceFile), {
    timeoutMs: 30_000,
    detail: () => daemon.stderrTail(),
  });
}

/** The request folder in system/archive/: moved there just after the result is written, so waited for. */
function archivedFolder(name: string): Promise<string> {
  const archive = path.join(root, 'system', 'archive');
  return waitFor(
    `${name} in system/archive/`,
    () =>
      listDir(archive)
        .map((day) => path.join(archive, day, name))
        .find((folder) => existsSync(folder)) ?? null,
    { timeoutMs: 10_000, detail: () => listDir(archive).join(', ') },
  );
}

describe('a request folder moved in by one rename', () => {
  const files = {
    'request.txt': `Summarise the attached contract. ${TOOLS_TAG}\n`,
    'contract.pdf': binaryBytes(200_000),
    'notes/contact.txt': `Call Jane at ${EMAIL} about the transfer to ${IBAN}.\n`,
    'tables/data.csv': `id,amount\n${'1,100\n'.repeat(1000)}`,
  };
  let result: ResultFile & { attachments?: unknown };
  let firstRequest = 0;

  beforeAll(async () => {
    firstRequest = server.requests.length;
    dropFolder(root, 'contract-review', files);
    result = await waitForResult('contract-review');
  }, 60_000);

  it('runs one session whose result, first audit entry, logs and web page list the attachments with their hashes', async () => {
    expect(result.status).toBe('success');
    const list = expectedList(files);
    expect(list.map((file) => file.type)).toEqual(['application/pdf', 'text/plain', 'text/csv']);
    expect(result.attachments).toEqual(list);

    const entries = (await readAuditEntries(root, ['--session', result.session_id])) as unknown as Array<
      Record<string, unknown>
    >;
    expect(entries[0].sequence).toBe(1);
    expect(entries[0].attachments).toEqual(list);
    expect(entries.slice(1).every((entry) => entry.attachments === undefined)).toBe(true);
    const logs = await runCli(['logs', '--root', root, '--session', result.session_id]);
    expect(logs.code).toBe(0);
    expect(logs.stdout).toContain(`[ATTACHMENTS]: ${JSON.stringify(list)}`);
    expect((await runCli(['verify', '--root', root])).code).toBe(0);

    const page = await fetch(`${api}/ui/sessions/${result.session_id}`);
    const html = await page.text();
    expect(page.status).toBe(200);
    expect(html).toContain('Attachments');
    for (const file of list) {
      expect(html).toContain(file.sha256);
      expect(html).toContain(file.path);
    }
    const report = readFileSync(path.join(root, 'system', 'outbox', `${result.request_id}.md`), 'utf8');
    expect(report).toContain(list[0].sha256);
  });

  it('copies them into the workspace as delivered, mode 0600: read_file and list_files see them, write_file is refused', async () => {
    const workspace = treeOf(path.join(root, 'workspace', result.session_id, 'attachments'));
    expect([...workspace.keys()].sort()).toEqual(['contract.pdf', 'notes/contact.txt', 'tables/data.csv']);
    for (const [relative, { bytes, mode }] of workspace) {
      expect(bytes.equals(Buffer.from(files[relative as keyof typeof files])), relative).toBe(true);
      expect(mode, relative).toBe(0o600);
    }
    const calls = server.requests.slice(firstRequest).filter((request) => toolResultsOf(request.body).length > 0);
    expect(calls).toHaveLength(1);
    const [read, list, write] = toolResultsOf(calls[0].body);
    expect(read).toContain('Call Jane at [EMAIL_1]');
    expect(read).not.toContain(EMAIL);
    expect(list).toContain('contract.pdf 200000');
    expect(list).toContain('notes/');
    expect(write).toContain('attachments/');
    expect(write).toContain('never written');
    // The archived request keeps the attachments as delivered (0600); its request file is there too.
    const archived = treeOf(await archivedFolder('contract-review'));
    expect(archived.get('contract.pdf')!.bytes.equals(files['contract.pdf'])).toBe(true);
    expect(archived.get('contract.pdf')!.mode).toBe(0o600);
    expect(archived.get('notes/contact.txt')!.bytes.toString()).toContain(EMAIL);
    expect(archived.get('request.txt')!.bytes.toString()).toBe(files['request.txt']);
  });

  it('lists them for every agent and gives the entry agent the text ones inline, redacted, within inline_bytes', () => {
    const requests = server.requests.slice(firstRequest);
    const byAgent = new Map<string, string[]>();
    for (const request of requests) {
      const agent = agentOf(systemPromptOf(request.body));
      byAgent.set(agent ?? '?', [...(byAgent.get(agent ?? '?') ?? []), userTextOf(request.body)]);
    }
    expect([...byAgent.keys()].sort()).toEqual(
      [
        'action_item_agent',
        'final_output_agent',
        'goal_agent',
        'objective_agent',
        'planning_agent',
        'summarizer_agent',
      ].sort(),
    );
    for (const [agent, prompts] of byAgent)
      for (const prompt of prompts) {
        expect(prompt, agent).toContain('- attachments/contract.pdf (200000 bytes, application/pdf)');
        expect(prompt, agent).toContain('- attachments/notes/contact.txt (');
        if (agent !== 'objective_agent') expect(prompt, agent).not.toContain('[ATTACHMENT:');
      }
    const entry = byAgent.get('objective_agent')![0];
    expect(entry).toContain(
      '[ATTACHMENT: attachments/notes/contact.txt]\nCall Jane at [EMAIL_1] about the transfer to [IBAN_1].',
    );
    expect(entry).toMatch(/\[ATTACHMENT: attachments\/tables\/data\.csv \(the first \d+ of 6010 bytes\)\]/);
    expect(entry).not.toContain('[ATTACHMENT: attachments/contract.pdf');
    const inline = entry.slice(entry.indexOf('[ATTACHMENT:'));
    expect(Buffer.byteLength(inline.replace(/\[(END OF )?ATTACHMENT:[^\]]*\]\n?/g, ''))).toBeLessThanOrEqual(4096 + 8);
    // No original value reached the model, the journal, the audit log or the daemon's log; the vault keeps them.
    for (const request of requests) {
      expect(JSON.stringify(request.body)).not.toContain(EMAIL);
      expect(JSON.stringify(request.body)).not.toContain(IBAN);
    }
    const sessionFolder = path.join(root, 'system', 'sessions', result.session_id);
    expect(readFileSync(path.join(sessionFolder, 'journal.jsonl'), 'utf8')).not.toContain(EMAIL);
    expect(readFileSync(path.join(sessionFolder, 'pii-vault.json'), 'utf8')).toContain(EMAIL);
    for (const log of listDir(path.join(root, 'system', 'logs')).filter((name) => name.endsWith('.log')))
      expect(readFileSync(path.join(root, 'system', 'logs', log), 'utf8')).not.toContain(EMAIL);
    expect(daemon.stderr).not.toContain(EMAIL);
  });
});

describe('a request folder copied in slowly, with no rename', () => {
  it('is taken only once it stops changing, with every byte of its attachment', async () => {
    const folder = path.join(inboxOf(root), 'slow-copy');
    const chunks = Array.from({ length: 8 }, (_, index) => binaryBytes(8192, index + 11));
    mkdirSync(folder);
    writeFileSync(path.join(folder, 'request.txt'), 'Summarise the scanned pages.\n');
    const scan = path.join(folder, 'scan.bin');
    for (const chunk of chunks) {
      writeFileSync(scan, chunk, { flag: 'a' });
      await sleep(200); // the copier's pace, not a wait for the daemon
      expect(existsSync(folder), 'claimed while still being written').toBe(true);
    }
    const result = (await waitForResult('slow-copy')) as ResultFile & { attachments: Array<{ sha256: string }> };
    expect(result.status).toBe('success');
    expect(result.attachments).toEqual([
      { path: 'scan.bin', sha256: sha256(Buffer.concat(chunks)), bytes: 8 * 8192, type: 'application/octet-stream' },
    ]);
  }, 60_000);
});

describe('a folder that is no request folder', () => {
  it('moves whole to system/failed/ with a reason saying what to fix, and nothing of it reaches a model', async () => {
    const firstRequest = server.requests.length;
    const marker = (name: string) => `${REFUSED} ${name}`;
    const cases: Array<{ name: string; build: (folder: string) => void; reason: RegExp }> = [
      {
        name: 'no-request',
        build: (folder) => writeTree(folder, { 'contract.txt': marker('no-request') }),
        reason: /no request file: put the request in request\.txt, request\.md, request\.json/,
      },
      {
        name: 'two-requests',
        build: (folder) =>
          writeTree(folder, {
            'request.txt': marker('two'),
            'request.json': JSON.stringify({ request: marker('two') }),
          }),
        reason: /several request files \(request\.json, request\.txt\): keep exactly one/,
      },
      {
        name: 'with-link',
        build: (folder) => {
          writeTree(folder, { 'request.txt': marker('link'), 'annex/real.txt': marker('link') });
          symlinkSync('/etc/hostname', path.join(folder, 'annex', 'linked.txt'));
        },
        reason: /"annex\/linked\.txt" is a symbolic link/,
      },
      {
        name: 'with-fifo',
        build: (folder) => {
          writeTree(folder, { 'request.txt': marker('fifo') });
          execFileSync('mkfifo', [path.join(folder, 'pipe')]);
        },
        reason: /"pipe" is not a regular file/,
      },
      {
        name: 'not-utf8',
        build: (folder) => {
          writeTree(folder, { 'request.txt': marker('utf8') });
          writeFileSync(
            Buffer.concat([Buffer.from(`${folder}/scan-`), Buffer.from([0xff, 0xfe]), Buffer.from('.pdf')]),
            'x',
          );
        },
        reason: /the name "scan-\\xff\\xfe\.pdf" in the folder is not UTF-8/,
      },
      {
        name: 'too-many-files',
        build: (folder) =>
          writeTree(folder, { 'request.txt': marker('many'), 'a.txt': 'a', 'b.txt': 'b', 'c.txt': 'c', 'd.txt': 'd' }),
        reason: /more than 3 attachments, over intake\.attachments\.max_files/,
      },
      {
        name: 'too-many-bytes',
        build: (folder) => writeTree(folder, { 'request.txt': marker('bytes'), 'big.bin': binaryBytes(1_048_577) }),
        reason: /over 1048576 bytes in all \(intake\.attachments\.max_bytes\)/,
      },
      {
        name: 'reply-inside',
        build: (folder) =>
          writeTree(folder, { 'request.json': JSON.stringify({ session_id: 'sess-x', reply: marker('reply') }) }),
        reason: /is a reply to a paused session/,
      },
      {
        name: 'empty-request',
        build: (folder) => writeTree(folder, { 'request.md': '  \n', 'notes.txt': marker('empty') }),
        reason: /its request\.md: the file is empty/,
      },
    ];
    for (const { name, build } of cases) {
      const hidden = path.join(inboxOf(root), `.${name}.building`);
      build(hidden);
      execFileSync('mv', [hidden, path.join(inboxOf(root), name)]);
    }
    const failed = path.join(root, 'system', 'failed');
    await waitFor(
      'every folder refused',
      () => cases.every(({ name }) => existsSync(path.join(failed, `${name}.error.json`))),
      {
        timeoutMs: 20_000,
        detail: () => `failed/: ${listDir(failed).join(', ')}\n${daemon.stderrTail()}`,
      },
    );
    for (const { name, reason } of cases) {
      const record = JSON.parse(readFileSync(path.join(failed, `${name}.error.json`), 'utf8'));
      expect(record.file).toBe(name);
      expect(record.reason, name).toMatch(reason);
      // Whole: the folder and everything in it, as it was.
      expect(readdirSync(path.join(failed, name)).length, name).toBeGreaterThan(0);
      expect(resultFrom(name), name).toBeUndefined();
    }
    expect(existsSync(path.join(failed, 'with-link', 'annex', 'real.txt'))).toBe(true);
    expect(listDir(inboxOf(root)).filter((name) => !name.startsWith('.'))).toEqual([]);
    // Each refused whole at intake (in failed/, the inbox empty): no session holds them, so no model call can.
    for (const request of server.requests.slice(firstRequest))
      expect(JSON.stringify(request.body)).not.toContain(REFUSED);
  }, 60_000);
});

/** A multipart body by hand, for file names fetch's FormData would not send as given. */
function rawMultipart(parts: Array<{ name: string; filename?: Buffer; type?: string; content: Buffer | string }>): {
  body: Buffer;
  type: string;
} {
  const boundary = '----govflow-test-boundary-5f2a';
  const chunks: Buffer[] = [];
  for (const part of parts) {
    const filename = part.filename
      ? Buffer.concat([Buffer.from('; filename="'), part.filename, Buffer.from('"')])
      : Buffer.alloc(0);
    chunks.push(
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${part.name}"`),
      filename,
      Buffer.from(
        `\r\n${part.filename ? 'Content-Type: application/octet-stream\r\n' : part.type ? `Content-Type: ${part.type}\r\n` : ''}\r\n`,
      ),
      Buffer.from(part.content),
      Buffer.from('\r\n'),
    );
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { body: Buffer.concat(chunks), type: `multipart/form-data; boundary=${boundary}` };
}

async function postForm(form: FormData): Promise<{ status: number; body: any }> {
  const response = await fetch(`${api}/v1/requests`, { method: 'POST', body: form });
  return { status: response.status, body: await response.json() };
}

describe('POST /v1/requests as multipart/form-data', () => {
  it('streams the files to disk and runs them as a request folder: up to max_files, past http.max_body_bytes', async () => {
    const files = {
      'contract.pdf': binaryBytes(100_000, 3),
      'annex/prices.csv': 'item,price\nwidget,4\n',
      'notes.md': '# Notes\nRenewal in May.\n',
    };
    const form = new FormData();
    form.append('request', 'Summarise the attached contract (uploaded).');
    for (const [name, content] of Object.entries(files)) form.append('file', new Blob([content]), name);
    const posted = await postForm(form);
    expect(posted.status, JSON.stringify(posted.body)).toBe(202);
    expect(posted.body).toMatchObject({ status: 'queued', request_id: expect.any(String) });
    const requestId = posted.body.request_id as string;
    const result = await waitFor('the uploaded result', () => readResult(root, requestId), { timeoutMs: 30_000 });
    expect(result.status).toBe('success');
    expect(result.source_file).toBe(`http-${requestId}`);
    expect((result as unknown as { attachments: unknown }).attachments).toEqual(expectedList(files));
    const archived = treeOf(await archivedFolder(`http-${requestId}`));
    expect(archived.get('annex/prices.csv')!.bytes.toString()).toBe(files['annex/prices.csv']);
    expect(archived.get('contract.pdf')!.mode).toBe(0o600);
    expect(JSON.parse(archived.get('request.json')!.bytes.toString())).toMatchObject({
      request: 'Summarise the attached contract (uploaded).',
      request_id: requestId,
      user: 'local',
    });
    const served = await fetch(`${api}/v1/requests/${requestId}`);
    expect(((await served.json()) as { attachments: unknown }).attachments).toEqual(expectedList(files));
  }, 60_000);

  it('takes a request part in the JSON shape of §2 (request_id, metadata), and answers 409 for a duplicate id', async () => {
    const form = () => {
      const data = new FormData();
      data.append(
        'request',
        JSON.stringify({ request: 'Check the annex.', request_id: 'upload-json-1', metadata: { ticket: 7 } }),
      );
      data.append('file', new Blob(['annex text']), 'annex.txt');
      return data;
    };
    const first = await postForm(form());
    expect(first.status, JSON.stringify(first.body)).toBe(202);
    expect(first.body.request_id).toBe('upload-json-1');
    const again = await postForm(form());
    expect(again.status).toBe(409);
    expect(again.body.error.message).toContain('upload-json-1');
    const result = await waitFor('the JSON-shaped upload', () => readResult(root, 'upload-json-1'), {
      timeoutMs: 30_000,
    });
    expect(result.status).toBe('success');
  }, 60_000);

  it('takes a request part sent as application/json as its JSON, and refuses one that is not JSON with 400', async () => {
    const post = async (content: string) => {
      const form = rawMultipart([
        { name: 'request', type: 'application/json', content },
        { name: 'file', filename: Buffer.from('annex.txt'), content: 'annex text' },
      ]);
      const response = await fetch(`${api}/v1/requests`, {
        method: 'POST',
        headers: { 'content-type': form.type },
        body: form.body,
      });
      return { status: response.status, body: (await response.json()) as any };
    };
    // curl -F 'request={...};type=application/json': the parser hands such a part over parsed.
    const typed = await post(JSON.stringify({ request: 'Check the typed annex.', request_id: 'upload-typed-1' }));
    expect(typed.status, JSON.stringify(typed.body)).toBe(202);
    expect(typed.body.request_id).toBe('upload-typed-1');
    const result = await waitFor('the typed upload', () => readResult(root, 'upload-typed-1'), { timeoutMs: 30_000 });
    expect(result.status).toBe('success');
    const archived = treeOf(await archivedFolder('http-upload-typed-1'));
    expect(JSON.parse(archived.get('request.json')!.bytes.toString())).toMatchObject({
      request: 'Check the typed annex.',
    });
    const broken = await post('{"request": broken');
    expect(broken.status).toBe(400);
    expect(broken.body.error.message).toMatch(/^a part sent as application\/json is not valid JSON/);
  }, 60_000);

  it('answers 413 past max_bytes or max_files (attachments only), 400 for a path it cannot keep, and keeps none of it', async () => {
    const firstRequest = server.requests.length;
    const tooBig = new FormData();
    tooBig.append('request', `${REFUSED} big`);
    tooBig.append('file', new Blob([binaryBytes(1_048_577)]), 'big.bin');
    const big = await postForm(tooBig);
    expect(big.status).toBe(413);
    expect(big.body.error).toMatchObject({ code: 'payload_too_large' });
    expect(big.body.error.message).toContain('intake.attachments.max_bytes');

    const tooMany = new FormData();
    tooMany.append('request', `${REFUSED} many`);
    for (const name of ['a.txt', 'b.txt', 'c.txt', 'd.txt']) tooMany.append('file', new Blob([name]), name);
    const many = await postForm(tooMany);
    expect(many.status).toBe(413);
    expect(many.body.error.message).toContain('more than 3 attached files (intake.attachments.max_files)');

    const refusals: Array<[string, RegExp]> = [
      ['../escape.txt', /contains "\.\.", which would lead outside/],
      ['/etc/passwd', /is an absolute path/],
      ['request.txt', /is a request file's name/],
    ];
    for (const [name, reason] of refusals) {
      const form = new FormData();
      form.append('request', `${REFUSED} ${name}`);
      form.append('file', new Blob(['x']), name);
      const answer = await postForm(form);
      expect(answer.status, name).toBe(400);
      expect(answer.body.error.message, name).toMatch(reason);
    }
    const notUtf8 = rawMultipart([
      { name: 'request', content: `${REFUSED} utf8` },
      { name: 'file', filename: Buffer.from([0x73, 0xff, 0x2e, 0x70, 0x64, 0x66]), content: 'x' },
    ]);
    const badName = await fetch(`${api}/v1/requests`, {
      method: 'POST',
      headers: { 'content-type': notUtf8.type },
      body: notUtf8.body,
    });
    expect(badName.status).toBe(400);
    expect(((await badName.json()) as { error: { message: string } }).error.message).toMatch(/is not UTF-8/);
    const noRequest = new FormData();
    noRequest.append('file', new Blob(['x']), 'x.txt');
    const missing = await postForm(noRequest);
    expect(missing.status).toBe(400);
    expect(missing.body.error.message).toContain('no part "request"');

    // A client still sending long after the limit: the rest is read and dropped, then it hears the 413
    // (no broken pipe, no answer held until the connection times out).
    const boundary = '----govflow-long-upload';
    const answer = await new Promise<{ status: number; text: string }>((resolve, reject) => {
      const long = request(`${api}/v1/requests`, {
        method: 'POST',
        headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
      });
      long.on('error', reject).on('response', (response) => {
        let text = '';
        response
          .on('data', (chunk: Buffer) => (text += chunk.toString()))
          .on('end', () => resolve({ status: response.statusCode!, text }));
      });
      long.setTimeout(20_000, () => long.destroy(new Error('no answer within 20 s of a refused 24 MB upload')));
      const head =
        `--${boundary}\r\nContent-Disposition: form-data; name="request"\r\n\r\n${REFUSED} long\r\n--` +
        `${boundary}\r\nContent-Disposition: form-data; name="file"; filename="long.bin"\r\n\r\n`;
      const chunks = [
        Buffer.from(head),
        ...Array.from({ length: 24 }, () => binaryBytes(1_048_576)),
        Buffer.from(`\r\n--${boundary}--\r\n`),
      ];
      pipeline(Readable.from(chunks), long).catch(reject);
    });
    expect(answer.status, answer.text).toBe(413);
    expect(answer.text).toContain('intake.attachments.max_bytes');

    // A client that goes away mid-upload: nothing kept, and no error of govflow's in its log.
    await new Promise<void>((resolve) => {
      const boundary = '----govflow-cut-upload';
      const cut = request(`${api}/v1/requests`, {
        method: 'POST',
        headers: { 'content-type': `multipart/form-data; boundary=${boundary}`, 'content-length': 5_000_000 },
      });
      cut.on('error', () => resolve());
      cut.write(
        `--${boundary}\r\nContent-Disposition: form-data; name="request"\r\n\r\n${REFUSED} cut\r\n--${boundary}\r\n` +
          'Content-Disposition: form-data; name="file"; filename="cut.bin"\r\nContent-Type: application/octet-stream\r\n\r\n',
      );
      cut.write(binaryBytes(200_000), () => setTimeout(() => cut.destroy(), 300));
    });
    // A silence window: neither the daemon's handling of the cut nor a session it would wrongly have
    // started has an event to wait for; an error or a model call would have shown by now.
    await sleep(1_000);
    expect(daemon.stderr).not.toContain('http: request failed');

    // Nothing staged is left behind, nothing was queued, nothing reached the model.
    expect(listDir(path.join(root, 'system', 'processing')).filter((name) => name.startsWith('.upload-'))).toEqual([]);
    for (const request of server.requests.slice(firstRequest))
      expect(JSON.stringify(request.body)).not.toContain(REFUSED);
    expect(readResults(root).some((result) => JSON.stringify(result).includes(REFUSED))).toBe(false);
  }, 60_000);
});
