/**
 * POST /v1/agent/chat speaks seed 003's protocol byte for byte: the three example exchanges of
 * the seed (text only; one tool call over two turns; three turns) are replayed through a real
 * daemon with its HTTP API, and the event names, their order and every payload's keys must be the
 * seed's exactly — `turn` zero-based per LLM turn, `tool_use_id` (never `id`), `message_complete`
 * an empty object, and no `id:` lines in the frames. The text is the answer and nothing else
 * (SPEC §23): a tool-calling turn's words before its calls are not streamed, so the chunks joined
 * are exactly the result's `answer`.
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { DryRunProvider } from '../../src/llm/dry-run-provider.js';
import { ScriptedProvider, type ScriptedResponse } from '../../src/llm/scripted-provider.js';
import { agentMessage, exampleRoot, singleAgentRoot } from '../pipeline/pipeline-test-helpers.js';
import {
  getJson,
  httpTestbed,
  seed003Shape as shape,
  SseReader,
  startHttpDaemon,
  type SseEvent,
} from './http-test-helpers.js';
import { PROVIDER_INTERFACE_VERSION, type LlmProvider } from '../../src/llm/provider.js';

const { running } = httpTestbed();

/** A root with one agent that may list and read files in its workspace, answering from `responses`. */
async function chatDaemon(responses: Array<string | ScriptedResponse>): Promise<string> {
  const root = singleAgentRoot(
    'assistant_agent',
    ['description: Answers the user.', 'content_type: answer', 'tools: [list_files, read_file]'],
    'govflow-chat-seed-',
  );
  mkdirSync(path.join(root, 'workspace'), { recursive: true });
  const started = await startHttpDaemon(root, new ScriptedProvider({ responses: { assistant_agent: responses } }));
  running.push(started);
  return started.url;
}

const FINAL = agentMessage({ content: { answer: 'The workflow has 3 actions.' }, contentType: 'answer' });

async function chat(url: string, message: string): Promise<{ events: SseEvent[]; raw: string; headers: Headers }> {
  const response = await fetch(`${url}/v1/agent/chat`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'text/event-stream' },
    body: JSON.stringify({ message }),
  });
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/);
  const raw = await response.text();
  const events: SseEvent[] = [];
  for (const frame of raw.split('\n\n')) {
    const lines = frame.split('\n').filter((line) => line !== '' && !line.startsWith(':'));
    if (lines.length === 0) continue;
    // Seed 003's frames are exactly `event:` then `data:`.
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(/^event: [a-z_]+$/);
    expect(lines[1]).toMatch(/^data: /);
    events.push({ id: null, event: lines[0].slice(7), data: JSON.parse(lines[1].slice(6)) });
  }
  return { events, raw, headers: response.headers };
}

