/**
 * SPEC §24 data mapping, run by `govflow start` against a loopback OpenAI-compatible server: an
 * `input:` that is one `{{ }}` keeps the value's JSON type, a mixed template is text with JSON for
 * non-strings, `[INPUT]` is the rendered input and the model is sent it; an expression that fails
 * ends the step with INVALID_INPUT naming it, before any model call.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { buildDistOnce } from '../daemon/build-once.js';
import { cleanupAll, runCli, startDaemon } from '../daemon/daemon-helpers.js';
import { agentOf } from '../providers/example-app-responder.js';
import { startResponderLlmServer, type ResponderLlmServer } from '../providers/responder-llm-server.js';
import {
  auditBlocks,
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

const GUESSES = ['ana@example.com', 'bo@example.org'];

const AGENTS = {
  research_agent: {
    frontmatter: [
      'name: research_agent',
      'type: governance',
      'description: Guesses addresses.',
      'entry: true',
      'next: [list_agent]',
      'content_type: research',
    ],
  },
  list_agent: {
    frontmatter: [
      'name: list_agent',
      'type: operational',
      'description: Checks a list.',
      'next: [text_agent]',
      'content_type: checked',
      "input: '{{ agents.research_agent.output.content.guesses }}'",
    ],
  },
  text_agent: {
    frontmatter: [
      'name: text_agent',
      'type: operational',
      'description: Writes it up.',
      'next: []',
      'content_type: text',
      "input: 'Write up {{ size(agents.research_agent.output.content.guesses) }} guesses" +
        ` {{ agents.research_agent.output.content.guesses }} for "{{ request.text }}" (checked: {{ output.content }})'`,
    ],
  },
};

describe('input templates (SPEC §24 data mapping)', () => {
  it('renders the input from earlier agents, and fails the step with INVALID_INPUT before any model call', async () => {
    server = await startResponderLlmServer(
      byAgent((agent, request) => {
        if (agent === 'research_agent')
          return sentient({
            content: userText(request).includes('CASE:none') ? { note: 'nothing found' } : { guesses: GUESSES },
            contentType: 'research',
            next: 'list_agent',
          });
        if (agent === 'list_agent')
          return sentient({ content: 'all valid', contentType: 'checked', next: 'text_agent' });
        return sentient({ content: 'written', contentType: 'text' });
      }),
    );
    const root = routedRoot(`${server.url}/v1`, AGENTS);
    const daemon = await startDaemon(root);

    dropRequest(root, 'ok', 'Find Ana');
    const done = await waitForResult(root, 'ok');
    expect(done.status).toBe('success');
    const [, listed, written] = journalMessages(root, done.session_id).map((record) => record.message);
    expect(listed.input).toEqual({ source: 'research_agent', content: GUESSES });
    expect(written.input.content).toBe(
      `Write up 2 guesses ${JSON.stringify(GUESSES)} for "Find Ana" (checked: all valid)`,
    );
    const blocks = auditBlocks(root).filter((block) => block.includes(`[SESSION_ID: ${done.session_id}]`));
    expect(blocks[1]).toContain(`[INPUT]: ${JSON.stringify(GUESSES)}`);
    expect(blocks[1]).toContain('[INPUT_ENCODING: json]');
    // The model was sent the rendered input, not the previous message.
    const listCall = server.requests[server.arrivedSystems.findIndex((system) => agentOf(system) === 'list_agent')];
    expect(JSON.stringify(listCall.body)).toContain('ana@example.com');
    expect(JSON.stringify(listCall.body)).not.toContain('research_agent continues');

    const callsBefore = server.requests.length;
    dropRequest(root, 'none', 'Find CASE:none');
    const failed = await waitForResult(root, 'none');
    expect(failed.status).toBe('failed');
    expect(failed.error).toMatchObject({ error_code: 'INVALID_INPUT' });
    expect(JSON.stringify(failed)).toContain('agents.research_agent.output.content.guesses');
    // research_agent was asked; list_agent never was.
    expect(server.arrivedSystems.slice(callsBefore).map(agentOf)).toEqual(['research_agent']);
    const messages = journalMessages(root, failed.session_id).map((record) => record.message);
    expect(messages.map((message) => [message.agent.name, message.status.code])).toEqual([
      ['research_agent', 'success'],
      ['list_agent', 'failed'],
    ]);

    const verified = await runCli(['verify', '--root', root]);
    expect(verified.code, verified.stdout + verified.stderr).toBe(0);
    await daemon.stop();
  }, 120_000);

  it('govflow validate names the line of an input template that does not parse or names an unknown variable', async () => {
    const root = routedRoot('http://127.0.0.1:9/v1', {
      ...AGENTS,
      list_agent: {
        frontmatter: [...AGENTS.list_agent.frontmatter.slice(0, -1), "input: 'Check {{ agents. }}'"], // line 7
      },
      text_agent: {
        frontmatter: [...AGENTS.text_agent.frontmatter.slice(0, -1), "input: '{{ reqest.text }}'"], // line 7
      },
    });
    const validated = await runCli(['validate', '--root', root]);
    const text = validated.stdout + validated.stderr;
    expect(validated.code, text).not.toBe(0);
    expect(text).toMatch(/governance\/agents\/list_agent\.md:7\b.*input.*not a CEL expression/);
    expect(text).toMatch(/governance\/agents\/text_agent\.md:7\b.*unknown variable "reqest"/);
  });
});
