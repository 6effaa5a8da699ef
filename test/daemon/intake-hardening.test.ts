/**
 * Issue 50's attacks on the intake, against a real `govflow start` (SPEC §22, §2): a sender that
 * rewrites an attachment through a descriptor it kept open after the claim changes nothing (the
 * hash, the workspace and the archive all hold the bytes the daemon copied); a hard link is refused
 * and the linked file outside the root is left as it was (never chmodded); a name with a control
 * character or a bidi override is refused naming the file, in a folder and over HTTP, where a part
 * whose header holds a line break is refused by number instead of dropped; `request_id` `.` and
 * `..` are refused, and `GET /v1/requests/..` is a 404.
 */
import { createHash, randomBytes } from 'node:crypto';
import {
  closeSync,
  existsSync,
  ftruncateSync,
  linkSync,
  mkdirSync,
  openSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { httpUrlOf } from '../http/http-test-helpers.js';
import { singleAgentRoot, WORKER_DONE } from '../support/single-agent-root.js';
import { buildDistOnce } from './build-once.js';
import {
  cleanupAll,
  dropJson,
  inboxOf,
  listDir,
  readResults,
  runCli,
  scriptedConfig,
  startDaemon,
  waitFor,
  writeScript,
  type DaemonProcess,
  type ResultFile,
} from './daemon-helpers.js';
import { writeTree } from './attachments-support.js';

const sha256 = (bytes: string | Buffer) => createHash('sha256').update(bytes).digest('hex');

let root: string;
let daemon: DaemonProcess;
let api: string;
const outside: string[] = [];
/** The session of the invoice folder, re-run below. */
let invoiceSession = '';

beforeAll(async () => {
  await buildDistOnce();
  root = singleAgentRoot(
    scriptedConfig(
      [
        'intake:',
        '  settle_ms: 300',
        '  attachments: { max_files: 5, max_bytes: 1048576, inline_bytes: 4096 }',
        'http: { listen: "127.0.0.1:0" }',
        '',
      ].join('\n'),
    ),
  );
  writeScript(root, JSON.stringify({ loop: true, responses: { worker_agent: [{ json: WORKER_DONE }] } }));
  daemon = await startDaemon(root);
  api = httpUrlOf(daemon.readyLine);
}, 180_000);

afterAll(async () => {
  if (daemon && !daemon.hasExited) await daemon.stop();
  for (const file of outside) rmSync(file, { force: true });
  await cleanupAll();
});

type WithAttachments = ResultFile & { attachments?: Array<{ path: string; sha256: string; bytes: number }> };

function waitForResult(sourceFile: string): Promise<WithAttachments> {
  return waitFor(
    `the result of ${sourceFile}`,
    () => readResults(root).find((result) => result.source_file === sourceFile) as WithAttachments | undefined,
    { timeoutMs: 30_000, detail: () => daemon.stderrTail() },
  );
}

function archivedFolder(name: string): Promise<string> {
  const archive = path.join(root, 'system', 'archive');
  return waitFor(
    `${name} in system/archive/`,
    () =>
      listDir(archive)
        .map((day) => path.join(archive, day, name))
        .find((folder) => existsSync(folder)) ?? null,
    { timeoutMs: 10_000 },
  );
}

function failedRecord(name: string): Promise<{ file: string; reason: string }> {
  const failed = path.join(root, 'system', 'failed');
  return waitFor(
    `${name}.error.json in system/failed/`,
    () =>
      existsSync(path.join(failed, `${name}.error.json`))
        ? (JSON.parse(readFileSync(path.join(failed, `${name}.error.json`), 'utf8')) as {
            file: string;
            reason: string;
          })
        : null,
    { timeoutMs: 20_000, detail: () => `failed/: ${listDir(failed).join(', ')}\n${daemon.stderrTail()}` },
  );
}

/** Builds `files` under a hidden name in the inbox; `move()` renames it in (one rename, as SPEC §22 asks). */
function buildFolder(name: string, files: Record<string, string>): { folder: string; move: () => void } {
  const hidden = path.join(inboxOf(root), `.${name}.building`);
  writeTree(hidden, files);
  return { folder: hidden, move: () => renameSync(hidden, path.join(inboxOf(root), name)) };
}

describe('an attachment its sender rewrites after the claim (SPEC §22)', () => {
  it('keeps the bytes the daemon copied: the hash, the workspace and the archive agree, and the session ends', async () => {
    const original = 'Invoice 2026-114\nTotal: 100 EUR\n';
    const forged = 'Invoice 2026-114\nTotal: 999999 EUR\n';
    const { folder, move } = buildFolder('invoice-review', {
      'request.txt': 'Check the attached invoice.\n',
      'invoice.txt': original,
    });
    // The sender keeps a descriptor open across the claim, as the attack did.
    const descriptor = openSync(path.join(folder, 'invoice.txt'), 'r+');
    try {
      move();
      await waitFor('the folder claimed', () => !existsSync(path.join(inboxOf(root), 'invoice-review')), {
        timeoutMs: 20_000,
        intervalMs: 5,
      });
      ftruncateSync(descriptor, 0);
      writeSync(descriptor, forged, 0);
    } finally {
      closeSync(descriptor);
    }
    const result = await waitForResult('invoice-review');
    invoiceSession = result.session_id;
    expect(result.status).toBe('success');
    expect(result.attachments).toEqual([
      { path: 'invoice.txt', sha256: sha256(original), bytes: Buffer.byteLength(original), type: 'text/plain' },
    ]);
    const workspace = path.join(root, 'workspace', result.session_id, 'attachments', 'invoice.txt');
    expect(readFileSync(workspace, 'utf8')).toBe(original);
    const archived = path.join(await archivedFolder('invoice-review'), 'invoice.txt');
    expect(readFileSync(archived, 'utf8')).toBe(original);
    expect(statSync(archived).mode & 0o777).toBe(0o600);
    const sessions = await runCli(['sessions', '--root', root, '--json']);
    expect(JSON.parse(sessions.stdout).sessions.map((session: { session_id: string }) => session.session_id)).toContain(
      result.session_id,
    );
    expect(listDir(path.join(root, 'system', 'processing')).filter((name) => name.includes('invoice-review'))).toEqual(
      [],
    );
  }, 60_000);
});

describe('a re-run whose original attachment changed in its workspace', () => {
  it('goes to system/failed/ naming the attachment, and leaves no claim in processing/ that no session shows', async () => {
    expect(invoiceSession).not.toBe('');
    writeFileSync(path.join(root, 'workspace', invoiceSession, 'attachments', 'invoice.txt'), 'Total: 1 EUR\n');
    const response = await fetch(`${api}/v1/sessions/${invoiceSession}/rerun`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ reason: 'again' }),
    });
    expect(response.status).toBe(202);
    const { request_id: requestId } = (await response.json()) as { request_id: string };
    const record = await failedRecord(`rerun-${requestId}.json`);
    expect(record.reason).toMatch(
      /attachment "invoice\.txt" changed after it was received: .*nothing of the request ran/,
    );
    const processing = path.join(root, 'system', 'processing');
    expect(listDir(processing).filter((name) => name.includes(requestId))).toEqual([]);
  }, 60_000);
});

