/**
 * Fork, retry and re-run against a real `govflow start` on the loopback OpenAI wire
 * (docs/run-control.md): the reused messages make no model call and name the original entries'
 * hashes (`[FORKED_FROM]`); the workspace is rebuilt from the journaled file writes; the outside
 * call (http_get) is not repeated and is listed; forking inside a plan reuses the plan and the
 * tasks committed before it; the result carries `lineage` and the original's is unchanged; new
 * request ids are `<original>-<action>-<n>` unless given.
 */
import { existsSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { userInfo } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildDistOnce } from '../daemon/build-once.js';
import {
  cleanupAll,
  dropJson,
  readAuditEntries,
  readResult,
  runCli,
  waitFor,
  type DaemonProcess,
} from '../daemon/daemon-helpers.js';
import { REQUEST_TEXT } from '../providers/example-app-responder.js';
import type { ResponderLlmServer } from '../providers/responder-llm-server.js';
import { removeTempFolders } from '../support/temp-dirs.js';
import { dropFolder } from '../daemon/attachments-support.js';
import {
  addAgentLines,
  answerWithStatus,
  callsTo,
  dropControl,
  hasToolResults,
  modelRoot,
  startModel,
  startModelDaemon,
} from './control-helpers.js';

interface Entry {
  agent: string;
  sequence: number | null;
  hash: string;
  sessionId: string;
  forkedFrom: string | null;
  notRepeated: Array<Record<string, unknown>> | null;
  control: Record<string, unknown> | null;
}

let server: ResponderLlmServer;
let site: Server;
let siteHits = 0;
let root: string;
let daemon: DaemonProcess;
let failFinalOnce = true;

beforeAll(async () => {
  await buildDistOnce();
  site = createServer((_request, response) => {
    siteHits += 1;
    response.end('the budget is 42');
  });
  await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
  const siteUrl = `http://127.0.0.1:${(site.address() as AddressInfo).port}/budget`;
  server = await startModel(() => (agent, request) => {
    if (agent === 'objective_agent' && !hasToolResults(request))
      return {
        kind: 'tool_calls',
        calls: [
          {
            id: 'call-write',
            name: 'write_file',
            arguments: JSON.stringify({ path: 'notes/a.md', content: 'A note.' }),
          },
          { id: 'call-get', name: 'http_get', arguments: JSON.stringify({ url: siteUrl }) },
        ],
      };
    if (agent === 'final_output_agent' && failFinalOnce) {
      failFinalOnce = false;
      return answerWithStatus('final_output_agent', 'failed', 'the report could not be assembled');
    }
    return undefined;
  });
  root = modelRoot(server, 'tools: { http_get: { allow_hosts: ["127.0.0.1"] } }');
  addAgentLines(root, 'objective_agent', ['tools: [write_file, http_get]']);
  daemon = await startModelDaemon(root);
}, 240_000);

afterAll(async () => {
  await cleanupAll();
  await server?.close();
  await new Promise((resolve) => site?.close(resolve));
  removeTempFolders();
});

async function resultOf(requestId: string) {
  return waitFor(
    `the result of ${requestId}`,
    () => {
      const result = readResult(root, requestId) as (ReturnType<typeof readResult> & Record<string, any>) | null;
      return result && result.status !== 'pending' ? result : null;
    },
    { timeoutMs: 30_000, detail: () => daemon.stderrTail(30) },
  );
}

async function entriesOf(sessionId: string): Promise<Entry[]> {
  return (await readAuditEntries(root, ['--session', sessionId])) as unknown as Entry[];
}

/** Drops a control and waits for the daemon's outcome record. */
async function control(name: string, document: Record<string, unknown>) {
  dropControl(root, name, document);
  return waitFor(
    `the outcome of ${name}`,
    () => {
      const file = path.join(root, 'system', 'state', 'controls', name);
      return existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as Record<string, string>) : null;
    },
    { detail: () => daemon.stderrTail(30) },
  );
}

