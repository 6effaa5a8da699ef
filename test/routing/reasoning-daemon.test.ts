/**
 * SPEC §24 reasoning, run by `govflow start` against a loopback server in each wire format's own
 * reasoning shape: OpenAI's reasoning summaries (Responses API `reasoning` items, the `openai`
 * kind), OpenAI-compatible `reasoning_content` (DeepSeek, vLLM, Ollama), Anthropic `thinking`
 * blocks, Gemini `thought` parts. The reasoning is kept in the journal with its model
 * call and shown in the web view under its message; `[REASONING]` carries its code-point length and
 * SHA-256; it never reaches the next agent or the result.
 */
import { createHash } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type ExchangeRecord } from '../../src/store/session-journal.js';
import { SessionJournal } from '../../src/store/journal-reader.js';
import { buildDistOnce } from '../daemon/build-once.js';
import { cleanupAll, runCli, startDaemon } from '../daemon/daemon-helpers.js';
import { httpUrlOf } from '../http/http-test-helpers.js';
import type { ScriptedReply } from '../llm/loopback-llm-server.js';
import { startResponderLlmServer, type ResponderLlmServer } from '../providers/responder-llm-server.js';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { SENTIENT_MESSAGE_SCHEMA } from '../../src/message/sentient-message.js';
import {
  agentNamed,
  auditBlocks,
  auditLine,
  dropRequest,
  journalMessages,
  routedRoot,
  sentient,
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

const THOUGHT = 'The user wants Ana’s case — score it 0.9 🙂 because the file is complete.';

/** A whole (non-streamed) answer carrying `reasoning` in each wire's own shape. */
const WIRES: Array<{
  kind: string;
  basePath: string;
  /** The model configured, when the wire's SDK decides by it (the default is `m`). */
  model?: string;
  reply: (text: string, reasoning: string | null) => ScriptedReply;
}> = [
  {
    kind: 'openai',
    basePath: '/v1',
    // A reasoning model: the SDK asks only those for a summary.
    model: 'o4-mini',
    reply: (text, reasoning) =>
      raw({
        id: 'resp_1',
        object: 'response',
        created_at: 0,
        model: 'o4-mini',
        status: 'completed',
        output: [
          ...(reasoning
            ? [{ type: 'reasoning', id: 'rs_1', summary: [{ type: 'summary_text', text: reasoning }] }]
            : []),
          {
            type: 'message',
            id: 'msg_1',
            role: 'assistant',
            status: 'completed',
            content: [{ type: 'output_text', text, annotations: [] }],
          },
        ],
        usage: { input_tokens: 10, output_tokens: 20, total_tokens: 30 },
      }),
  },
  {
    kind: 'openai-compatible',
    basePath: '/v1',
    reply: (text, reasoning) =>
      raw({
        id: 'c1',
        object: 'chat.completion',
        created: 0,
        model: 'm',
        choices: [
          {
            index: 0,
            message: { role: 'assistant', content: text, ...(reasoning ? { reasoning_content: reasoning } : {}) },
            finish_reason: 'stop',
          },
        ],
        usage: { prompt_tokens: 10, completion_tokens: 20, total_tokens: 30 },
      }),
  },
  {
    kind: 'anthropic',
    basePath: '/v1',
    reply: (text, reasoning) =>
      raw({
        id: 'msg_1',
        type: 'message',
        role: 'assistant',
        model: 'm',
        content: [
          ...(reasoning ? [{ type: 'thinking', thinking: reasoning, signature: 'sig-1' }] : []),
          { type: 'text', text },
        ],
        stop_reason: 'end_turn',
        stop_sequence: null,
        usage: { input_tokens: 10, output_tokens: 20 },
      }),
  },
  {
    kind: 'google',
    basePath: '/v1beta',
    reply: (text, reasoning) =>
      raw({
        candidates: [
          {
            content: { role: 'model', parts: [...(reasoning ? [{ text: reasoning, thought: true }] : []), { text }] },
            finishReason: 'STOP',
            index: 0,
          },
        ],
        usageMetadata: { promptTokenCount: 10, candidatesTokenCount: 20, totalTokenCount: 30 },
        modelVersion: 'm',
      }),
  },
];

function raw(body: unknown): ScriptedReply {
  return { kind: 'raw', status: 200, contentType: 'application/json', body: JSON.stringify(body) };
}

const AGENTS = {
  scorer_agent: {
    frontmatter: [
      'name: scorer_agent',
      'type: governance',
      'description: Scores.',
      'entry: true',
      'next: [writer_agent]',
      'content_type: score',
    ],
  },
  writer_agent: {
    frontmatter: ['name: writer_agent', 'type: operational', 'description: Writes.', 'next: []', 'content_type: text'],
  },
};

describe('a thought field a custom message schema adds', () => {
  it('is hashed on the entry like provider reasoning and never reaches the next agent', async () => {
    const thought = 'Scored from the file: it is complete.';
    server = await startResponderLlmServer((request) => {
      const agent = agentNamed(request.system);
      const message =
        agent === 'scorer_agent'
          ? { ...sentient({ content: { score: 0.9 }, contentType: 'score', next: 'writer_agent' }), thought }
          : { ...sentient({ content: 'Ana is approved.', contentType: 'text' }), thought: '' };
      return { kind: 'text', text: JSON.stringify(message) };
    });
    const root = routedRoot(`${server.url}/v1`, AGENTS, 'message: { schema: schemas/with-thought.json }\n');
    const schema = structuredClone(SENTIENT_MESSAGE_SCHEMA) as unknown as {
      properties: Record<string, unknown>;
      required: string[];
    };
    schema.properties.thought = { type: 'string' };
    schema.required.push('thought');
    writeFileSync(path.join(root, 'schemas', 'with-thought.json'), JSON.stringify(schema));
    const daemon = await startDaemon(root);
    dropRequest(root, 'custom', 'Score Ana');
    const result = await waitForResult(root, 'custom');
    expect(result.status, JSON.stringify(result)).toBe('success');
    const entries = auditBlocks(root).filter((block) => block.includes(`[SESSION_ID: ${result.session_id}]`));
    expect(auditLine(entries[0], 'REASONING')).toEqual({
      chars: thought.length,
      sha256: createHash('sha256').update(thought).digest('hex'),
    });
    expect(auditLine(entries[1], 'REASONING')).toBeUndefined();
    const writerCall =
      server.requests[server.arrivedSystems.findIndex((system) => agentNamed(system) === 'writer_agent')];
    expect(JSON.stringify(writerCall.body)).toContain('score');
    expect(JSON.stringify(writerCall.body)).not.toContain('it is complete');
    await daemon.stop();
  }, 120_000);
});

describe('provider reasoning (SPEC §24), each wire format', () => {
  for (const wire of WIRES) {
    it(`${wire.kind}: journaled with its call, hashed on the entry, shown in the web view, never passed on`, async () => {
      server = await startResponderLlmServer((request) => {
        const agent = agentNamed(request.system);
        if (agent === 'scorer_agent')
          return wire.reply(
            JSON.stringify(sentient({ content: { score: 0.9 }, contentType: 'score', next: 'writer_agent' })),
            THOUGHT,
          );
        return wire.reply(JSON.stringify(sentient({ content: 'Ana is approved.', contentType: 'text' })), null);
      });
      const root = routedRoot(`${server.url}${wire.basePath}`, AGENTS, 'http: { listen: "127.0.0.1:0" }\n', wire.kind);
      if (wire.model) {
        const config = path.join(root, 'govflow.config.yaml');
        writeFileSync(config, readFileSync(config, 'utf8').replace('model: m,', `model: ${wire.model},`));
      }
      const daemon = await startDaemon(root, {
        env: { OPENAI_API_KEY: 'k', ANTHROPIC_API_KEY: 'k', GOOGLE_GENERATIVE_AI_API_KEY: 'k', GEMINI_API_KEY: 'k' },
      });
      dropRequest(root, 'think', 'Score Ana');
      const result = await waitForResult(root, 'think');
      expect(result.status, JSON.stringify(result)).toBe('success');

      // The journal keeps it with the model call that produced it.
      const records = SessionJournal.read(path.join(root, 'system', 'sessions', result.session_id));
      const exchanges = records.filter((record): record is ExchangeRecord => record.type === 'exchange');
      expect(exchanges.map((exchange) => [exchange.agent, exchange.reasoning ?? null])).toEqual([
        ['scorer_agent', THOUGHT],
        ['writer_agent', null],
      ]);

      // [REASONING] on the scorer's entry only: code points, not UTF-16 units.
      const entries = auditBlocks(root).filter((block) => block.includes(`[SESSION_ID: ${result.session_id}]`));
      expect(auditLine(entries[0], 'REASONING')).toEqual({
        chars: [...THOUGHT].length,
        sha256: createHash('sha256').update(THOUGHT).digest('hex'),
      });
      expect([...THOUGHT].length).toBeLessThan(THOUGHT.length);
      expect(auditLine(entries[1], 'REASONING')).toBeUndefined();

      // Never passed on: not in the next agent's call, its message, or the result.
      const writerCall =
        server.requests[server.arrivedSystems.findIndex((system) => agentNamed(system) === 'writer_agent')];
      expect(JSON.stringify(writerCall.body)).not.toContain('file is complete');
      // The `openai` kind asks for the summary through the Responses API.
      if (wire.kind === 'openai')
        expect([writerCall.url, writerCall.body.reasoning]).toEqual(['/v1/responses', { summary: 'auto' }]);
      expect(JSON.stringify(journalMessages(root, result.session_id))).not.toContain('file is complete');
      expect(JSON.stringify(result)).not.toContain('file is complete');

      // The web view shows it under its message.
      const page = await fetch(`${httpUrlOf(daemon.readyLine)}/ui/sessions/${result.session_id}`);
      expect(page.status).toBe(200);
      const html = await page.text();
      const scorer = html.slice(html.indexOf('id="m-1"'), html.indexOf('id="m-2"'));
      expect(scorer).toContain('reasoning');
      expect(scorer).toContain('because the file is complete');

      const verified = await runCli(['verify', '--root', root]);
      expect(verified.code, verified.stdout + verified.stderr).toBe(0);
      await daemon.stop();
    }, 120_000);
  }
});
