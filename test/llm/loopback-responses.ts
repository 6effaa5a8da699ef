/**
 * The OpenAI Responses API (`POST /v1/responses`) for the loopback LLM server, which the `openai`
 * kind speaks (loopback-llm-server.ts keeps Chat Completions for openai-compatible servers and
 * Ollama). Shapes as the AI SDK's Responses parser reads them:
 * - plain JSON: `output` items — a `reasoning` item with its `summary_text` parts, a `message` with
 *   `output_text` content, `function_call` items (`call_id`, `name`, `arguments` as JSON text) —
 *   and `usage` with `input_tokens_details.cached_tokens`;
 * - SSE: `response.created`, then per item `response.output_item.added` … `.done` around its
 *   `response.reasoning_summary_*`, `response.output_text.delta` or
 *   `response.function_call_arguments.delta` events, then `response.completed` with the usage.
 */
import type { ServerResponse } from 'node:http';
import type { RecordedRequest, ScriptedReply, ScriptedUsage } from './loopback-llm-server.js';
import { DEFAULT_USAGE, sendJson, startSse } from './loopback-wire.js';

type TextReply = Extract<ScriptedReply, { kind: 'text' }>;
type ToolCallsReply = Extract<ScriptedReply, { kind: 'tool_calls' }>;

/** True for a request to the Responses API rather than Chat Completions. */
export function isResponsesRequest(request: Pick<RecordedRequest, 'url'>): boolean {
  return (request.url.split('?')[0] ?? '').endsWith('/responses');
}

function wireUsage(usage: ScriptedUsage) {
  return {
    input_tokens: usage.inputTokens,
    input_tokens_details: { cached_tokens: usage.cachedInputTokens ?? 0 },
    output_tokens: usage.outputTokens,
    output_tokens_details: { reasoning_tokens: 0 },
    total_tokens: usage.inputTokens + usage.outputTokens,
  };
}

function responseHead(model: string) {
  return { id: 'resp_loopback', object: 'response', created_at: 1_700_000_000, model };
}

const REASONING_ID = 'rs_loopback';
const MESSAGE_ID = 'msg_loopback';

/** The output items of an answer: reasoning summary, message text, function calls, in that order. */
function outputItems(reasoning: string | undefined, text: string | undefined, calls: ToolCallsReply['calls']) {
  return [
    ...(reasoning !== undefined
      ? [{ type: 'reasoning', id: REASONING_ID, summary: [{ type: 'summary_text', text: reasoning }] }]
      : []),
    ...(text !== undefined
      ? [
          {
            type: 'message',
            id: MESSAGE_ID,
            role: 'assistant',
            status: 'completed',
            content: [{ type: 'output_text', text, annotations: [] }],
          },
        ]
      : []),
    ...calls.map((call) => ({
      type: 'function_call',
      id: `fc_${call.id}`,
      call_id: call.id,
      name: call.name,
      arguments: call.arguments,
      status: 'completed',
    })),
  ];
}

/** A Responses SSE writer: each event named by its type and numbered, as OpenAI sends them. */
function responsesEvents(response: ServerResponse): (data: Record<string, unknown>) => void {
  const send = startSse(response);
  let sequence = 0;
  return (data) => send({ ...data, sequence_number: sequence++ }, data.type as string);
}

function streamReasoning(send: (data: Record<string, unknown>) => void, outputIndex: number, reasoning: string): void {
  const item = { type: 'reasoning', id: REASONING_ID, summary: [] };
  send({ type: 'response.output_item.added', output_index: outputIndex, item });
  const part = { item_id: REASONING_ID, output_index: outputIndex, summary_index: 0 };
  send({ type: 'response.reasoning_summary_part.added', ...part, part: { type: 'summary_text', text: '' } });
  for (const piece of halvesOf(reasoning))
    send({ type: 'response.reasoning_summary_text.delta', ...part, delta: piece });
  send({ type: 'response.reasoning_summary_text.done', ...part, text: reasoning });
  send({ type: 'response.reasoning_summary_part.done', ...part, part: { type: 'summary_text', text: reasoning } });
  send({
    type: 'response.output_item.done',
    output_index: outputIndex,
    item: { ...item, summary: [{ type: 'summary_text', text: reasoning }] },
  });
}

function halvesOf(text: string): string[] {
  const half = Math.floor(text.length / 2);
  return [text.slice(0, half), text.slice(half)].filter((piece) => piece !== '');
}

/** Opens the message item; the caller sends its text deltas, then `closeMessage`. */
function openMessage(send: (data: Record<string, unknown>) => void, outputIndex: number): void {
  send({
    type: 'response.output_item.added',
    output_index: outputIndex,
    item: { type: 'message', id: MESSAGE_ID, role: 'assistant', status: 'in_progress', content: [] },
  });
  send({
    type: 'response.content_part.added',
    item_id: MESSAGE_ID,
    output_index: outputIndex,
    content_index: 0,
    part: { type: 'output_text', text: '', annotations: [] },
  });
}

function textDelta(outputIndex: number, delta: string): Record<string, unknown> {
  return {
    type: 'response.output_text.delta',
    item_id: MESSAGE_ID,
    output_index: outputIndex,
    content_index: 0,
    delta,
  };
}