describe('a hard link in a request folder (SPEC §22)', () => {
  it('refuses the whole folder naming the file, and leaves the linked file outside the root as it was', async () => {
    const secret = path.join(tmpdir(), `govflow-outside-${randomBytes(6).toString('hex')}.txt`);
    outside.push(secret);
    writeFileSync(secret, 'outside the root\n', { mode: 0o644 });
    const { folder, move } = buildFolder('linked-annex', { 'request.txt': 'Read the annex.\n' });
    mkdirSync(path.join(folder, 'annex'));
    linkSync(secret, path.join(folder, 'annex', 'linked.txt'));
    move();
    const record = await failedRecord('linked-annex');
    expect(record.file).toBe('linked-annex');
    expect(record.reason).toMatch(/"annex\/linked\.txt" has 2 hard links/);
    expect(statSync(secret).mode & 0o777).toBe(0o644);
    expect(readResults(root).find((result) => result.source_file === 'linked-annex')).toBeUndefined();
  }, 60_000);
});

describe('names that are no names (SPEC §22, §2)', () => {
  it('refuses a folder whose file name holds a newline or a bidi override, naming the file', async () => {
    buildFolder('newline-name', { 'request.txt': 'Read it.\n', 'inv\noice.txt': 'x' }).move();
    buildFolder('bidi-name', { 'request.txt': 'Read it.\n', 'scan\u202Etxt.exe': 'x' }).move();
    expect((await failedRecord('newline-name')).reason).toContain('"inv\\u000aoice.txt" holds a control character');
    expect((await failedRecord('bidi-name')).reason).toContain('"scan\\u202etxt.exe" holds a Unicode bidi override');
  }, 60_000);

  it('answers 400 naming the part for a multipart file name with a line break, a CRLF or a bidi override', async () => {
    const boundary = '----govflow-hardening-7c1f';
    const body = (filename: string) =>
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="request"\r\n\r\nRead the invoice.\r\n` +
          `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${filename}"\r\n` +
          `Content-Type: text/plain\r\n\r\nTotal: 100 EUR\r\n--${boundary}--\r\n`,
      );
    for (const [filename, expected] of [
      ['inv\noice.txt', /part 2 of the upload \(file name "inv"?.*line break/s],
      ['inv\r\noice.txt', /part 2 of the upload \(file name "inv/],
      ['scan\u202Etxt.exe', /"scan\\u202etxt\.exe" holds a Unicode bidi override/],
    ] as const) {
      const response = await fetch(`${api}/v1/requests`, {
        method: 'POST',
        headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
        body: body(filename),
      });
      const answer = (await response.json()) as { error?: { message: string }; attachments?: unknown };
      expect(response.status, JSON.stringify(filename)).toBe(400);
      expect(answer.error?.message, JSON.stringify(filename)).toMatch(expected);
    }
  });

  it('refuses request_id "." and ".." from a file and over HTTP, and GET /v1/requests/.. is a 404', async () => {
    for (const requestId of ['.', '..']) {
      const posted = await fetch(`${api}/v1/requests`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ request: 'Hello.', request_id: requestId }),
      });
      expect(posted.status, requestId).toBe(400);
      expect(((await posted.json()) as { error: { message: string } }).error.message).toContain('not "." or ".."');
    }
    dropJson(root, 'dot-dot.json', { request: 'Hello.', request_id: '..' });
    expect((await failedRecord('dot-dot.json')).reason).toMatch(/"request_id" "\.\." is not allowed/);
    for (const raw of ['/v1/requests/..', '/v1/requests/%2E%2E', '/v1/requests/.']) {
      const status = await new Promise<number>((resolve, reject) => {
        const url = new URL(api);
        httpRequest({ host: url.hostname, port: url.port, path: raw, method: 'GET' }, (response) => {
          response.resume();
          resolve(response.statusCode ?? 0);
        })
          .on('error', reject)
          .end();
      });
      expect(status, raw).toBe(404);
    }
  });
});
