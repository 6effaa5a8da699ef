/**
 * SPEC §24 free-text agents (`protocol: none`), run by `govflow start` against a loopback
 * OpenAI-compatible server: no message-format instructions and no JSON mode in the call, the whole
 * answer becomes output.content of a message the orchestrator makes, the next agent comes from
 * routes, else the only `next`, else the chain ends; `govflow validate` refuses two `next` without
 * a default route.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { buildDistOnce } from '../daemon/build-once.js';
import { cleanupAll, runCli, startDaemon } from '../daemon/daemon-helpers.js';
import { startResponderLlmServer, type ResponderLlmServer } from '../providers/responder-llm-server.js';
import {
  agentNamed,
  auditBlocks,
  auditLine,
  byAgent,
  dropRequest,
  journalMessages,
  routedRoot,
  sentient,
  userText,
  waitForResult,
} from './routing-support.js';

beforeAll(buildDistOnce, 180_000);
afterEach(cleanupAll);
afterAll(cleanupAll);

let server: ResponderLlmServer | null = null;
afterEach(async () => {
  await server?.close();
  server = null;
});

const PROSE = 'Dear Ana,\n\nYour case is **approved**. {"not": "a message"}\n';

const AGENTS = {
  intake_agent: {
    frontmatter: [
      'name: intake_agent',
      'type: governance',
      'description: Takes the case.',
      'entry: true',
      'next: [drafter_agent]',
      'content_type: case',
    ],
  },
  // Free text with two next agents: a default route decides.
  drafter_agent: {
    frontmatter: [
      'name: drafter_agent',
      'type: operational',
      'description: Drafts a letter.',
      'protocol: none',
      'next: [letter_agent, urgent_agent]',
      'content_type: draft',
      'routes:',
      `  - { when: 'output.content.contains("URGENT")', to: urgent_agent }`,
      '  - { to: letter_agent }',
    ],
    body: '# Drafter\nDraft a short letter.\n',
  },
  // Free text, one next: that one.
  letter_agent: {
    frontmatter: [
      'name: letter_agent',
      'type: operational',
      'description: Polishes the letter.',
      'protocol: none',
      'next: [final_agent]',
      'content_type: letter',
    ],
    body: '# Letter\nPolish the letter.\n',
  },
  urgent_agent: {
    frontmatter: [
      'name: urgent_agent',
      'type: operational',
      'description: Escalates.',
      'next: []',
      'content_type: done',
    ],
  },
  // Free text, terminal: the chain ends with its prose.
  final_agent: {
    frontmatter: [
      'name: final_agent',
      'type: operational',
      'description: Signs the letter.',
      'protocol: none',
      'content_type: letter',
    ],
    body: '# Final\nSign the letter.\n',
  },
};

describe('free-text agents (protocol: none)', () => {
  it('make their whole answer the output, with no format instructions, routed by routes or their only next', async () => {
    server = await startResponderLlmServer(
      byAgent((agent, request) => {
        if (agent === 'intake_agent')
          return sentient({ content: { case: userText(request) }, contentType: 'case', next: 'drafter_agent' });
        if (agent === 'drafter_agent')
          return userText(request).includes('URGENT') ? 'URGENT: call Ana now.' : 'Draft for Ana.';
        if (agent === 'letter_agent') return 'Polished draft for Ana.';
        if (agent === 'final_agent') return PROSE;
        return sentient({ content: 'escalated', contentType: 'done' });
      }),
    );
    const root = routedRoot(`${server.url}/v1`, AGENTS);
    const daemon = await startDaemon(root);

    dropRequest(root, 'letter', 'Approve the case of Ana');
    const done = await waitForResult(root, 'letter');
    expect(done.status).toBe('success');
    const messages = journalMessages(root, done.session_id).map((record) => record.message);
    expect(messages.map((message) => message.agent.name)).toEqual([
      'intake_agent',
      'drafter_agent',
      'letter_agent',
      'final_agent',
    ]);
    const [, drafted, polished, signed] = messages;
    expect(drafted.output).toEqual({ content: 'Draft for Ana.', content_type: 'draft' });
    expect(drafted.status.code).toBe('success');
    expect(drafted.next_agent).toEqual({ name: 'letter_agent', reason: 'route 1: always' });
    expect(polished.next_agent.name).toBe('final_agent');
    expect(signed).toMatchObject({ output: { content: PROSE, content_type: 'letter' }, next_agent: { name: null } });
    expect(done.output).toBe(PROSE);
    const entries = auditBlocks(root).filter((block) => block.includes(`[SESSION_ID: ${done.session_id}]`));
    expect(auditLine(entries[1], 'ROUTE')).toEqual({ index: 1, when: null, to: 'letter_agent' });
    expect(entries[1]).not.toContain('[CORRECTIONS]');

    // The free-text calls carried no protocol block and asked for no JSON; the Sentient agent's did.
    const calls = server.requests.map((request, index) => ({
      agent: agentNamed(server!.arrivedSystems[index]),
      system: server!.arrivedSystems[index],
      body: request.body,
    }));
    for (const call of calls) {
      const freeText = call.agent !== 'intake_agent';
      expect(call.system.includes('[SYSTEM PROTOCOL: RESPONSE FORMAT]'), call.agent).toBe(!freeText);
      expect(call.body.response_format !== undefined, call.agent).toBe(!freeText);
    }

    dropRequest(root, 'urgent', 'URGENT: Ana waits');
    const urgent = await waitForResult(root, 'urgent');
    expect(journalMessages(root, urgent.session_id).map((record) => record.message.agent.name)).toEqual([
      'intake_agent',
      'drafter_agent',
      'urgent_agent',
    ]);

    const verified = await runCli(['verify', '--root', root]);
    expect(verified.code, verified.stdout + verified.stderr).toBe(0);
    await daemon.stop();
  }, 120_000);

  it('govflow validate refuses a free-text agent with two next and no default route, naming the line of next:', async () => {
    const root = routedRoot('http://127.0.0.1:9/v1', {
      ...AGENTS,
      drafter_agent: { frontmatter: AGENTS.drafter_agent.frontmatter.slice(0, 6) }, // next: on line 6
    });
    const validated = await runCli(['validate', '--root', root]);
    const text = validated.stdout + validated.stderr;
    expect(validated.code, text).not.toBe(0);
    expect(text).toMatch(
      /governance\/agents\/drafter_agent\.md:6\b.*protocol: none with 2 next agents needs a default route/,
    );
  });
});
