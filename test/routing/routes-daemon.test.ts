/**
 * SPEC §24 routes, run by `govflow start` as a child process against a loopback OpenAI-compatible
 * server: the first true `when` decides and overrides the model's next_agent, `[ROUTE]` names it,
 * a failed message reaches its routes, `request` and `agents` are variables, a `when` that cannot
 * be evaluated is noted and counts false, routes reload with the governance; `govflow validate`
 * names the file and line of a bad `when` or `to`.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { buildDistOnce } from '../daemon/build-once.js';
import { cleanupAll, runCli, startDaemon, waitFor } from '../daemon/daemon-helpers.js';
import { startResponderLlmServer, type ResponderLlmServer } from '../providers/responder-llm-server.js';
import { agentOf } from '../providers/example-app-responder.js';
import {
  auditBlocks,
  auditLine,
  byAgent,
  dropRequest,
  journalMessages,
  routedRoot,
  sentient,
  userText,
  waitForResult,
  writeAgent,
} from './routing-support.js';

beforeAll(buildDistOnce, 180_000);
afterEach(cleanupAll);
afterAll(cleanupAll);

let server: ResponderLlmServer | null = null;
afterEach(async () => {
  await server?.close();
  server = null;
});

const TRIAGE = (threshold: string) => [
  'name: triage_agent',
  'type: governance',
  'description: Scores a case.',
  'entry: true',
  'next: [high_agent, review_agent, error_agent]',
  'content_type: triage',
  'routes:',
  `  - { when: 'status.code == "failed"', to: error_agent }`,
  `  - { when: 'request.text.contains("URGENT")', to: high_agent }`,
  `  - { when: 'output.content.score > ${threshold}', to: high_agent }`,
  '  - { to: review_agent }',
];

const AGENTS = {
  triage_agent: { frontmatter: TRIAGE('0.8') },
  high_agent: {
    frontmatter: ['name: high_agent', 'type: operational', 'description: Acts.', 'next: []', 'content_type: done'],
  },
  review_agent: {
    frontmatter: [
      'name: review_agent',
      'type: operational',
      'description: Reviews a low score.',
      'next: [high_agent]',
      'content_type: review',
      'routes:',
      `  - when: agents.triage_agent.output.content.score < 0.3`,
      '    to: null',
    ],
  },
  error_agent: {
    frontmatter: ['name: error_agent', 'type: operational', 'description: Explains.', 'next: []', 'content_type: done'],
  },
};

/** The triage answer a request text asks for: `score=<n>`, `fail`, or `missing` (no score). */
function triageAnswer(text: string): Record<string, unknown> {
  if (text.includes('CASE:fail'))
    return sentient({
      content: null,
      contentType: 'triage',
      status: 'failed',
      message: 'cannot score',
      error: { code: 'PROCESSING_ERROR', message: 'no data' },
    });
  const score = /score=([0-9.]+)/.exec(text);
  return sentient({
    content: score ? { score: Number(score[1]) } : {},
    contentType: 'triage',
    next: 'review_agent',
  });
}

const responder = byAgent((agent, request) => {
  if (agent === 'triage_agent') return triageAnswer(userText(request));
  if (agent === 'review_agent') return sentient({ content: 'reviewed', contentType: 'review', next: 'high_agent' });
  return sentient({ content: `${agent} done`, contentType: 'done' });
});

/** The agents a session's messages came from, and its [ROUTE] values, in order. */
function chainOf(root: string, sessionId: string) {
  const blocks = auditBlocks(root).filter((block) => block.includes(`[SESSION_ID: ${sessionId}]`));
  return {
    agents: blocks.map((block) => /\[AGENT: ([a-z_]+)\]/.exec(block)![1]),
    routes: blocks.map((block) => auditLine(block, 'ROUTE') ?? null),
  };
}

