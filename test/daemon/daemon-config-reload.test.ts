/**
 * Editing govflow.config.yaml under a running `govflow start` (issue 32): `http.tokens` applies at
 * once (so `govflow token add` works without a restart), every other changed key is named in one
 * warning and in `govflow status` as needing a restart, an edit that does not validate is an error
 * naming the file while the daemon goes on with the config it has, and HTTP tokens never change
 * the governance hash.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { buildDistOnce } from './build-once.js';
import {
  cleanupAll,
  dropJson,
  exampleScript,
  makeRoot,
  readResult,
  runCli,
  scriptedConfig,
  startDaemon,
  waitFor,
  writeScript,
  type DaemonProcess,
} from './daemon-helpers.js';
import { getJson, httpUrlOf } from '../http/http-test-helpers.js';

beforeAll(buildDistOnce, 180_000);
afterEach(cleanupAll);
afterAll(cleanupAll);

const HTTP_CONFIG = 'timezone: UTC\nhttp: { listen: "127.0.0.1:0" }\n';

async function governanceHash(root: string): Promise<string> {
  const result = await runCli(['validate', '--root', root]);
  const hash = /governance hash: ([0-9a-f]{64})/.exec(result.stdout)?.[1];
  if (result.code !== 0 || !hash)
    throw new Error(`govflow validate exited ${result.code}:\n${result.stdout}${result.stderr}`);
  return hash;
}

function linesWith(daemon: DaemonProcess, ...parts: string[]): string[] {
  return daemon.stderr.split('\n').filter((line) => parts.every((part) => line.includes(part)));
}

function editConfig(root: string, text: string): void {
  writeFileSync(path.join(root, 'govflow.config.yaml'), text);
}

describe('a config edit under a running daemon', () => {
  it('applies a token from govflow token add at once: a request without a token gets 401, one with it works', async () => {
    const root = makeRoot(HTTP_CONFIG);
    const daemon = await startDaemon(root);
    const url = httpUrlOf(daemon.readyLine);
    expect((await getJson(`${url}/v1/logs`)).status).toBe(200);

    const added = await runCli(['token', 'add', 'alice', '--root', root]);
    expect(added.code).toBe(0);
    const token = added.stdout.trim();
    await waitFor('401 for a request without a token', async () => (await getJson(`${url}/v1/logs`)).status === 401, {
      detail: () => daemon.stderrTail(),
    });
    expect((await getJson(`${url}/v1/logs`, token)).status).toBe(200);
    expect((await getJson(`${url}/v1/logs`, 'gf_not-a-token')).status).toBe(401);
    expect(added.stderr).toMatch(new RegExp(`the running daemon \\(pid ${daemon.pid}\\) picks it up`));
    // Tokens apply live: nothing asks for a restart.
    expect(daemon.stderr).not.toContain('restart the daemon');
    expect((await runCli(['status', '--root', root])).stdout).not.toContain('restart');
    await daemon.stop();
  }, 60_000);

  it('names the keys that need a restart in one warning and in govflow status; an invalid edit is an error and the daemon runs on', async () => {
    const root = makeRoot(scriptedConfig());
    writeScript(root, exampleScript({ loop: true }));
    const daemon = await startDaemon(root);

    editConfig(root, `${scriptedConfig()}limits:\n  max_steps: 7\ndaemon:\n  shutdown_grace_ms: 5000\n`);
    const warning = await waitFor(
      'the restart warning',
      () => linesWith(daemon, 'govflow.config.yaml', 'restart the daemon to apply').at(0),
      { detail: () => daemon.stderrTail() },
    );
    expect(warning).toContain('limits');
    expect(warning).toContain('daemon');
    expect(warning).not.toContain('provider');
    const status = await runCli(['status', '--root', root]);
    expect(status.stdout).toMatch(/restart needed.*limits, daemon/);
    const statusJson = JSON.parse((await runCli(['status', '--root', root, '--json'])).stdout) as {
      config: { restart_needed: string[] };
    };
    expect(statusJson.config.restart_needed).toEqual(['limits', 'daemon']);

    // A key whose value does not validate: an error naming the file, line and key; the daemon keeps its config.
    editConfig(root, `${scriptedConfig()}limits:\n  max_steps: many\n`);
    const error = await waitFor(
      'the validation error',
      () => linesWith(daemon, 'govflow.config.yaml:6', 'max_steps').at(0),
      { detail: () => daemon.stderrTail() },
    );
    expect(error).toMatch(/error/);
    expect(error).toContain('keeps running on the config it has');
    expect(linesWith(daemon, 'restart the daemon to apply')).toHaveLength(1);
    dropJson(root, 'after-edit.json', { request: 'Summarise the meeting.', request_id: 'after-edit' });
    const result = await waitFor('a result after the invalid edit', () => readResult(root, 'after-edit'), {
      detail: () => daemon.stderrTail(),
    });
    expect(result.status).toBe('success');
    expect(daemon.hasExited).toBe(false);

    // Back to the config it started with: no restart needed any more.
    editConfig(root, scriptedConfig());
    await waitFor('the all-clear', () => linesWith(daemon, 'govflow.config.yaml', 'no restart needed').at(0), {
      detail: () => daemon.stderrTail(),
    });
    expect((await runCli(['status', '--root', root])).stdout).not.toContain('restart needed');
    expect((await daemon.stop()).code).toBe(0);
  }, 60_000);

  it('tells govflow token add when the running daemon serves no HTTP API: restart it with --http', async () => {
    const root = makeRoot('timezone: UTC\n');
    const daemon = await startDaemon(root);
    const added = await runCli(['token', 'add', 'alice', '--root', root]);
    expect(added.code).toBe(0);
    expect(added.stderr).toMatch(
      new RegExp(`the running daemon \\(pid ${daemon.pid}\\) serves no HTTP API.*restart it`),
    );
    await daemon.stop();
    const idle = await runCli(['token', 'add', 'bob', '--root', root]);
    expect(idle.stderr).toContain('no daemon runs on this root');
  }, 60_000);
});

describe('the governance hash', () => {
  it('is the same before and after govflow token add (validate, and the ready line)', async () => {
    const root = makeRoot(HTTP_CONFIG);
    const before = await governanceHash(root);
    expect((await runCli(['token', 'add', 'alice', '--root', root])).code).toBe(0);
    expect((await runCli(['token', 'add', 'audrey', '--role', 'auditor', '--root', root])).code).toBe(0);
    expect(readFileSync(path.join(root, 'govflow.config.yaml'), 'utf8')).toContain('audrey');
    expect(await governanceHash(root)).toBe(before);
    const daemon = await startDaemon(root);
    expect(daemon.readyLine).toContain(`governance ${before.slice(0, 12)}`);
    await daemon.stop();
  }, 60_000);

  it('still changes with config that steers agents', async () => {
    const root = makeRoot(HTTP_CONFIG);
    const before = await governanceHash(root);
    editConfig(root, `${HTTP_CONFIG}limits: { max_steps: 7 }\n`);
    expect(await governanceHash(root)).not.toBe(before);
  }, 60_000);
});