describe("the chat endpoint replays seed 003's example exchanges", () => {
  it('a simple question (no tools): message_start {turn: 0}, content_chunk…, message_complete {}', async () => {
    const url = await chatDaemon([FINAL]);
    const { events, raw, headers } = await chat(url, 'What does this workflow do?');
    expect(raw).not.toMatch(/^id:/m);
    expect(shape(events)).toEqual(['message_start ["turn"]', 'content_chunk ["chunk"]', 'message_complete []']);
    expect(events[0].data).toEqual({ turn: 0 });
    expect(events.at(-1)!.data).toEqual({});
    expect(headers.get('x-conversation-id')).toMatch(/^sess-/);
    expect(headers.get('x-request-id')).toBeTruthy();
  });

  it('a question requiring a tool call (2 turns): tool_use_id on start and result, turn 0 then 1', async () => {
    const url = await chatDaemon([
      { text: 'Let me look up that workflow.', tool_calls: [{ id: 't1', name: 'list_files', input: { path: '.' } }] },
      FINAL,
    ]);
    const { events } = await chat(url, 'What does the low stock workflow do?');
    expect(shape(events)).toEqual([
      'message_start ["turn"]',
      'tool_call_start ["name","tool_use_id"]',
      'tool_call_result ["is_error","name","tool_use_id"]',
      'message_start ["turn"]',
      'content_chunk ["chunk"]',
      'message_complete []',
    ]);
    expect(events.filter((event) => event.event === 'message_start').map((event) => event.data)).toEqual([
      { turn: 0 },
      { turn: 1 },
    ]);
    expect(events[1].data).toEqual({ tool_use_id: 't1', name: 'list_files' });
    expect(events[2].data).toEqual({ tool_use_id: 't1', name: 'list_files', is_error: false });
    expect(textOf(events)).toBe('The workflow has 3 actions.');
  });

  it('a workflow built over three turns: two tool calls, then the answer', async () => {
    const url = await chatDaemon([
      { tool_calls: [{ id: 't1', name: 'list_files', input: { path: '.' } }] },
      {
        text: "I'll build that workflow...",
        tool_calls: [{ id: 't2', name: 'read_file', input: { path: 'missing.md' } }],
      },
      FINAL,
    ]);
    const { events } = await chat(url, 'Build a low stock alert workflow.');
    expect(shape(events)).toEqual([
      'message_start ["turn"]',
      'tool_call_start ["name","tool_use_id"]',
      'tool_call_result ["is_error","name","tool_use_id"]',
      'message_start ["turn"]',
      'tool_call_start ["name","tool_use_id"]',
      'tool_call_result ["is_error","name","tool_use_id"]',
      'message_start ["turn"]',
      'content_chunk ["chunk"]',
      'message_complete []',
    ]);
    expect(events.filter((event) => event.event === 'message_start').map((event) => event.data)).toEqual([
      { turn: 0 },
      { turn: 1 },
      { turn: 2 },
    ]);
    // Reading a file that does not exist is the tool's error, reported as such.
    expect(events[5].data).toEqual({ tool_use_id: 't2', name: 'read_file', is_error: true });
    expect(textOf(events)).toBe('The workflow has 3 actions.');
  });

  it("dry-run: each agent starts a turn, and the text is the final answer only, never a message's JSON", async () => {
    const started = await startHttpDaemon(exampleRoot(), new DryRunProvider());
    running.push(started);
    const { events, headers } = await chat(started.url, 'Summarize: Ana sends the budget by Friday.');
    const starts = events.filter((event) => event.event === 'message_start').length;
    expect(starts).toBe(6); // the example app's six agents, one turn each
    expect(shape(events).at(-1)).toBe('message_complete []');
    const text = textOf(events);
    expect(text).not.toContain('"content_type"');
    const result = (await getJson(`${started.url}/v1/requests/${headers.get('x-request-id')}`)).body;
    expect(text).toBe(result.answer);
  });

  it("chat.progress: true sends each earlier agent's status.message and a blank line, then the answer", async () => {
    const started = await startHttpDaemon(exampleRoot('chat: { progress: true }\n'), new DryRunProvider());
    running.push(started);
    const { events, headers } = await chat(started.url, 'Summarize: Ana sends the budget by Friday.');
    const result = (await getJson(`${started.url}/v1/requests/${headers.get('x-request-id')}`)).body;
    const chunks = events
      .filter((event) => event.event === 'content_chunk')
      .map((event) => event.data as { chunk: string });
    // Five agents before the final one (two of them plan tasks), one line each.
    const lines = chunks.filter((chunk) => chunk.chunk.endsWith('\n\n'));
    expect(lines).toHaveLength(5);
    const lastStart = events.map((event) => event.event).lastIndexOf('message_start');
    expect(textOf(events.slice(lastStart + 1))).toBe(result.answer);
  });
});

describe('the answer streams while the final agent writes it', () => {
  it('sends the first part of the answer before the model has written the rest', async () => {
    // Long enough that its first part outlasts the 64 characters live chunks hold back (a PII value is never split).
    const ANSWER =
      'The rule fires when a stock level is updated and falls below its threshold, so the buyer hears of it early; ' +
      'then sends an alert to the buyer.';
    let release: () => void = () => {};
    const released = new Promise<void>((resolve) => (release = resolve));
    const text = agentMessage({ content: { answer: ANSWER }, contentType: 'answer' });
    const cut = text.indexOf('then sends');
    // A model that writes half its answer, then waits for the test before writing the rest.
    const provider: LlmProvider = {
      kind: 'scripted',
      interfaceVersion: PROVIDER_INTERFACE_VERSION,
      async generate(request) {
        request.onChunk?.(text.slice(0, cut));
        await released;
        request.onChunk?.(text.slice(cut));
        return {
          text,
          usage: { inputTokens: 1, outputTokens: 1, cachedInputTokens: 0 },
          model: 'm',
          provider: 'scripted',
        };
      },
    };
    const root = singleAgentRoot(
      'assistant_agent',
      ['description: Answers the user.', 'content_type: answer'],
      'govflow-chat-stream-',
    );
    const started = await startHttpDaemon(root, provider);
    running.push(started);
    const stream = await SseReader.open(`${started.url}/v1/agent/chat`, {
      method: 'POST',
      body: { message: 'What does it do?' },
    });
    const early = await stream.until((events) => events.some((event) => event.event === 'content_chunk'));
    const first = textOf(early);
    expect(first.length).toBeGreaterThan(0);
    expect(ANSWER.startsWith(first) && !first.includes('then sends')).toBe(true);
    release();
    const events = await stream.finished();
    expect(textOf(events)).toBe(ANSWER);
    expect(events.at(-1)!.event).toBe('message_complete');
  });
});

/** The chunks joined. */
function textOf(events: SseEvent[]): string {
  return events
    .filter((event) => event.event === 'content_chunk')
    .map((event) => (event.data as { chunk: string }).chunk)
    .join('');
}
