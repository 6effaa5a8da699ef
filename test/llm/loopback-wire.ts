/**
 * The low-level pieces of the loopback LLM server's wire formats (loopback-llm-server.ts): JSON and
 * SSE answers, and answers that call tools in each wire, plain and streamed:
 * - OpenAI Chat Completions: `tool_calls` on the message (finish_reason `tool_calls`); streamed, each
 *   call's arguments come in two `delta.tool_calls` pieces.
 * - Anthropic Messages: `tool_use` content blocks (stop_reason `tool_use`); streamed, a
 *   `content_block_start` then the input as two `input_json_delta` pieces.
 * - Gemini: `functionCall` parts with `args` as an object and no id, as Gemini 2.5 sends them (the
 *   AI SDK makes up the call id); streamed, each call comes whole in its own chunk.
 * And the other way, what a request in any of the three wires offers and carries back: its native
 * tool list and its tool results.
 */
import type { ServerResponse } from 'node:http';
import type { RecordedRequest, ScriptedReply, ScriptedUsage } from './loopback-llm-server.js';

export const DEFAULT_USAGE: ScriptedUsage = { inputTokens: 12, outputTokens: 5, cachedInputTokens: 0 };

export function sendJson(
  response: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  response.writeHead(status, { 'content-type': 'application/json', ...headers });
  response.end(text);
}

export function startSse(response: ServerResponse): (data: unknown, event?: string) => void {
  response.writeHead(200, {
    'content-type': 'text/event-stream',
    'cache-control': 'no-cache',
    connection: 'keep-alive',
  });
  return (data, event) => {
    const payload = typeof data === 'string' ? data : JSON.stringify(data);
    response.write(`${event ? `event: ${event}\n` : ''}data: ${payload}\n\n`);
  };
}

type ToolCallsReply = Extract<ScriptedReply, { kind: 'tool_calls' }>;

