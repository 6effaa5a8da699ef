/**
 * Approvals over HTTP (SPEC §10 + §11): a tool call listed in `approval` pauses the session, the
 * event stream says `pending {awaiting: "approval"}`, and `POST /v1/sessions/:id/reply
 * {approve, reason}` resumes it the same way an approval reply file does.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { auditEntries, agentFile, agentMessage, makeTempDir, removeTempDirs, scripted, writeFile } from '../pipeline/pipeline-test-helpers.js';
import { SseReader, getJson, postJson, startHttpDaemon, type HttpDaemon } from './http-test-helpers.js';

const running: HttpDaemon[] = [];
const readers: SseReader[] = [];

afterEach(async () => {
  for (const reader of readers.splice(0)) await reader.close();
  for (const { daemon } of running.splice(0)) await daemon.stop();
  removeTempDirs();
});

function approvalRoot(): string {
  const root = makeTempDir('govflow-http-approval-');
  writeFile(root, 'govflow.config.yaml', 'timezone: UTC\n');
  writeFile(root, 'context/application.md', '# App\nWrites reports.\n');
  writeFile(
    root,
    'governance/agents/writer_agent.md',
    agentFile(['name: writer_agent', 'type: executional', 'description: Writes reports.', 'entry: true', 'next: []', 'content_type: report', 'tools: [write_file]', 'approval: [write_file]']),
  );
  return root;
}

describe('approvals over HTTP', () => {
  it('pauses at the call, streams pending with awaiting approval, and an approve POST runs the tool and the session on', async () => {
    const root = approvalRoot();
    const provider = scripted({
      writer_agent: [{ tool_calls: [{ id: 'c1', name: 'write_file', input: { path: 'report.md', content: '# Report\n' } }] }, agentMessage({ content: { report: 'done' }, contentType: 'report' })],
    });
    const started = await startHttpDaemon(root, provider);
    running.push(started);
    const { url } = started;
    const { body } = await postJson(`${url}/v1/requests`, { request: 'Write the report.', request_id: 'appr-1' });
    const stream = await SseReader.open(`${url}/v1/requests/appr-1/events`);
    readers.push(stream);
    await stream.until((events) => events.some((event) => event.event === 'pending'));
    const pending = stream.events.find((event) => event.event === 'pending')!.data as { question: string; awaiting: string };
    expect(pending.awaiting).toBe('approval');
    expect(pending.question).toContain('write_file');
    const replyUrl = `${url}/v1/sessions/${body.session_id}/reply`;
    expect((await postJson(replyUrl, { reply: 'yes' })).status).toBe(400);
    expect((await postJson(replyUrl, { approve: true, reason: 'reviewed the report' })).status).toBe(202);
    await stream.finished();
    expect(stream.events.at(-1)!.data).toMatchObject({ status: 'success' });
    expect((await getJson(`${url}/v1/requests/appr-1`)).body).toMatchObject({ status: 'success' });
    expect(existsSync(path.join(root, 'workspace', body.session_id, 'report.md'))).toBe(true);
    const entry = (await auditEntries(root)).find((candidate) => candidate.sessionId === body.session_id)!;
    expect(entry.body).toMatch(/\[APPROVALS\]: \[\{[^\]]*"approve":true[^\]]*"reason":"reviewed the report"/);
    expect(entry.body).toContain('[USER: local]');
  });
});
