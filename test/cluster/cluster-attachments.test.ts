/**
 * Attachments in cluster mode (SPEC §15, §22): they are stored with the request in Postgres, so
 * they reach whichever daemon runs the session. A request folder dropped on node0 pauses there;
 * node1 (its own root, its own workspace) resumes it and finds the attachments in its workspace,
 * byte for byte, read from the store; a multipart upload to node1 runs with its files the same way.
 */
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { binaryBytes, dropFolder, expectedList } from '../daemon/attachments-support.js';
import { EXAMPLE_ANSWERS, answer, dropJson, waitFor, writeScript } from '../daemon/daemon-helpers.js';
import { Cluster, clusterForTests, nodeScript } from '../support/cluster.js';
import { pgTestSchema } from '../support/postgres.js';

const pg = await pgTestSchema('cluster_attachments');
const QUESTION = 'Which clause matters most?';

describe.skipIf(!pg)('cluster mode: attachments travel with the request', () => {
  let cluster: Cluster;

  clusterForTests(pg, { nodes: 2, http: true }, async (created) => {
    cluster = created;
    const pending = answer({
      content: { question: QUESTION },
      contentType: 'objectives',
      status: 'pending',
      message: QUESTION,
      next: null,
    });
    // The same governance on every daemon: the entry agent may read files.
    for (const node of cluster.nodes) {
      const entry = path.join(node.root, 'governance', 'agents', 'objective_agent.md');
      writeFileSync(entry, readFileSync(entry, 'utf8').replace('entry: true\n', 'entry: true\ntools: [read_file]\n'));
    }
    writeScript(cluster.nodes[0].root, nodeScript('node0', { responses: { objective_agent: [{ json: pending }] } }));
    writeScript(
      cluster.nodes[1].root,
      nodeScript('node1', {
        responses: {
          // node1 reads an attachment before it answers: its workspace must hold it. (A resumed
          // session goes on after the calls its journal shows: node0's question was the first.)
          objective_agent: [
            { json: pending },
            { tool_calls: [{ name: 'read_file', input: { path: 'attachments/annex/clause.txt' } }] },
            { json: EXAMPLE_ANSWERS.objective_agent },
          ],
        },
      }),
    );
  });

  it('stores them in Postgres and copies them into the workspace of the daemon that resumes the session', async () => {
    const [first, second] = cluster.nodes;
    await first.start();
    const files = {
      'request.txt': 'Summarise the attached contract.\n',
      'contract.pdf': binaryBytes(2_500_000, 21),
      'annex/clause.txt': 'Either party may end this contract with 90 days notice.\n',
    };
    dropFolder(first.root, 'contract-review', files);
    const pending = await waitFor(
      "the pending result in node0's outbox",
      () => [...first.results().values()].find((result) => result.source_file === 'contract-review'),
      { timeoutMs: 30_000, detail: () => first.stderrTail() },
    );
    expect(pending.status).toBe('pending');
    const chunks = await pg!.query<{ path: string; chunks: string; bytes: string }>(
      'select path, count(*) as chunks, sum(length(data)) as bytes from attachment_chunks where session_id = $1 group by path order by path',
      [pending.session_id],
    );
    expect(chunks.map((row) => [row.path, Number(row.chunks), Number(row.bytes)])).toEqual([
      ['annex/clause.txt', 1, Buffer.byteLength(files['annex/clause.txt'])],
      ['contract.pdf', 3, 2_500_000],
    ]);
    await first.stop();

    await second.start();
    dropJson(second.root, 'reply.json', { session_id: pending.session_id, reply: 'The notice period.' });
    const final = await waitFor(
      'the final result, served by node1 from the store',
      async () => {
        const response = await fetch(`${second.httpUrl}/v1/requests/${pending.request_id}`);
        const body = (await response.json()) as { status: string; attachments?: unknown };
        return body.status === 'success' ? body : null;
      },
      { timeoutMs: 30_000, intervalMs: 200, detail: () => second.stderrTail() },
    );
    expect(final.attachments).toEqual(expectedList(files));
    const workspace = path.join(second.root, 'workspace', pending.session_id, 'attachments');
    expect(readFileSync(path.join(workspace, 'contract.pdf')).equals(files['contract.pdf'])).toBe(true);
    expect(readFileSync(path.join(workspace, 'annex', 'clause.txt'), 'utf8')).toBe(files['annex/clause.txt']);
    expect(statSync(path.join(workspace, 'contract.pdf')).mode & 0o777).toBe(0o600);
    const read = (await waitFor(
      "the entry agent's second message in node1's projected log",
      async () =>
        (await second.auditEntries()).find(
          (entry) =>
            entry.sessionId === pending.session_id && entry.agent === 'objective_agent' && entry.sequence === 2,
        ),
      { timeoutMs: 10_000, intervalMs: 200 },
    )) as unknown as { tools?: { toolCalls?: Array<{ name: string; is_error: boolean }> } };
    expect(read.tools?.toolCalls).toEqual([expect.objectContaining({ name: 'read_file', is_error: false })]);
  }, 120_000);

  it('takes a multipart upload on any daemon and runs it with its files', async () => {
    const [, second] = cluster.nodes;
    const form = new FormData();
    form.append('request', JSON.stringify({ request: 'Check the uploaded annex.', request_id: 'cluster-upload-1' }));
    form.append('file', new Blob(['Either party may end this contract.\n']), 'annex/clause.txt');
    const posted = await fetch(`${second.httpUrl}/v1/requests`, { method: 'POST', body: form });
    expect(posted.status, await posted.clone().text()).toBe(202);
    const again = new FormData();
    again.append('request', JSON.stringify({ request: 'Again.', request_id: 'cluster-upload-1' }));
    again.append('file', new Blob(['x']), 'x.txt');
    expect((await fetch(`${second.httpUrl}/v1/requests`, { method: 'POST', body: again })).status).toBe(409);
    const result = await waitFor(
      'the uploaded request to run up to its question',
      async () => {
        const body = (await (await fetch(`${second.httpUrl}/v1/requests/cluster-upload-1`)).json()) as {
          status: string;
          session_id: string;
          attachments?: Array<{ path: string }>;
        };
        // node1's script asks its question first again: the session pauses, with its result and its files.
        return body.status === 'pending' ? body : null;
      },
      { timeoutMs: 30_000, intervalMs: 200, detail: () => second.stderrTail() },
    );
    expect(result.attachments?.map((file) => file.path)).toEqual(['annex/clause.txt']);
    expect(
      readFileSync(
        path.join(second.root, 'workspace', result.session_id, 'attachments', 'annex', 'clause.txt'),
        'utf8',
      ),
    ).toBe('Either party may end this contract.\n');
  }, 60_000);
});
