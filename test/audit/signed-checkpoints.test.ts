/**
 * Evidence that holds up outside the machine (SPEC §16): `govflow keygen`, a daemon that signs
 * checkpoints into system/state/checkpoints and a witness folder, and `govflow verify --key
 * --witness` catching each forgery someone who can rewrite the whole root could make — the newest
 * entries cut and the head record rewritten to match, a whole day replaced by a consistent
 * re-chained copy, checkpoints re-signed with another key — plus a witness that cannot be written
 * never stopping a session, and archived days (retention) still verifying.
 */
import { existsSync, readFileSync, readdirSync, renameSync, statSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { makeTempFolder, removeTempFolders } from '../support/temp-dirs.js';
import { GENESIS_HASH, computeEntryHash } from '../../src/audit/audit-entry-format.js';
import { canonicalJson } from '../../src/message/canonical-json.js';
import { buildDistOnce } from '../daemon/build-once.js';
import { cleanupAll, dropJson, makeRoot, readResult, runCli, startDaemon, waitFor } from '../daemon/daemon-helpers.js';
import { httpUrlOf } from '../http/http-test-helpers.js';

beforeAll(buildDistOnce, 180_000);
afterEach(cleanupAll);
afterAll(cleanupAll);

const keysDir = makeTempFolder('govflow-keys-');
afterAll(removeTempFolders);

async function keygen(name: string): Promise<{ privateKey: string; publicKey: string }> {
  const privateKey = path.join(keysDir, name);
  const made = await runCli(['keygen', '--out', privateKey]);
  expect(made.code, made.stderr).toBe(0);
  return { privateKey, publicKey: `${privateKey}.pub` };
}

/** A root whose daemon signs with `privateKey` into a fresh witness folder; runs `count` requests. */
async function signedRoot(privateKey: string, count: number, extra = ''): Promise<{ root: string; witness: string }> {
  const witness = makeTempFolder('govflow-witness-');
  const root = makeRoot(
    `timezone: UTC\naudit: { signing_key: ${JSON.stringify(privateKey)}, checkpoint_ms: 50, witnesses: [${JSON.stringify(witness)}] }\n${extra}`,
  );
  const daemon = await startDaemon(root);
  // Dropped together: sessions run at once, so entries commit while others sync.
  for (let index = 1; index <= count; index++)
    dropJson(root, `r${index}.json`, { request: `Summarize note ${index}.`, request_id: `signed-${index}` });
  for (let index = 1; index <= count; index++) {
    await waitFor(`result ${index}`, () => readResult(root, `signed-${index}`)?.status === 'success', {
      detail: () => daemon.stderrTail(),
    });
  }
  expect((await daemon.stop()).code).toBe(0);
  return { root, witness };
}

function dayLog(root: string): string {
  const logs = path.join(root, 'system', 'logs');
  return path.join(
    logs,
    readdirSync(logs)
      .filter((name) => name.endsWith('.log'))
      .sort()
      .at(-1)!,
  );
}

const ENTRY_END = /\[ENTRY_HASH: [0-9a-f]{64}\]\n---\n/;

/** The entries' bodies of a log file, in order. */
function bodiesOf(text: string): string[] {
  return text.split(ENTRY_END).filter((body) => body !== '');
}

/** Writes `bodies` as a consistently chained log (what a forger with the whole root can do) and the head record to match. */
function writeChained(root: string, file: string, bodies: string[]): void {
  let previous = GENESIS_HASH;
  let text = '';
  for (const body of bodies) {
    previous = computeEntryHash(previous, body);
    text += `${body}[ENTRY_HASH: ${previous}]\n---\n`;
  }
  writeFileSync(file, text);
  const headFile = path.join(root, 'system', 'state', 'audit-head.json');
  const head = JSON.parse(readFileSync(headFile, 'utf8')) as Record<string, unknown>;
  const messageId = /\[MESSAGE_ID: (.*)\]/.exec(bodies.at(-1)!)![1];
  writeFileSync(headFile, JSON.stringify({ ...head, entries: bodies.length, hash: previous, message_id: messageId }));
}

describe('govflow keygen', () => {
  it('writes a PKCS#8 private key with mode 0600 and its SPKI public key, and keeps existing files', async () => {
    const { privateKey, publicKey } = await keygen('keygen.key');
    expect(readFileSync(privateKey, 'utf8')).toMatch(/^-----BEGIN PRIVATE KEY-----/);
    expect(statSync(privateKey).mode & 0o777).toBe(0o600);
    expect(readFileSync(publicKey, 'utf8')).toMatch(/^-----BEGIN PUBLIC KEY-----/);
    const again = await runCli(['keygen', '--out', privateKey]);
    expect(again.code).toBe(2);
    expect(again.stderr).toMatch(/exists/);
  });

  it("makes the key file's folder when it does not exist yet", async () => {
    const { privateKey } = await keygen(path.join('new-folder', 'nested', 'audit.key'));
    expect(statSync(privateKey).mode & 0o777).toBe(0o600);
    expect(statSync(path.dirname(privateKey)).mode & 0o777).toBe(0o700);
  });
});

describe('signed checkpoints and verify --key', () => {
  it('signs checkpoints into the state folder and the witness; verify --key holds them against the logs', async () => {
    const { privateKey, publicKey } = await keygen('daemon.key');
    const { root, witness } = await signedRoot(privateKey, 4);
    const files = readdirSync(path.join(root, 'system', 'state', 'checkpoints'));
    expect(files).toHaveLength(1);
    expect(files[0]).toMatch(/^\d{8}\.jsonl$/);
    const lines = readFileSync(path.join(root, 'system', 'state', 'checkpoints', files[0]), 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    const last = lines.at(-1);
    expect(Object.keys(last).sort()).toEqual(['at', 'day', 'entries', 'hash', 'key', 'sig']);
    expect(last.entries).toBe(24);
    expect(last.day).toBe(files[0].slice(0, 8));
    // The last checkpoint covers the last entry of the logs.
    expect(readFileSync(dayLog(root), 'utf8')).toContain(`[ENTRY_HASH: ${last.hash}]`);
    // Its signature is over the canonical JSON of the other fields.
    const { sig: _sig, ...fields } = last;
    expect(canonicalJson(fields)).toBe(
      `{"at":${JSON.stringify(last.at)},"day":"${last.day}","entries":24,"hash":"${last.hash}","key":"${last.key}"}`,
    );
    expect(readFileSync(path.join(witness, files[0]), 'utf8')).toBe(
      readFileSync(path.join(root, 'system', 'state', 'checkpoints', files[0]), 'utf8'),
    );

    const verified = await runCli(['verify', '--root', root, '--key', publicKey, '--witness', witness]);
    expect(verified.code, verified.stdout).toBe(0);
    expect(verified.stdout).toMatch(/audit chain intact: 24 entries/);
    expect(verified.stdout).toMatch(/signed checkpoints hold: \d+ checked in 2 places, the newest covering 24 entries/);
  }, 60_000);

  it('reports cut entries with a rewritten head record, naming the witness checkpoint', async () => {
    const { privateKey, publicKey } = await keygen('cut.key');
    const { root, witness } = await signedRoot(privateKey, 2);
    const file = dayLog(root);
    writeChained(root, file, bodiesOf(readFileSync(file, 'utf8')).slice(0, 6));
    // The plain chain check cannot see it: the forgery is consistent.
    expect((await runCli(['verify', '--root', root])).code).toBe(0);
    // Neither can the root's own checkpoints once the forger removed them.
    const checked = await runCli(['verify', '--root', root, '--key', publicKey, '--witness', witness]);
    expect(checked.code).toBe(1);
    // The first checkpoint past the cut is named (how many entries it covers depends on when it was signed).
    expect(checked.stdout).toMatch(
      /signed checkpoint contradicted at .*\.jsonl:\d+: checkpoint of \d{8} \((\d+) entries, signed .*\): the logs hold only 6 entries: the last \d+ were cut/,
    );
  }, 60_000);

  it('reports a day replaced by a consistent re-chained copy', async () => {
    const { privateKey, publicKey } = await keygen('replaced.key');
    const { root, witness } = await signedRoot(privateKey, 1);
    const file = dayLog(root);
    const bodies = bodiesOf(readFileSync(file, 'utf8'));
    bodies[2] = bodies[2].replace(/\[STATUS: success\] [^\n]*/, '[STATUS: success] nothing to see here');
    writeChained(root, file, bodies);
    expect((await runCli(['verify', '--root', root])).code).toBe(0);
    const checked = await runCli(['verify', '--root', root, '--key', publicKey, '--witness', witness]);
    expect(checked.code).toBe(1);
    // The first checkpoint at or past the edited third entry is named (when it was signed depends on the load).
    expect(checked.stdout).toMatch(
      /entry [3-6] of the logs has another hash than the signed [0-9a-f]{64}: entries up to it were replaced/,
    );
  }, 60_000);

  it('reports checkpoints re-signed with another key', async () => {
    const { publicKey } = await keygen('real.key');
    const forger = await keygen('forger.key');
    const { root, witness } = await signedRoot(forger.privateKey, 1);
    const checked = await runCli(['verify', '--root', root, '--key', publicKey, '--witness', witness]);
    expect(checked.code).toBe(1);
    expect(checked.stdout).toMatch(/signed by another key .*: it was forged or re-signed/);
  }, 60_000);

  it('reports a witness ahead of the logs (the whole newest day removed, head rewritten)', async () => {
    const { privateKey, publicKey } = await keygen('ahead.key');
    const { root, witness } = await signedRoot(privateKey, 1);
    const file = dayLog(root);
    writeChained(root, file, bodiesOf(readFileSync(file, 'utf8')).slice(0, 5));
    const checked = await runCli(['verify', '--root', root, '--key', publicKey, '--witness', witness]);
    expect(checked.code).toBe(1);
    expect(checked.stdout).toMatch(/the logs hold only 5 entries/);
  }, 60_000);

  it('keeps running sessions when the witness cannot be written, and says so in its log', async () => {
    const { privateKey } = await keygen('stuck.key');
    // A witness "folder" below a regular file: no process, root included, can create it.
    const blocker = path.join(makeTempFolder('govflow-blocked-'), 'file');
    writeFileSync(blocker, 'not a folder');
    const root = makeRoot(
      `timezone: UTC\naudit: { signing_key: ${JSON.stringify(privateKey)}, checkpoint_ms: 20, witnesses: [` +
        `${JSON.stringify(path.join(blocker, 'witness'))}] }\n`,
    );
    const daemon = await startDaemon(root);
    for (let index = 1; index <= 2; index++) {
      dropJson(root, `w${index}.json`, { request: `Summarize note ${index}.`, request_id: `stuck-${index}` });
      await waitFor(`result ${index}`, () => readResult(root, `stuck-${index}`)?.status === 'success', {
        detail: () => daemon.stderrTail(),
      });
    }
    await waitFor('the witness warning', () => daemon.stderr.includes('did not take a checkpoint'), {
      detail: () => daemon.stderrTail(),
    });
    // Its backlog shows in status while the daemon runs.
    const status = await waitFor('the witness backlog in status', async () => {
      const run = await runCli(['status', '--root', root]);
      return /witness .*witness: \d+ checkpoints waiting \(last error: .*\)/.test(run.stdout) ? run.stdout : null;
    });
    expect(status).toContain(path.join(blocker, 'witness'));
    expect((await daemon.stop()).code).toBe(0);
    expect(existsSync(path.join(root, 'system', 'state', 'checkpoints'))).toBe(true);
  }, 60_000);

  it('POSTs each checkpoint to an HTTPS-or-HTTP witness, retrying one that failed, with the backlog in /metrics', async () => {
    const { privateKey, publicKey } = await keygen('url.key');
    const received: string[] = [];
    let failFirst = 2;
    const server = http.createServer((request, response) => {
      let body = '';
      request.on('data', (chunk) => (body += chunk));
      request.on('end', () => {
        if (failFirst-- > 0) {
          response.statusCode = 503;
          response.end('busy');
          return;
        }
        received.push(body);
        response.end('ok');
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/checkpoints`;
      const root = makeRoot(
        `timezone: UTC\nhttp: { listen: "127.0.0.1:0" }\naudit: { signing_key: ${JSON.stringify(privateKey)}, checkpoint_ms: 20, witnesses: [` +
          `${JSON.stringify(url)}] }\n`,
      );
      const daemon = await startDaemon(root);
      const api = httpUrlOf(daemon.readyLine);
      dropJson(root, 'u.json', { request: 'Summarize the note.', request_id: 'url-1' });
      await waitFor('the result', () => readResult(root, 'url-1')?.status === 'success', {
        detail: () => daemon.stderrTail(),
      });
      const metrics = await waitFor('the witness gauge', async () => {
        const text = await (await fetch(`${api}/metrics`)).text();
        return text.includes('govflow_witness_pending_checkpoints{') ? text : null;
      });
      expect(metrics).toContain(`govflow_witness_pending_checkpoints{witness="${url}"}`);
      await waitFor(
        'the checkpoints delivered after the failures',
        () => received.some((line) => JSON.parse(line).entries === 6),
        { timeoutMs: 20_000, detail: () => daemon.stderrTail() },
      );
      expect((await daemon.stop()).code).toBe(0);
      const witness = makeTempFolder('govflow-url-witness-');
      writeFileSync(
        path.join(witness, `${JSON.parse(received[0]).day}.jsonl`),
        received.map((line) => `${line}\n`).join(''),
      );
      const verified = await runCli(['verify', '--root', root, '--key', publicKey, '--witness', witness]);
      expect(verified.code, verified.stdout).toBe(0);
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  }, 60_000);

  it('archives days older than keep_days into logs/archive/*.log.gz, which verify --key still reads', async () => {
    const { privateKey, publicKey } = await keygen('retention.key');
    const { root, witness } = await signedRoot(privateKey, 1);
    // Make the day look old: its file renamed to a date far back (the head record follows).
    const logs = path.join(root, 'system', 'logs');
    const file = dayLog(root);
    const oldName = path.join(logs, '20200101.log');
    renameSync(file, oldName);
    const headFile = path.join(root, 'system', 'state', 'audit-head.json');
    writeFileSync(headFile, JSON.stringify({ ...JSON.parse(readFileSync(headFile, 'utf8')), file: '20200101.log' }));
    writeFileSync(
      path.join(root, 'govflow.config.yaml'),
      `timezone: UTC\naudit: { signing_key: ${JSON.stringify(privateKey)}, checkpoint_ms: 20, witnesses: [${JSON.stringify(witness)}], ` +
        `retention: { keep_days: 190 } }\n`,
    );
    // A day written after it; the next start archives the old one (the newest file is never moved).
    const daemon = await startDaemon(root);
    dropJson(root, 'later.json', { request: 'Summarize the later note.', request_id: 'later-1' });
    await waitFor('the later result', () => readResult(root, 'later-1')?.status === 'success', {
      detail: () => daemon.stderrTail(),
    });
    expect((await daemon.stop()).code).toBe(0);
    expect(existsSync(oldName)).toBe(true);
    const again = await startDaemon(root);
    expect((await again.stop()).code).toBe(0);
    expect(existsSync(path.join(logs, 'archive', '20200101.log.gz'))).toBe(true);
    expect(existsSync(oldName)).toBe(false);
    const verified = await runCli(['verify', '--root', root, '--key', publicKey, '--witness', witness]);
    expect(verified.code, verified.stdout).toBe(0);
    expect(verified.stdout).toMatch(/audit chain intact: 12 entries in 2 files/);
  }, 60_000);
});