describe('routes decided by the orchestrator (SPEC §24)', () => {
  it('overrides next_agent with the first true route, records [ROUTE], and reloads with the governance', async () => {
    server = await startResponderLlmServer(responder);
    const root = routedRoot(`${server.url}/v1`, AGENTS);
    const daemon = await startDaemon(root);

    // score 0.9: the model named review_agent; route 2 sends it to high_agent.
    dropRequest(root, 'r-high', 'Case score=0.9');
    const high = await waitForResult(root, 'r-high');
    expect(high.status).toBe('success');
    expect(chainOf(root, high.session_id)).toEqual({
      agents: ['triage_agent', 'high_agent'],
      routes: [{ index: 2, when: 'output.content.score > 0.8', to: 'high_agent' }, null],
    });
    const [triaged] = journalMessages(root, high.session_id);
    expect(triaged.message.next_agent).toEqual({ name: 'high_agent', reason: 'route 2: output.content.score > 0.8' });
    expect(triaged.corrections.join('\n')).toMatch(
      /next_agent\.name: model wrote "review_agent", route 2 set "high_agent"/,
    );

    // score 0.1: the default route, then review_agent's own route over `agents` ends the chain (to: null).
    dropRequest(root, 'r-low', 'Case score=0.1');
    const low = await waitForResult(root, 'r-low');
    expect(low.status).toBe('success');
    expect(chainOf(root, low.session_id)).toEqual({
      agents: ['triage_agent', 'review_agent'],
      routes: [
        { index: 3, when: null, to: 'review_agent' },
        { index: 0, when: 'agents.triage_agent.output.content.score < 0.3', to: null },
      ],
    });

    // `request` is a variable.
    dropRequest(root, 'r-urgent', 'URGENT case score=0.1');
    const urgent = await waitForResult(root, 'r-urgent');
    expect(chainOf(root, urgent.session_id).routes[0]).toEqual({
      index: 1,
      when: 'request.text.contains("URGENT")',
      to: 'high_agent',
    });

    // A failed message reaches its routes (this agent has no on_failure).
    dropRequest(root, 'r-failed', 'CASE:fail');
    const failed = await waitForResult(root, 'r-failed');
    expect(failed.status).toBe('success');
    expect(chainOf(root, failed.session_id)).toEqual({
      agents: ['triage_agent', 'error_agent'],
      routes: [{ index: 0, when: 'status.code == "failed"', to: 'error_agent' }, null],
    });

    // A `when` that cannot be evaluated counts false and is noted; with no match the model's next_agent stands.
    dropRequest(root, 'r-missing', 'CASE:missing');
    const missing = await waitForResult(root, 'r-missing');
    const chain = chainOf(root, missing.session_id);
    expect(chain.agents).toEqual(['triage_agent', 'review_agent', 'high_agent']);
    expect(chain.routes[0]).toMatchObject({
      index: 3,
      when: null,
      to: 'review_agent',
      errors: [{ index: 2, message: expect.stringMatching(/score/) }],
    });
    expect(chain.routes[1]).toMatchObject({ index: null, when: null, to: null, errors: [{ index: 0 }] });
    const reviewed = journalMessages(root, missing.session_id)[1];
    expect(reviewed.message.next_agent).toEqual({ name: 'high_agent', reason: 'the model chose high_agent' });

    // Hot reload: the new threshold applies to the next request.
    writeAgent(root, 'triage_agent', TRIAGE('0.95'));
    await waitFor('the reload', () => daemon.stderr.includes('governance reloaded'), { timeoutMs: 30_000 });
    dropRequest(root, 'r-reloaded', 'Case score=0.9');
    const reloaded = await waitForResult(root, 'r-reloaded');
    // review_agent's route is false without an error: no [ROUTE] line, the model's next_agent stands.
    expect(chainOf(root, reloaded.session_id)).toEqual({
      agents: ['triage_agent', 'review_agent', 'high_agent'],
      routes: [{ index: 3, when: null, to: 'review_agent' }, null, null],
    });

    // Every model call went through the adapter; the routed agents were asked, never the skipped ones.
    const asked = server.arrivedSystems.map(agentOf);
    expect(asked.filter((agent) => agent === 'error_agent')).toHaveLength(1);
    const verified = await runCli(['verify', '--root', root]);
    expect(verified.code, verified.stdout + verified.stderr).toBe(0);
    await daemon.stop();
  }, 180_000);

  it('govflow validate names the file and line of a bad when, an unknown variable and a to outside next', async () => {
    const root = routedRoot('http://127.0.0.1:9/v1', {
      ...AGENTS,
      triage_agent: {
        frontmatter: [
          'name: triage_agent', // line 2
          'type: governance',
          'description: Scores a case.',
          'entry: true',
          'next: [high_agent, review_agent, error_agent]',
          'content_type: triage',
          'routes:',
          `  - { when: 'output.content.score >', to: high_agent }`, // line 9
          '  - when: outptu.content.score > 1', // line 10
          '    to: high_agent',
          '  - when: status.code == "success"',
          '    to: nobody_agent', // line 13
          '  - { to: review_agent }',
        ],
      },
    });
    const validated = await runCli(['validate', '--root', root]);
    const text = validated.stdout + validated.stderr;
    expect(validated.code, text).not.toBe(0);
    expect(text).toMatch(/governance\/agents\/triage_agent\.md:9\b.*routes\[0\]\.when.*not a CEL expression/);
    expect(text).toMatch(/governance\/agents\/triage_agent\.md:10\b.*unknown variable "outptu"/);
    expect(text).toMatch(
      /governance\/agents\/triage_agent\.md:13\b.*routes\[2\]\.to "nobody_agent" is not in its next/,
    );
  });
});
