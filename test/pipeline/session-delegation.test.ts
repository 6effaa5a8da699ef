/**
 * Delegation in real sessions (scripted model, real temp root): the `delegate` tool runs a child
 * session at another agent and returns its result; the child has its own id, workspace and
 * journal, the parent's user, `[PARENT_SESSION_ID]`/`[DEPTH]` on its entries; the parent's entry
 * lists `[DELEGATIONS]`; each limit (depth, fan-out, cycle, deadline, tokens) gives its own error
 * to the model and a violation on the parent's entry.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { ScriptedResponse } from '../../src/llm/scripted-provider.js';
import { openRuntime } from '../../src/daemon/runtime.js';
import { childSessionId } from '../../src/pipeline/delegation.js';
import { sha256Hex } from '../../src/sha256-hex.js';
import type { ToolResultRecord } from '../../src/store/tool-journal-records.js';
import type { SessionRecord } from '../../src/store/session-journal.js';
import {
  agentFile,
  agentMessage,
  auditEntries,
  journalOf,
  makeTempDir,
  removeTempDirs,
  scripted,
  verifyRoot,
  writeFile,
} from './pipeline-test-helpers.js';

afterEach(removeTempDirs);

function delegationRoot(config = ''): string {
  const root = makeTempDir('govflow-delegation-');
  writeFile(root, 'govflow.config.yaml', `timezone: UTC\n${config}`);
  writeFile(root, 'context/application.md', '# App\nResearches topics.\n');
  const common = ['next: []', 'content_type: report'];
  writeFile(
    root,
    'governance/agents/lead_agent.md',
    agentFile([
      'name: lead_agent',
      'type: operational',
      'description: Leads.',
      'entry: true',
      ...common,
      'tools: [write_file]',
      'delegates: [research_agent]',
    ]),
  );
  writeFile(
    root,
    'governance/agents/research_agent.md',
    agentFile([
      'name: research_agent',
      'type: executional',
      'description: Researches.',
      ...common,
      'tools: [read_file]',
      'delegates: [research_agent]',
    ]),
  );
  return root;
}

const answer = (report: string) => agentMessage({ content: { report }, contentType: 'report' });
const delegate = (id: string, objective: string, input?: unknown): ScriptedResponse => ({
  tool_calls: [
    { id, name: 'delegate', input: { agent: 'research_agent', objective, ...(input === undefined ? {} : { input }) } },
  ],
});

async function run(
  root: string,
  responses: Record<string, Array<string | ScriptedResponse>>,
  text = 'Research the topic.',
) {
  const provider = scripted(responses);
  const runtime = await openRuntime(root, { provider, env: {} });
  try {
    const outcome = await runtime.runner.startSession(
      { requestId: 'req-1', text, user: 'alice', sourceFile: 'request.txt', claimedPath: null },
      new AbortController().signal,
    );
    return { outcome, provider };
  } finally {
    await runtime.close();
  }
}

function toolResults(root: string, sessionId: string): ToolResultRecord[] {
  return journalOf(root, sessionId).filter((record): record is ToolResultRecord => record.type === 'tool_result');
}

async function entryOf(root: string, sessionId: string, agent: string) {
  const entries = (await auditEntries(root)).filter(
    (entry) => entry.body.includes(`[SESSION_ID: ${sessionId}]`) && entry.body.includes(`[AGENT: ${agent}]`),
  );
  expect(entries).toHaveLength(1);
  return entries[0].body;
}

function violationsOf(body: string): Array<{ kind: string; detail: string }> {
  const line = body.split('\n').find((text) => text.startsWith('[VIOLATIONS]: '));
  return line ? (JSON.parse(line.slice('[VIOLATIONS]: '.length)) as Array<{ kind: string; detail: string }>) : [];
}

describe('delegation', () => {
  it('runs a child session and returns its result as the tool result, with audit lines on both sides', async () => {
    const root = delegationRoot('pii: { redact: [email] }\n');
    const { outcome, provider } = await run(root, {
      lead_agent: [delegate('d1', 'Find the facts', { contact: 'carol@example.com' }), answer('lead done')],
      research_agent: [answer('three facts')],
    });
    expect(outcome.status).toBe('success');
    const parentId = outcome.sessionId;
    const childId = childSessionId(parentId, 'd1');
    // Offered natively, next to the agent's own tools.
    expect(provider.calls[0].tools).toEqual(['write_file', 'delegate']);

    const [result] = toolResults(root, parentId);
    expect(result.is_error).toBe(false);
    expect(JSON.parse(result.output)).toEqual({
      child_session: childId,
      agent: 'research_agent',
      status: 'success',
      output: { report: 'three facts' },
      message: 'success: report',
      artifacts: [],
      used_sources: {
        files: ['context/application.md', 'governance/agents/research_agent.md'],
        tools: [],
      },
      token_usage: {
        input_tokens: expect.any(Number),
        output_tokens: expect.any(Number),
        cost_usd: expect.any(Number),
      },
    });
    expect(result.delegation).toMatchObject({
      child_session: childId,
      agent: 'research_agent',
      objective_sha256: sha256Hex('Find the facts'),
      status: 'success',
    });

    // The child: its own journal, starting at research_agent, the parent's user, depth 1, redacted input.
    const childSession = journalOf(root, childId)[0] as SessionRecord;
    expect(childSession.entry_agent).toBe('research_agent');
    expect(childSession.request.user).toBe('alice');
    expect(childSession.delegation).toMatchObject({
      parent_session_id: parentId,
      root_session_id: parentId,
      depth: 1,
      call_id: 'd1',
    });
    expect(childSession.request.text).toContain('Find the facts');
    expect(childSession.request.text).toContain('[EMAIL_1]');
    expect(readFileSync(path.join(root, 'system', 'sessions', childId, 'journal.jsonl'), 'utf8')).not.toContain(
      'carol@example.com',
    );
    expect(provider.calls[1].prompt).not.toContain('carol@example.com');

    const childEntry = await entryOf(root, childId, 'research_agent');
    const lines = childEntry.split('\n');
    const sessionLine = lines.indexOf(`[SESSION_ID: ${childId}]`);
    expect(lines.indexOf(`[PARENT_SESSION_ID: ${parentId}]`)).toBeGreaterThan(sessionLine);
    expect(lines.indexOf('[DEPTH: 1]')).toBeGreaterThan(sessionLine);
    expect(childEntry).toContain('[USER: alice]');
    const parentEntry = await entryOf(root, parentId, 'lead_agent');
    expect(parentEntry).not.toContain('[PARENT_SESSION_ID');
    expect(parentEntry).toMatch(
      new RegExp(
        `\\[DELEGATIONS\\]: \\[\\{"child_session":"${childId.replace(/\./g, '\\.')}","agent":"research_agent","objective_sha256":"` +
          `${sha256Hex('Find the facts')}","status":"success","ms":\\d+,"artifacts":0\\}\\]`,
      ),
    );
    expect(parentEntry).toContain('[TOOL_CALLS]: [{"id":"d1","name":"delegate","is_error":false');
    const verified = await verifyRoot(root);
    expect(verified.ok).toBe(true);
  });

  it("gives the child a copy of its parent's vault: a value keeps its placeholder, a new one gets the next", async () => {
    const root = delegationRoot('pii: { redact: [email] }\n');
    const { outcome } = await run(
      root,
      {
        lead_agent: [delegate('d1', 'Write to [EMAIL_1]', { cc: 'bob.stone@example.net' }), answer('lead done')],
        research_agent: [answer('written')],
      },
      'Write to jane.doe@example.com about the budget.',
    );
    expect(outcome.status).toBe('success');
    const childId = childSessionId(outcome.sessionId, 'd1');
    const childSession = journalOf(root, childId)[0] as SessionRecord;
    expect(childSession.request.text).toContain('Write to [EMAIL_1]');
    expect(childSession.request.text).toContain('"cc": "[EMAIL_2]"');
    const vault = JSON.parse(readFileSync(path.join(root, 'system', 'sessions', childId, 'pii-vault.json'), 'utf8'));
    expect(
      vault.entries.map((entry: { placeholder: string; value: string }) => [entry.placeholder, entry.value]),
    ).toEqual([
      ['EMAIL_1', 'jane.doe@example.com'],
      ['EMAIL_2', 'bob.stone@example.net'],
    ]);
  });

  it("hands the child's result to the parent in the parent's placeholders", async () => {
    const root = delegationRoot('pii: { redact: [email] }\n');
    const { outcome } = await run(
      root,
      {
        lead_agent: [delegate('d1', 'Write to [EMAIL_1]'), answer('done; erin@example.com next')],
        research_agent: [answer('wrote, cc dave@example.org')],
      },
      'Write to jane.doe@example.com about the budget.',
    );
    expect(outcome.status).toBe('success');
    const folder = path.join(root, 'system', 'sessions', outcome.sessionId);
    const vault = JSON.parse(readFileSync(path.join(folder, 'pii-vault.json'), 'utf8'));
    // dave reached the parent as itself and took its next placeholder; erin came after him.
    expect(
      vault.entries.map((entry: { placeholder: string; value: string }) => [entry.placeholder, entry.value]),
    ).toEqual([
      ['EMAIL_1', 'jane.doe@example.com'],
      ['EMAIL_2', 'dave@example.org'],
      ['EMAIL_3', 'erin@example.com'],
    ]);
    const [result] = toolResults(root, outcome.sessionId);
    expect(JSON.parse(result.output).output).toEqual({ report: 'wrote, cc [EMAIL_2]' });
    expect(readFileSync(path.join(folder, 'journal.jsonl'), 'utf8')).not.toContain('dave@example.org');
  });

  it("gives the child its own workspace: it cannot read the parent's files", async () => {
    const root = delegationRoot();
    const { outcome } = await run(root, {
      lead_agent: [
        { tool_calls: [{ id: 'w1', name: 'write_file', input: { path: 'secret.txt', content: 'parent only' } }] },
        delegate('d1', 'Read the secret'),
        answer('done'),
      ],
      research_agent: [
        {
          tool_calls: [
            { id: 'r1', name: 'read_file', input: { path: 'secret.txt' } },
            { id: 'r2', name: 'read_file', input: { path: '' } },
          ],
        },
        answer('nothing found'),
      ],
    });
    const childId = childSessionId(outcome.sessionId, 'd1');
    const reads = toolResults(root, childId);
    expect(reads.map((read) => read.is_error)).toEqual([true, true]);
    for (const read of reads) expect(read.output).not.toContain('parent only');
    const relative = path.join('..', outcome.sessionId, 'secret.txt');
    // A path climbing into the parent's folder is refused too.
    const escape = await run(root, {
      lead_agent: [delegate('d1', 'Climb out'), answer('done')],
      research_agent: [{ tool_calls: [{ id: 'r1', name: 'read_file', input: { path: relative } }] }, answer('nothing')],
    });
    const [climb] = toolResults(root, childSessionId(escape.outcome.sessionId, 'd1'));
    expect(climb.is_error).toBe(true);
    expect(climb.output).not.toContain('parent only');
  });

  it('runs the delegate calls of a turn at the same time; other calls keep their order; results journaled in call order', async () => {
    const root = delegationRoot();
    const write = (id: string) => ({ id, name: 'write_file', input: { path: `${id}.txt`, content: id } });
    const { outcome } = await run(root, {
      lead_agent: [
        {
          tool_calls: [
            { id: 'd1', name: 'delegate', input: { agent: 'research_agent', objective: 'First' } },
            write('w1'),
            { id: 'd2', name: 'delegate', input: { agent: 'research_agent', objective: 'Second' } },
            write('w2'),
          ],
        },
        answer('done'),
      ],
      research_agent: [
        { text: answer('first'), delay_ms: 400 },
        { text: answer('second'), delay_ms: 400 },
      ],
    });
    expect(outcome.status).toBe('success');
    const records = journalOf(root, outcome.sessionId);
    expect(
      records.filter((record) => record.type === 'tool_result').map((record) => (record as ToolResultRecord).id),
    ).toEqual(['d1', 'w1', 'd2', 'w2']);
    const spans = ['d1', 'd2'].map((id) => {
      const child = journalOf(root, childSessionId(outcome.sessionId, id));
      const finished = child.find((record) => record.type === 'finished') as { at: string };
      return { start: Date.parse((child[0] as SessionRecord).created_at), end: Date.parse(finished.at) };
    });
    expect(Math.max(spans[0].start, spans[1].start)).toBeLessThan(Math.min(spans[0].end, spans[1].end));
  });

  it('refuses a delegation deeper than limits.max_depth', async () => {
    const root = delegationRoot('limits: { max_depth: 1 }\n');
    const { outcome } = await run(root, {
      lead_agent: [delegate('d1', 'Level one'), answer('done')],
      research_agent: [delegate('d2', 'Level two'), answer('level one done')],
    });
    expect(outcome.status).toBe('success');
    const childId = childSessionId(outcome.sessionId, 'd1');
    const [refused] = toolResults(root, childId);
    expect(refused).toMatchObject({ is_error: true, refused: 'delegation_refused' });
    expect(refused.output).toMatch(
      /^delegation refused \(max_depth\): this session is at depth 1, and a session may delegate only while its depth is under limits\.max_depth = 1/,
    );
    const childEntry = await entryOf(root, childId, 'research_agent');
    expect(violationsOf(childEntry)).toEqual([
      { kind: 'delegation_refused', detail: expect.stringMatching(/^max_depth: /) },
    ]);
    expect(childEntry).toContain('"child_session":null,"agent":"research_agent"');
    expect(childEntry).toContain('"status":"refused"');
  });

  it('refuses more than limits.max_fan_out children running at once in the tree', async () => {
    const root = delegationRoot('limits: { max_fan_out: 1 }\n');
    const { outcome } = await run(root, {
      lead_agent: [delegate('d1', 'Level one'), answer('done')],
      research_agent: [delegate('d2', 'Level two'), answer('level one done')],
    });
    const childId = childSessionId(outcome.sessionId, 'd1');
    const [refused] = toolResults(root, childId);
    expect(refused.output).toMatch(
      /^delegation refused \(max_fan_out\): 1 child sessions of this session tree are running already \(limits\.max_fan_out = 1\)/,
    );
    expect(violationsOf(await entryOf(root, childId, 'research_agent'))).toEqual([
      { kind: 'delegation_refused', detail: expect.stringMatching(/^max_fan_out: /) },
    ]);
    // Once the first child is done, the next one may run.
    const [first] = toolResults(root, outcome.sessionId);
    expect(first.is_error).toBe(false);
  });

  it('refuses the same origin, target and objective twice in one session tree (cycle)', async () => {
    const root = delegationRoot();
    const { outcome } = await run(root, {
      lead_agent: [
        {
          tool_calls: [
            { id: 'd1', name: 'delegate', input: { agent: 'research_agent', objective: 'Same' } },
            { id: 'd2', name: 'delegate', input: { agent: 'research_agent', objective: 'Same' } },
            { id: 'd3', name: 'delegate', input: { agent: 'research_agent', objective: 'Other' } },
          ],
        },
        answer('done'),
      ],
      research_agent: [answer('first'), answer('other')],
    });
    const results = toolResults(root, outcome.sessionId);
    expect(results.map((result) => [result.id, result.is_error, result.delegation?.status])).toEqual([
      ['d1', false, 'success'],
      ['d2', true, 'refused'],
      ['d3', false, 'success'],
    ]);
    expect(results[1].output).toMatch(
      /^delegation refused \(cycle\): lead_agent already delegated this same objective to research_agent/,
    );
    const entry = await entryOf(root, outcome.sessionId, 'lead_agent');
    expect(violationsOf(entry)).toEqual([{ kind: 'delegation_refused', detail: expect.stringMatching(/^cycle: /) }]);
    expect(entry).toContain('"status":"refused"');
  });

  it('stops a child at limits.delegation_deadline_ms: it fails, and the parent hears why', async () => {
    const root = delegationRoot('limits: { delegation_deadline_ms: 300 }\n');
    const started = Date.now();
    const { outcome } = await run(root, {
      lead_agent: [delegate('d1', 'Take your time'), answer('done anyway')],
      research_agent: [{ text: answer('too late'), delay_ms: 10_000 }],
    });
    expect(Date.now() - started).toBeLessThan(8000);
    expect(outcome.status).toBe('success');
    const childId = childSessionId(outcome.sessionId, 'd1');
    const [result] = toolResults(root, outcome.sessionId);
    expect(result.is_error).toBe(true);
    const document = JSON.parse(result.output) as Record<string, unknown>;
    expect(document).toMatchObject({ child_session: childId, status: 'failed', error: { error_code: 'TIMEOUT' } });
    const childEntry = await entryOf(root, childId, 'research_agent');
    expect(childEntry).toContain('[ERROR: TIMEOUT]');
    const parentEntry = await entryOf(root, outcome.sessionId, 'lead_agent');
    expect(violationsOf(parentEntry)).toEqual([
      { kind: 'delegation_stopped', detail: expect.stringMatching(/^delegation_deadline_ms: /) },
    ]);
    expect((await verifyRoot(root)).ok).toBe(true);
  });

  it('stops a child past limits.max_tokens_per_delegation', async () => {
    const root = delegationRoot('limits: { max_tokens_per_delegation: 50 }\n');
    const { outcome } = await run(root, {
      lead_agent: [delegate('d1', 'Think hard'), answer('done')],
      research_agent: [
        { text: 'not json at all', usage: { input_tokens: 40, output_tokens: 40 } },
        answer('never reached'),
      ],
    });
    const [result] = toolResults(root, outcome.sessionId);
    expect(JSON.parse(result.output)).toMatchObject({ status: 'failed', error: { error_code: 'BUDGET_EXCEEDED' } });
    const childEntry = await entryOf(root, childSessionId(outcome.sessionId, 'd1'), 'research_agent');
    expect(childEntry).toContain('[ERROR: BUDGET_EXCEEDED]');
    expect(violationsOf(await entryOf(root, outcome.sessionId, 'lead_agent'))).toEqual([
      { kind: 'delegation_stopped', detail: expect.stringMatching(/^max_tokens_per_delegation: /) },
    ]);
  });

  it('a delegate call naming an agent outside delegates:, or without an objective, is refused as invalid input', async () => {
    const root = delegationRoot();
    const { outcome } = await run(root, {
      lead_agent: [
        {
          tool_calls: [
            { id: 'd1', name: 'delegate', input: { agent: 'lead_agent', objective: 'Loop back' } },
            { id: 'd2', name: 'delegate', input: { agent: 'research_agent', objective: '  ' } },
          ],
        },
        answer('done'),
      ],
    });
    expect(outcome.status).toBe('success');
    const results = toolResults(root, outcome.sessionId);
    expect(results.map((result) => [result.refused, result.is_error])).toEqual([
      ['invalid_input', true],
      ['invalid_input', true],
    ]);
    expect(results[0].output).toBe(
      'delegate was not run: lead_agent may not delegate to "lead_agent"; it may delegate to: research_agent',
    );
    expect(results[1].output).toMatch(/"objective" must be a non-empty string/);
    expect(violationsOf(await entryOf(root, outcome.sessionId, 'lead_agent'))).toEqual([]);
  });

  it('an agent without delegates: is not offered delegate and its call is refused', async () => {
    const root = delegationRoot();
    writeFile(
      root,
      'governance/agents/lead_agent.md',
      agentFile([
        'name: lead_agent',
        'type: operational',
        'description: Leads.',
        'entry: true',
        'next: []',
        'content_type: report',
        'tools: [write_file]',
      ]),
    );
    writeFile(
      root,
      'governance/agents/research_agent.md',
      agentFile([
        'name: research_agent',
        'type: executional',
        'description: Researches.',
        'next: []',
        'content_type: report',
      ]),
    );
    const { outcome, provider } = await run(root, { lead_agent: [delegate('d1', 'Anything'), answer('done')] });
    expect(provider.calls[0].tools).toEqual(['write_file']);
    const [refused] = toolResults(root, outcome.sessionId);
    expect(refused.refused).toBe('tool_not_allowed');
    expect(violationsOf(await entryOf(root, outcome.sessionId, 'lead_agent'))).toEqual([
      { kind: 'tool_not_allowed', detail: 'delegate' },
    ]);
  });
});