describe('fork, retry and re-run, real daemon and OpenAI wire', () => {
  let original: Awaited<ReturnType<typeof resultOf>>;
  let originalEntries: Entry[];
  let originalResultText: string;

  it(
    'retries a failed session from its failed message: no call for the reused ones, their hashes named, the workspace rebuilt, http_get not ' +
      'repeated',
    async () => {
      dropJson(root, 'original.json', { request: REQUEST_TEXT, request_id: 'fork-orig', user: 'ana' });
      original = await resultOf('fork-orig');
      expect(original.status).toBe('failed');
      expect(siteHits).toBe(1);
      originalEntries = await entriesOf(original.session_id);
      expect(originalEntries.map((entry) => entry.sequence)).toEqual([1, 2, 3, 4, 5, 6]);
      originalResultText = readFileSync(path.join(root, 'system', 'outbox', 'fork-orig.json'), 'utf8');

      const calls = server.arrivedAt.length;
      const outcome = await control('retry-it.json', {
        control: 'retry',
        session_id: original.session_id,
        reason: 'the report agent is fixed',
      });
      expect(outcome).toMatchObject({ status: 'accepted', new_request_id: 'fork-orig-retry-1' });
      const retried = await resultOf('fork-orig-retry-1');
      const owner = userInfo().username;
      expect(retried).toMatchObject({
        status: 'success',
        session_id: outcome.new_session_id,
        messages: 6,
        lineage: {
          action: 'retry',
          of_session: original.session_id,
          of_request: 'fork-orig',
          from: 6,
          by: owner,
          reason: 'the report agent is fixed',
        },
      });
      // One model call: the failed step, run again; the five before it were reused.
      expect(server.arrivedAt.length - calls).toBe(1);
      expect(callsTo(server, 'final_output_agent')).toBe(2);

      const entries = await entriesOf(retried.session_id);
      expect(entries[0]).toMatchObject({
        agent: 'operator',
        sequence: null,
        control: { action: 'retry', by: owner, of_session: original.session_id, from: 6 },
        notRepeated: [{ sequence: 1, id: 'call-get', name: 'http_get' }],
      });
      const bySequence = new Map(originalEntries.map((entry) => [entry.sequence, entry.hash]));
      for (const entry of entries.slice(1, 6)) expect(entry.forkedFrom).toBe(bySequence.get(entry.sequence));
      expect(entries[6]).toMatchObject({ sequence: 6, agent: 'final_output_agent', forkedFrom: null });
      expect(entries[6]!.notRepeated).toEqual([{ sequence: 1, id: 'call-get', name: 'http_get' }]);
      // The session belongs to the original's user.
      const logged = (await readAuditEntries(root, ['--session', retried.session_id])) as unknown as Array<{
        user: string;
      }>;
      expect(new Set(logged.map((entry) => entry.user))).toEqual(new Set(['ana']));

      expect(readFileSync(path.join(root, 'workspace', retried.session_id, 'notes', 'a.md'), 'utf8')).toBe('A note.');
      expect(siteHits).toBe(1);
      expect(readFileSync(path.join(root, 'system', 'outbox', 'fork-orig.json'), 'utf8')).toBe(originalResultText);
    },
    90_000,
  );

  it('forks inside the plan: the plan and the task committed before it are reused, the other task and the rest run', async () => {
    const calls = server.arrivedAt.length;
    const outcome = await control('fork-at-5.json', { control: 'fork', session_id: original.session_id, from: 5 });
    expect(outcome.new_request_id).toBe('fork-orig-fork-1');
    const forked = await resultOf('fork-orig-fork-1');
    expect(forked).toMatchObject({ status: 'success', messages: 6, lineage: { action: 'fork', from: 5 } });
    // The second task and the final report: two calls.
    expect(server.arrivedAt.length - calls).toBe(2);
    const entries = await entriesOf(forked.session_id);
    const reusedTask = originalEntries.find((entry) => entry.sequence === 4)!;
    expect(entries.find((entry) => entry.sequence === 4)).toMatchObject({
      agent: reusedTask.agent,
      forkedFrom: reusedTask.hash,
    });
    expect(entries.find((entry) => entry.sequence === 5)).toMatchObject({ forkedFrom: null });
    expect(entries.find((entry) => entry.sequence === 5)!.agent).not.toBe(reusedTask.agent);
  }, 90_000);

  it('re-runs with an edited request from message 1: everything runs again (http_get too), under the given request id', async () => {
    const calls = server.arrivedAt.length;
    const outcome = await control('rerun-it.json', {
      control: 'rerun',
      session_id: original.session_id,
      request: `${REQUEST_TEXT}\nAlso mention the venue.`,
      request_id: 'edited-rerun',
    });
    expect(outcome).toMatchObject({ status: 'accepted', new_request_id: 'edited-rerun' });
    const rerun = await resultOf('edited-rerun');
    expect(rerun).toMatchObject({ status: 'success', lineage: { action: 'rerun', from: 1 } });
    expect(server.arrivedAt.length - calls).toBe(7);
    expect(siteHits).toBe(2);
    const entries = await entriesOf(rerun.session_id);
    expect(entries.filter((entry) => entry.forkedFrom !== null)).toEqual([]);
    expect(entries[0]).toMatchObject({ agent: 'operator', notRepeated: null, control: { action: 'rerun', from: 1 } });
    const journal = readFileSync(path.join(root, 'system', 'sessions', rerun.session_id, 'journal.jsonl'), 'utf8');
    expect(JSON.parse(journal.split('\n')[0]!).request.text).toContain('Also mention the venue.');
  }, 90_000);

  it("brings the original's attachments to a re-run: copied into its workspace and listed on its result", async () => {
    dropFolder(root, 'with-file', {
      'request.json': JSON.stringify({ request: REQUEST_TEXT, request_id: 'with-file' }),
      'notes/budget.csv': 'item,eur\nvenue,400\n',
    });
    const original = await resultOf('with-file');
    expect(original.attachments).toEqual([expect.objectContaining({ path: 'notes/budget.csv', bytes: 19 })]);
    await control('rerun-file.json', { control: 'rerun', session_id: original.session_id });
    const rerun = await resultOf('with-file-rerun-1');
    expect(rerun.attachments).toEqual(original.attachments);
    expect(
      readFileSync(path.join(root, 'workspace', rerun.session_id, 'attachments', 'notes', 'budget.csv'), 'utf8'),
    ).toBe('item,eur\nvenue,400\n');
  }, 90_000);

  it('refuses a fork whose from is out of range, or whose request_id was taken, into failed/; the chain verifies', async () => {
    for (const [name, document, reason] of [
      ['fork-far.json', { control: 'fork', session_id: original.session_id, from: 8 }, /from 1 to 7/],
      [
        'fork-taken.json',
        { control: 'fork', session_id: original.session_id, from: 2, request_id: 'edited-rerun' },
        /already accepted/,
      ],
      ['fork-nowhere.json', { control: 'retry', session_id: 'sess-nowhere' }, /no session "sess-nowhere"/],
    ] as const) {
      dropControl(root, name, document);
      const refusal = path.join(root, 'system', 'failed', `${name}.error.json`);
      await waitFor(`${name} refused`, () => existsSync(refusal));
      expect(JSON.parse(readFileSync(refusal, 'utf8')).reason).toMatch(reason);
    }
    const verify = await runCli(['verify', '--root', root]);
    expect(verify.code, verify.stdout + verify.stderr).toBe(0);
    expect((await daemon.stop()).code).toBe(0);
  }, 60_000);
});
