/**
 * Approvals over HTTP (SPEC §10 + §11): a tool call listed in `approval` pauses the session, the
 * event stream says `pending {awaiting: "approval"}`, and `POST /v1/sessions/:id/reply
 * {approve, reason}` resumes it the same way an approval reply file does.
 */
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { LlmProvider } from '../../src/llm/provider.js';
import type { OperationalLog } from '../../src/log-contract.js';
import {
  SUMMARY_CONTENT,
  TWO_TASKS,
  auditEntries,
  agentMessage,
  exampleRoot,
  happyResponses,
  scripted,
  singleAgentRoot,
  writeFile,
} from '../pipeline/pipeline-test-helpers.js';
import { GatedProvider, SseReader, getJson, httpTestbed, postJson, startHttpDaemon } from './http-test-helpers.js';

const { running, readers } = httpTestbed();

function approvalRoot(): string {
  return singleAgentRoot(
    'writer_agent',
    [
      'description: Writes reports.',
      'next: []',
      'content_type: report',
      'tools: [write_file]',
      'approval: [write_file]',
    ],
    'govflow-http-approval-',
  );
}

describe('approvals over HTTP', () => {
  it('pauses at the call, streams pending with awaiting approval, and an approve POST runs the tool and the session on', async () => {
    const root = approvalRoot();
    const provider = scripted({
      writer_agent: [
        { tool_calls: [{ id: 'c1', name: 'write_file', input: { path: 'report.md', content: '# Report\n' } }] },
        agentMessage({ content: { report: 'done' }, contentType: 'report' }),
      ],
    });
    const started = await startHttpDaemon(root, provider);
    running.push(started);
    const { url } = started;
    const { body } = await postJson(`${url}/v1/requests`, { request: 'Write the report.', request_id: 'appr-1' });
    const stream = await SseReader.open(`${url}/v1/requests/appr-1/events`);
    readers.push(stream);
    await stream.until((events) => events.some((event) => event.event === 'pending'));
    const pending = stream.events.find((event) => event.event === 'pending')!.data as {
      question: string;
      awaiting: string;
    };
    expect(pending.awaiting).toBe('approval');
    expect(pending.question).toContain('write_file');
    const replyUrl = `${url}/v1/sessions/${body.session_id}/reply`;
    expect((await postJson(replyUrl, { reply: 'yes' })).status).toBe(400);
    // Who decides over HTTP is the caller (SPEC §16): a body cannot name another user.
    expect((await postJson(replyUrl, { approve: true, user: 'mallory' })).status).toBe(400);
    expect((await postJson(replyUrl, { approve: true, reason: 'reviewed the report' })).status).toBe(202);
    await stream.finished();
    expect(stream.events.at(-1)!.data).toMatchObject({ status: 'success' });
    expect((await getJson(`${url}/v1/requests/appr-1`)).body).toMatchObject({ status: 'success' });
    expect(existsSync(path.join(root, 'workspace', body.session_id, 'report.md'))).toBe(true);
    const entry = (await auditEntries(root)).find((candidate) => candidate.sessionId === body.session_id)!;
    expect(entry.body).toMatch(
      new RegExp(
        String.raw`\[APPROVALS\]: \[\{[^\]]*"approve":true,"user":"local","at":[^\]]*"reason":"reviewed the report",` +
          String.raw`"args_sha256":"[0-9a-f]{64}","executed_args_match":true`,
      ),
    );
    expect(entry.body).toContain('[USER: local]');
  });

  it(
    'an approval POSTed while the run is still finishing its pause (a plan task runs on) waits for it, then resumes that call; the stream ' +
      'says pending once',
    async () => {
      const root = exampleRoot();
      const agentPath = path.join(root, 'governance/agents/summarizer_agent.md');
      writeFile(
        root,
        'governance/agents/summarizer_agent.md',
        readFileSync(agentPath, 'utf8').replace('max_turns: 4', 'max_turns: 4\napproval: [write_file]'),
      );
      const responses = happyResponses(TWO_TASKS);
      responses.summarizer_agent = [
        { tool_calls: [{ id: 's1', name: 'write_file', input: { path: 'summary.md', content: 'S' } }] },
        agentMessage({ content: SUMMARY_CONTENT, contentType: 'summary' }),
      ];
      const inner = scripted(responses);
      // The other task's model call is held: the session has journaled its pause but its run goes on.
      let release = () => {};
      const held = new Promise<void>((resolve) => (release = resolve));
      const provider: LlmProvider = {
        kind: inner.kind,
        interfaceVersion: inner.interfaceVersion,
        generate: async (request) => {
          if (request.agent === 'action_item_agent') await held;
          return inner.generate(request);
        },
      };
      const log = new HeardLog();
      try {
        const started = await startHttpDaemon(root, provider, log);
        running.push(started);
        const { url } = started;
        const { body } = await postJson(`${url}/v1/requests`, {
          request: 'Summarize the note and list its action items.',
          request_id: 'appr-plan',
        });
        await log.heard(/^tool call waits for approval$/);
        // A stream opened now replays the pause from the journal; the run announces it again later.
        const stream = await SseReader.open(`${url}/v1/sessions/${body.session_id}/events`);
        readers.push(stream);
        await stream.until((events) => events.some((event) => event.event === 'pending'));
        expect(
          (await postJson(`${url}/v1/sessions/${body.session_id}/reply`, { approve: true, reason: 'fine' })).status,
        ).toBe(202);
        // The intake has the reply file and decided about it: before the fix it was refused here.
        const decided = await log.heard(/^reply waits for its session|^request file rejected/);
        expect(decided).toBe('reply waits for its session to finish recording its pause');
        release();
        await stream.finished();
        expect(stream.events.at(-1)!.data).toMatchObject({ status: 'success' });
        expect(stream.names().filter((name) => name === 'pending')).toHaveLength(1);
        expect(readFileSync(path.join(root, 'workspace', body.session_id, 'summary.md'), 'utf8')).toBe('S');
        expect((await getJson(`${url}/v1/requests/appr-plan`)).body).toMatchObject({ status: 'success' });
        inner.assertAllUsed();
      } finally {
        release();
      }
    },
  );

  it('a reply file for a session that runs and waits for no one is still refused (moved to system/failed/), and the session runs on', async () => {
    const root = approvalRoot();
    const provider = new GatedProvider({ gated: true });
    const log = new HeardLog();
    try {
      const started = await startHttpDaemon(root, provider, log);
      running.push(started);
      const { body } = await postJson(`${started.url}/v1/requests`, {
        request: 'Write the report.',
        request_id: 'appr-running',
      });
      await provider.waitForCalls(1);
      writeFile(
        root,
        'system/inbox/early-approval.json',
        JSON.stringify({ session_id: body.session_id, approve: true }),
      );
      expect(await log.heard(/^request file rejected/)).toBe('request file rejected: moved to system/failed/');
      expect(readdirSync(path.join(root, 'system', 'failed')).some((name) => name.includes('early-approval'))).toBe(
        true,
      );
      provider.release(100);
      const stream = await SseReader.open(`${started.url}/v1/requests/appr-running/events`);
      readers.push(stream);
      await stream.finished();
      expect(stream.events.at(-1)!.event).toBe('session_finished');
    } finally {
      provider.release(100);
    }
  });
});

/** An operational log a test can wait on: `heard` resolves with the first line matching. */
class HeardLog implements OperationalLog {
  private readonly lines: string[] = [];
  private waiters: Array<() => void> = [];
  info = (message: string) => this.note(message);
  warn = (message: string) => this.note(message);
  error = (message: string) => this.note(message);

  private note(message: string): void {
    this.lines.push(message);
    for (const waiter of this.waiters.splice(0)) waiter();
  }

  async heard(pattern: RegExp): Promise<string> {
    for (;;) {
      const line = this.lines.find((candidate) => pattern.test(candidate));
      if (line !== undefined) return line;
      await new Promise<void>((resolve) => this.waiters.push(resolve));
    }
  }
}