function closeMessage(send: (data: Record<string, unknown>) => void, outputIndex: number, text: string): void {
  const where = { item_id: MESSAGE_ID, output_index: outputIndex, content_index: 0 };
  send({ type: 'response.output_text.done', ...where, text });
  send({ type: 'response.content_part.done', ...where, part: { type: 'output_text', text, annotations: [] } });
  send({ type: 'response.output_item.done', output_index: outputIndex, item: outputItems(undefined, text, [])[0] });
}

function completed(model: string, output: unknown[], usage: ScriptedUsage): Record<string, unknown> {
  return {
    type: 'response.completed',
    response: {
      ...responseHead(model),
      status: 'completed',
      incomplete_details: null,
      output,
      usage: wireUsage(usage),
    },
  };
}

/**
 * Answers with the reply's text (and its reasoning summary) as JSON or SSE; `cutOff(index)` drops
 * the connection before the text chunk `index` when the reply asks for it (true: stop writing).
 */
export function answerResponsesText(
  response: ServerResponse,
  request: RecordedRequest,
  reply: TextReply,
  pieces: string[],
  cutOff: (index: number) => boolean,
): void {
  const model = reply.model ?? request.model ?? 'unknown';
  const usage = reply.usage ?? DEFAULT_USAGE;
  const output = outputItems(reply.reasoning, reply.text, []);
  if (!request.stream) {
    sendJson(response, 200, {
      ...responseHead(model),
      status: 'completed',
      incomplete_details: null,
      output,
      usage: wireUsage(usage),
    });
    return;
  }
  const send = responsesEvents(response);
  send({ type: 'response.created', response: { ...responseHead(model), status: 'in_progress', output: [] } });
  let index = 0;
  if (reply.reasoning !== undefined) streamReasoning(send, index++, reply.reasoning);
  openMessage(send, index);
  for (const [chunk, piece] of pieces.entries()) {
    if (cutOff(chunk)) return;
    send(textDelta(index, piece));
  }
  closeMessage(send, index, reply.text);
  send(completed(model, output, usage));
  response.end();
}

/** Answers with function calls (and any text before them), plain or streamed in two argument pieces each. */
export function answerResponsesToolCalls(
  response: ServerResponse,
  request: RecordedRequest,
  reply: ToolCallsReply,
): void {
  const model = request.model ?? 'unknown';
  const usage = reply.usage ?? DEFAULT_USAGE;
  const output = outputItems(undefined, reply.text, reply.calls);
  if (!request.stream) {
    sendJson(response, 200, {
      ...responseHead(model),
      status: 'completed',
      incomplete_details: null,
      output,
      usage: wireUsage(usage),
    });
    return;
  }
  const send = responsesEvents(response);
  send({ type: 'response.created', response: { ...responseHead(model), status: 'in_progress', output: [] } });
  let index = 0;
  if (reply.text !== undefined) {
    openMessage(send, index);
    send(textDelta(index, reply.text));
    closeMessage(send, index, reply.text);
    index += 1;
  }
  for (const call of reply.calls) {
    const item = { type: 'function_call', id: `fc_${call.id}`, call_id: call.id, name: call.name };
    send({
      type: 'response.output_item.added',
      output_index: index,
      item: { ...item, arguments: '', status: 'in_progress' },
    });
    for (const piece of halvesOf(call.arguments))
      send({ type: 'response.function_call_arguments.delta', item_id: item.id, output_index: index, delta: piece });
    send({
      type: 'response.function_call_arguments.done',
      item_id: item.id,
      output_index: index,
      arguments: call.arguments,
    });
    send({
      type: 'response.output_item.done',
      output_index: index,
      item: { ...item, arguments: call.arguments, status: 'completed' },
    });
    index += 1;
  }
  send(completed(model, output, usage));
  response.end();
}

/** Where a flood's text sits in a Responses answer: `head` + pieces + `tail` is one valid answer. */
export function responsesFloodFraming(
  stream: boolean,
  model: string,
  start: string,
): { head: string; piece: (text: string) => string; tail: string; type: string } {
  const json = (value: unknown) => JSON.stringify(value);
  if (!stream) {
    const marker = '\u0000FLOOD\u0000';
    const whole = json({
      ...responseHead(model),
      status: 'completed',
      incomplete_details: null,
      output: outputItems(undefined, marker, []),
      usage: wireUsage({ inputTokens: 1, outputTokens: 1 }),
    });
    const [head, tail] = whole.split(json(marker).slice(1, -1));
    // The filler is plain ASCII, so only the start needs escaping inside the JSON string.
    return { head: head! + json(start).slice(1, -1), piece: (text) => text, tail: tail!, type: 'application/json' };
  }
  let sequence = 0;
  const event = (data: Record<string, unknown>) =>
    `event: ${String(data.type)}\ndata: ${json({ ...data, sequence_number: sequence++ })}\n\n`;
  const captured: string[] = [];
  const collect = (data: Record<string, unknown>) => captured.push(event(data));
  collect({ type: 'response.created', response: { ...responseHead(model), status: 'in_progress', output: [] } });
  openMessage(collect, 0);
  collect(textDelta(0, start));
  const head = captured.splice(0).join('');
  return {
    head,
    piece: (text) => event(textDelta(0, text)),
    tail:
      event({ type: 'response.output_item.done', output_index: 0, item: outputItems(undefined, '', [])[0] }) +
      event(completed(model, [], { inputTokens: 1, outputTokens: 1 })),
    type: 'text/event-stream',
  };
}
