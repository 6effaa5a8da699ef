/**
 * A daemon killed with `kill -9` while a delegated child session runs (SPEC §12): the restarted
 * daemon resumes the parent, whose pending `delegate` call finds the existing child session (its
 * id is derived from the parent's id and the call's id) and resumes it rather than starting a
 * second one; both finish and every message is logged exactly once.
 */
import { readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { childSessionId } from '../../src/pipeline/delegation.js';
import { buildDistOnce } from './build-once.js';
import {
  answer,
  cleanupAll,
  dropFile,
  makeRoot,
  readAuditEntries,
  readResult,
  readSessions,
  scriptedConfig,
  startDaemon,
  waitFor,
  writeScript,
} from './daemon-helpers.js';

beforeAll(buildDistOnce, 180_000);
afterEach(cleanupAll);
afterAll(cleanupAll);

function delegationRoot(): string {
  const root = makeRoot(scriptedConfig());
  const agents = path.join(root, 'governance', 'agents');
  for (const file of readdirSync(agents)) rmSync(path.join(agents, file));
  const agent = (lines: string[]) =>
    ['---', ...lines, 'next: []', 'content_type: report', '---', '# Agent\nDo the job.\n'].join('\n');
  writeFileSync(
    path.join(agents, 'lead_agent.md'),
    agent([
      'name: lead_agent',
      'type: operational',
      'description: Leads.',
      'entry: true',
      'delegates: [research_agent]',
    ]),
  );
  writeFileSync(
    path.join(agents, 'research_agent.md'),
    agent(['name: research_agent', 'type: executional', 'description: Researches.']),
  );
  return root;
}

const LEAD_DONE = answer({ content: { report: 'lead done' }, contentType: 'report' });
const RESEARCH_DONE = answer({ content: { report: 'facts' }, contentType: 'report' });
const DELEGATE = {
  tool_calls: [
    {
      id: 'd1',
      name: 'delegate',
      input: { agent: 'research_agent', objective: 'Find the facts', input: 'topic: tides' },
    },
  ],
};

describe('kill -9 while a delegated child session runs', () => {
  it('resumes the existing child after restart; both finish, each message logged once', async () => {
    const root = delegationRoot();
    // The child's model call takes a minute: the daemon is killed while it waits.
    writeScript(
      root,
      JSON.stringify({
        responses: {
          lead_agent: [DELEGATE, { json: LEAD_DONE }],
          research_agent: [{ json: RESEARCH_DONE, delay_ms: 60_000 }],
        },
      }),
    );
    const first = await startDaemon(root);
    dropFile(root, 'job.json', JSON.stringify({ request: 'Research tides.', request_id: 'job-1', user: 'alice' }));
    const child = await waitFor(
      'the child session journal',
      () => readSessions(root).find((session) => session.records[0].delegation !== undefined) ?? null,
      { timeoutMs: 20_000, detail: () => first.stderrTail() },
    );
    await first.kill9();

    // The restarted daemon's models answer at once; the lead's delegate turn is already journaled, so
    // its list goes on after it.
    writeScript(
      root,
      JSON.stringify({
        responses: { lead_agent: [DELEGATE, { json: LEAD_DONE }], research_agent: [{ json: RESEARCH_DONE }] },
      }),
    );
    const second = await startDaemon(root);
    const result = await waitFor('the result', () => readResult(root, 'job-1'), {
      timeoutMs: 30_000,
      detail: () => second.stderrTail(),
    });
    expect(result.status, second.stderrTail()).toBe('success');
    await second.stop();

    const sessions = readSessions(root);
    expect(sessions).toHaveLength(2);
    const parent = sessions.find((session) => session.requestId === 'job-1')!;
    expect(child.sessionId).toBe(childSessionId(parent.sessionId, 'd1'));
    const childAfter = sessions.find((session) => session.sessionId === child.sessionId)!;
    expect(childAfter.messages.map((message) => message.agent)).toEqual(['research_agent']);
    expect(parent.messages.map((message) => message.agent)).toEqual(['lead_agent']);
    const results = parent.records.filter((record) => record.type === 'tool_result');
    expect(results).toHaveLength(1);
    expect(JSON.parse(results[0].output as string)).toMatchObject({
      child_session: child.sessionId,
      status: 'success',
      output: { report: 'facts' },
    });

    // Every message once in the audit log: one entry per session, the child's with its parent.
    const entries = await readAuditEntries(root);
    expect(entries.map((entry) => [entry.sessionId, entry.agent]).sort()).toEqual(
      [
        [parent.sessionId, 'lead_agent'],
        [child.sessionId, 'research_agent'],
      ].sort(),
    );
    const logs = path.join(root, 'system', 'logs');
    const log = readdirSync(logs)
      .filter((name) => name.endsWith('.log'))
      .map((name) => readFileSync(path.join(logs, name), 'utf8'))
      .join('');
    expect(log).toContain(`[PARENT_SESSION_ID: ${parent.sessionId}]\n[DEPTH: 1]`);
    expect(log).toContain('[USER: alice]\n');
    expect(log).toMatch(
      /\[DELEGATIONS\]: \[\{"child_session":"[^"]+","agent":"research_agent","objective_sha256":"[0-9a-f]{64}","status":"success","ms":\d+,"artifacts":0\}\]/,
    );
  });
});