/** The arguments as an object where the wire wants one; the raw text when it is not JSON. */
function parsedArguments(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

function halves(text: string): [string, string] {
  const half = Math.floor(text.length / 2);
  return [text.slice(0, half), text.slice(half)];
}

/** Answers `request` with the reply's tool calls in the request's own wire format. */
export function answerToolCalls(response: ServerResponse, request: RecordedRequest, reply: ToolCallsReply): void {
  if (request.wire === 'anthropic') answerAnthropicToolCalls(response, request, reply);
  else if (request.wire === 'gemini') answerGeminiToolCalls(response, request, reply);
  else answerOpenAiToolCalls(response, request, reply);
}

function answerOpenAiToolCalls(response: ServerResponse, request: RecordedRequest, reply: ToolCallsReply): void {
  const model = request.model ?? 'unknown';
  const usage = reply.usage ?? DEFAULT_USAGE;
  const wireUsage = {
    prompt_tokens: usage.inputTokens,
    completion_tokens: usage.outputTokens,
    total_tokens: usage.inputTokens + usage.outputTokens,
  };
  const base = { id: 'chatcmpl-loopback-tools', created: 1_700_000_000, model };
  const wireCalls = reply.calls.map((call) => ({
    id: call.id,
    type: 'function',
    function: { name: call.name, arguments: call.arguments },
  }));
  if (!request.stream) {
    sendJson(response, 200, {
      ...base,
      object: 'chat.completion',
      choices: [
        {
          index: 0,
          message: { role: 'assistant', content: reply.text ?? null, tool_calls: wireCalls },
          finish_reason: 'tool_calls',
        },
      ],
      usage: wireUsage,
    });
    return;
  }
  const send = startSse(response);
  const chunk = (delta: Record<string, unknown>, finish: string | null) => ({
    ...base,
    object: 'chat.completion.chunk',
    choices: [{ index: 0, delta, finish_reason: finish }],
  });
  send(chunk({ role: 'assistant', content: reply.text ?? '' }, null));
  reply.calls.forEach((call, index) => {
    const [first, second] = halves(call.arguments);
    send(
      chunk(
        { tool_calls: [{ index, id: call.id, type: 'function', function: { name: call.name, arguments: first } }] },
        null,
      ),
    );
    send(chunk({ tool_calls: [{ index, function: { arguments: second } }] }, null));
  });
  send(chunk({}, 'tool_calls'));
  if (request.body?.stream_options?.include_usage === true)
    send({ ...base, object: 'chat.completion.chunk', choices: [], usage: wireUsage });
  send('[DONE]');
  response.end();
}

function answerAnthropicToolCalls(response: ServerResponse, request: RecordedRequest, reply: ToolCallsReply): void {
  const usage = reply.usage ?? DEFAULT_USAGE;
  const message = {
    id: 'msg_loopback_tools',
    type: 'message',
    role: 'assistant',
    model: request.model ?? 'unknown',
    stop_sequence: null,
  };
  const textBlocks = reply.text ? [{ type: 'text', text: reply.text }] : [];
  if (!request.stream) {
    sendJson(response, 200, {
      ...message,
      content: [
        ...textBlocks,
        ...reply.calls.map((call) => ({
          type: 'tool_use',
          id: call.id,
          name: call.name,
          input: parsedArguments(call.arguments),
        })),
      ],
      stop_reason: 'tool_use',
      usage: { input_tokens: usage.inputTokens, output_tokens: usage.outputTokens },
    });
    return;
  }
  const send = startSse(response);
  send(
    {
      type: 'message_start',
      message: {
        ...message,
        content: [],
        stop_reason: null,
        usage: { input_tokens: usage.inputTokens, output_tokens: 1 },
      },
    },
    'message_start',
  );
  let index = 0;
  if (reply.text) {
    send({ type: 'content_block_start', index, content_block: { type: 'text', text: '' } }, 'content_block_start');
    send(
      { type: 'content_block_delta', index, delta: { type: 'text_delta', text: reply.text } },
      'content_block_delta',
    );
    send({ type: 'content_block_stop', index }, 'content_block_stop');
    index += 1;
  }
  for (const call of reply.calls) {
    send(
      {
        type: 'content_block_start',
        index,
        content_block: { type: 'tool_use', id: call.id, name: call.name, input: {} },
      },
      'content_block_start',
    );
    for (const piece of halves(call.arguments))
      send(
        { type: 'content_block_delta', index, delta: { type: 'input_json_delta', partial_json: piece } },
        'content_block_delta',
      );
    send({ type: 'content_block_stop', index }, 'content_block_stop');
    index += 1;
  }
  send(
    {
      type: 'message_delta',
      delta: { stop_reason: 'tool_use', stop_sequence: null },
      usage: { output_tokens: usage.outputTokens },
    },
    'message_delta',
  );
  send({ type: 'message_stop' }, 'message_stop');
  response.end();
}

function answerGeminiToolCalls(response: ServerResponse, request: RecordedRequest, reply: ToolCallsReply): void {
  const usage = reply.usage ?? DEFAULT_USAGE;
  const usageMetadata = {
    promptTokenCount: usage.inputTokens,
    candidatesTokenCount: usage.outputTokens,
    totalTokenCount: usage.inputTokens + usage.outputTokens,
  };
  const modelVersion = request.model ?? 'unknown';
  const textParts = reply.text ? [{ text: reply.text }] : [];
  const callParts = reply.calls.map((call) => ({
    functionCall: { name: call.name, args: parsedArguments(call.arguments) },
  }));
  const candidate = (parts: unknown[], finishReason?: string) => ({
    content: { parts, role: 'model' },
    index: 0,
    ...(finishReason ? { finishReason } : {}),
  });
  if (!request.stream) {
    sendJson(response, 200, {
      candidates: [candidate([...textParts, ...callParts], 'STOP')],
      usageMetadata,
      modelVersion,
    });
    return;
  }
  const send = startSse(response);
  if (textParts.length > 0) send({ candidates: [candidate(textParts)], modelVersion });
  callParts.forEach((part, index) => {
    const last = index === callParts.length - 1;
    send({
      candidates: [candidate([part], last ? 'STOP' : undefined)],
      modelVersion,
      ...(last ? { usageMetadata } : {}),
    });
  });
  response.end();
}

/** The tool results a request carries back to the model, each as JSON text, in any of the wires. */
export function toolResultsOf(body: any): string[] {
  const results: unknown[] = [];
  for (const message of Array.isArray(body?.messages) ? body.messages : []) {
    if (message?.role === 'tool') results.push(message.content); // OpenAI
    if (Array.isArray(message?.content))
      results.push(...message.content.filter((block: any) => block?.type === 'tool_result')); // Anthropic
  }
  for (const item of Array.isArray(body?.input) ? body.input : []) {
    if (item?.type === 'function_call_output') results.push(item.output); // OpenAI Responses
  }
  for (const content of Array.isArray(body?.contents) ? body.contents : []) {
    results.push(...(content?.parts ?? []).filter((part: any) => part?.functionResponse !== undefined)); // Gemini
  }
  return results.map((result) => JSON.stringify(result));
}

/** The names of the tools a request offers natively, in any of the three wires. */
export function offeredToolsOf(body: any): string[] {
  const tools: any[] = Array.isArray(body?.tools) ? body.tools : [];
  return tools
    .flatMap(
      (tool) =>
        tool?.function?.name ??
        tool?.name ??
        (tool?.functionDeclarations ?? []).map((declaration: any) => declaration.name),
    )
    .sort();
}
