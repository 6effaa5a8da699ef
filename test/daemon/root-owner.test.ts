/**
 * One writer per root (SPEC §8): a second `govflow start` exits 2 naming the first's pid, a
 * `govflow run` on a root whose daemon runs hands its request over and prints the daemon's
 * result, and a lock left by a killed daemon does not keep the next one out.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { buildDistOnce } from './build-once.js';
import {
  answer,
  cleanupAll,
  exampleScript,
  listDir,
  makeRoot,
  readResult,
  runCli,
  scriptedConfig,
  spawnCli,
  startDaemon,
  writeScript,
} from './daemon-helpers.js';

beforeAll(buildDistOnce, 180_000);
afterEach(cleanupAll);
afterAll(cleanupAll);

describe('one daemon per root', () => {
  it('a second govflow start exits 2 naming the running daemon pid, and the first keeps running', async () => {
    const root = makeRoot('timezone: UTC\n');
    const first = await startDaemon(root);
    const second = await runCli(['start', '--root', root], { timeoutMs: 20_000 });
    expect(second.code, second.stderr).toBe(2);
    expect(second.stderr).toContain(`pid ${first.pid}`);
    const status = await runCli(['status', '--root', root]);
    expect(status.stdout).toContain(`running (pid ${first.pid})`);
    expect((await first.stop()).code).toBe(0);
    expect(listDir(path.join(root, 'system', 'state'))).not.toContain('root.lock');
  }, 60_000);

  it('govflow run hands its request to the running daemon and prints its result', async () => {
    const root = makeRoot('timezone: UTC\n');
    const daemon = await startDaemon(root);
    const file = path.join(root, 'request.json');
    writeFileSync(file, JSON.stringify({ request: 'Summarise the handover.', request_id: 'handed-1' }));
    const run = await runCli(['run', file, '--root', root, '--json']);
    expect(run.code, run.stderr).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({ request_id: 'handed-1', status: 'success' });
    expect(run.stderr).toContain(`daemon (pid ${daemon.pid})`);
    expect(readResult(root, 'handed-1')?.status).toBe('success');
    expect(daemon.stderr).toMatch(/intake: claimed/);

    const duplicate = await runCli(['run', file, '--root', root]);
    expect(duplicate.code).toBe(2);
    expect(duplicate.stderr).toMatch(/duplicate request_id "handed-1"/);
    expect((await daemon.stop()).code).toBe(0);
  }, 60_000);

  it('govflow run hands a reply to a paused session to the daemon and prints the final result', async () => {
    const root = makeRoot(scriptedConfig());
    const question = 'Which meeting: Monday or Tuesday?';
    const pending = answer({
      content: { question },
      contentType: 'objectives',
      status: 'pending',
      message: question,
      next: null,
    });
    const script = JSON.parse(exampleScript()) as { responses: Record<string, unknown[]> };
    script.responses.objective_agent = [{ json: pending }, ...script.responses.objective_agent];
    writeScript(root, JSON.stringify(script));
    const daemon = await startDaemon(root);
    const request = path.join(root, 'ask.json');
    writeFileSync(request, JSON.stringify({ request: 'Summarise the meeting.', request_id: 'handed-pending' }));
    const first = await runCli(['run', request, '--root', root, '--json']);
    expect(first.code, first.stderr).toBe(3);
    const { session_id: sessionId } = JSON.parse(first.stdout) as { session_id: string };

    const reply = path.join(root, 'reply.json');
    writeFileSync(reply, JSON.stringify({ session_id: sessionId, reply: 'Monday.' }));
    const second = await runCli(['run', reply, '--root', root, '--json']);
    expect(second.code, second.stderr).toBe(0);
    expect(JSON.parse(second.stdout)).toMatchObject({
      request_id: 'handed-pending',
      session_id: sessionId,
      status: 'success',
    });
    expect((await daemon.stop()).code).toBe(0);
  }, 60_000);

  it('a SIGTERM that comes while the daemon starts stops it gracefully once it is up', async () => {
    const root = makeRoot('timezone: UTC\n');
    const daemon = spawnCli(root, ['start', '--root', root]);
    const { child } = daemon;
    // The intake's first line comes before the ready line (the governance watch starts in between).
    let sent = false;
    child.stderr.on('data', () => {
      if (!sent && daemon.stderr.includes('intake: created -> starting')) {
        sent = true;
        child.kill('SIGTERM');
      }
    });
    const status = await daemon.exited;
    expect(sent).toBe(true);
    expect(status, daemon.stderrTail()).toEqual({ code: 0, signal: null });
    expect(daemon.stdout).toContain('govflow stopped');
    expect(listDir(path.join(root, 'system', 'state'))).not.toContain('root.lock');
  }, 60_000);

  it('a lock left by a daemon killed with SIGKILL keeps out neither the next daemon nor a one-shot run', async () => {
    const root = makeRoot('timezone: UTC\n');
    const first = await startDaemon(root);
    await first.kill9();
    expect(listDir(path.join(root, 'system', 'state'))).toContain('root.lock');
    const second = await startDaemon(root);
    expect((await second.stop()).code).toBe(0);

    const dead = await startDaemon(root);
    await dead.kill9();
    const file = path.join(root, 'alone.json');
    writeFileSync(file, JSON.stringify({ request: 'Summarise this alone.', request_id: 'alone-1' }));
    const run = await runCli(['run', file, '--root', root, '--json']);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).not.toContain('handed');
    expect(JSON.parse(run.stdout)).toMatchObject({ request_id: 'alone-1', status: 'success' });
    expect(listDir(path.join(root, 'system', 'state'))).not.toContain('root.lock');
  }, 60_000);
});
