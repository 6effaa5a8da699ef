/**
 * A loopback HTTP server that speaks the real wire formats of the providers govflow uses:
 * OpenAI's Responses API (the `openai` kind, loopback-responses.ts) and Chat Completions (what
 * openai-compatible servers and Ollama speak), Anthropic Messages and Gemini generateContent —
 * each as plain JSON and as server-sent events.
 * Tests queue one scripted reply per expected request; the server records every request
 * (path, headers, parsed body) so a test can assert what the adapter sent. A request with no
 * reply queued is answered 418 and counted in `unexpectedRequests`: fakes fail loudly.
 *
 * Reusable: `govflow run` integration tests point `provider.base_url` at `server.url + '/v1'`
 * (OpenAI, Anthropic) or `server.url + '/v1beta'` (Gemini).
 */
import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { createAiSdkAdapter, type AiSdkAdapterSettings } from '../../src/llm/ai-sdk-provider.js';
import type { LlmProvider } from '../../src/llm/provider.js';
import { withRetries, type RetrySettings } from '../../src/llm/retrying-provider.js';
import { DEFAULT_USAGE, answerToolCalls, sendJson, startSse } from './loopback-wire.js';
import {
  answerResponsesText,
  answerResponsesToolCalls,
  isResponsesRequest,
  responsesFloodFraming,
} from './loopback-responses.js';

export type AiSdkProviderSettings = AiSdkAdapterSettings & RetrySettings;

/** A real model API as the runner calls it: the adapter inside `withRetries`. */
export function createAiSdkProvider(settings: AiSdkProviderSettings): LlmProvider {
  return withRetries(createAiSdkAdapter(settings), settings);
}

/** Token counts as our adapter reports them: `inputTokens` includes the cached ones. */
export interface ScriptedUsage {
  inputTokens: number;
  outputTokens: number;
  cachedInputTokens?: number;
}

/** What the server does with one request. */
export type ScriptedReply =
  | {
      kind: 'text';
      text: string;
      usage?: ScriptedUsage;
      /** Model id to report; defaults to the one requested. */
      model?: string;
      /** How a streamed answer is cut; defaults to three roughly equal pieces. */
      chunks?: string[];
      /** Streams only: drop the connection after this many text chunks (a cut-off stream). */
      cutAfterChunks?: number;
      /** Close the kept-alive connection right after the answer (the client's pooled socket goes stale). */
      closeAfter?: boolean;
      /** A reasoning summary before the text (Responses API only; other wires' reasoning: a `raw` reply). */
      reasoning?: string;
    }
  | {
      kind: 'status';
      status: number;
      /** Body as sent (object → JSON); defaults to the wire's own error shape. */
      body?: string | Record<string, unknown>;
      headers?: Record<string, string>;
      /** Put the received credential into the error body, as real APIs do with bad keys. */
      echoCredential?: boolean;
    }
  /** Exactly these bytes with this status and content type (an HTML page, malformed SSE). */
  | { kind: 'raw'; status: number; contentType: string; body: string }
  /** Accept the request and never answer (until the client gives up or the server closes). */
  | { kind: 'hang' }
  /**
   * A hostile answer: `bytes` of text (null: endless) written as the client reads it, streamed
   * in `chunkBytes` pieces or as one JSON body, never held whole in memory.
   */
  | { kind: 'flood'; bytes: number | null; chunkBytes?: number }
  /**
   * An answer that calls tools, in the request's wire (loopback-wire.ts): `arguments` is the raw
   * JSON text the model wrote, so a test can send a malformed one (OpenAI, Anthropic streamed);
   * Gemini sends no call ids.
   */
  | {
      kind: 'tool_calls';
      calls: Array<{ id: string; name: string; arguments: string }>;
      text?: string;
      usage?: ScriptedUsage;
    };

export type Wire = 'openai' | 'anthropic' | 'gemini';

export interface RecordedRequest {
  method: string;
  /** Path with query string, e.g. `/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse`. */
  url: string;
  wire: Wire | 'unknown';
  /** Whether the request asked for a streamed answer. */
  stream: boolean;
  /** The model named in the body (OpenAI, Anthropic) or the path (Gemini). */
  model: string | undefined;
  headers: IncomingHttpHeaders;
  body: any;
}

export interface LoopbackLlmServer {
  /** `http://127.0.0.1:<port>`, without a trailing slash. */
  readonly url: string;
  readonly requests: RecordedRequest[];
  /** Requests that arrived with no scripted reply left. */
  readonly unexpectedRequests: RecordedRequest[];
  /** Queues replies, consumed one per request in arrival order. */
  reply(...replies: ScriptedReply[]): void;
  /** Replies not yet consumed (a test can assert the script was used up). */
  pendingReplies(): number;
  /** Bytes written for `flood` replies, and how many of them the client cut before their end. */
  readonly flood: { bytesSent: number; cutByClient: number; finished: number };
  /** Closes the server and destroys open (hanging) connections. Safe to call twice. */
  close(): Promise<void>;
}

function classify(url: string, body: any): { wire: Wire | 'unknown'; stream: boolean; model: string | undefined } {
  const path = url.split('?')[0] ?? url;
  if (path.endsWith('/chat/completions') || path.endsWith('/responses'))
    return { wire: 'openai', stream: body?.stream === true, model: body?.model };
  if (path.endsWith('/messages')) return { wire: 'anthropic', stream: body?.stream === true, model: body?.model };
  const gemini = /\/models\/([^/:]+):(generateContent|streamGenerateContent)$/.exec(path);
  if (gemini) {
    return {
      wire: 'gemini',
      stream: gemini[2] === 'streamGenerateContent',
      model: decodeURIComponent(gemini[1] ?? ''),
    };
  }
  return { wire: 'unknown', stream: false, model: undefined };
}

function splitText(text: string): string[] {
  if (text.length < 3) return [text];
  const third = Math.ceil(text.length / 3);
  return [text.slice(0, third), text.slice(third, 2 * third), text.slice(2 * third)].filter((part) => part !== '');
}

function credentialOf(headers: IncomingHttpHeaders): string {
  const value = headers.authorization ?? headers['x-api-key'] ?? headers['x-goog-api-key'] ?? '';
  return (Array.isArray(value) ? value.join(',') : value).replace(/^Bearer\s+/i, '');
}

function defaultErrorBody(wire: Wire | 'unknown', status: number, message: string): Record<string, unknown> {
  if (wire === 'anthropic') {
    const type = status === 429 ? 'rate_limit_error' : status === 401 ? 'authentication_error' : 'api_error';
    return { type: 'error', error: { type, message } };
  }
  if (wire === 'gemini')
    return { error: { code: status, message, status: status === 429 ? 'RESOURCE_EXHAUSTED' : 'INTERNAL' } };
  return { error: { message, type: status === 429 ? 'rate_limit_exceeded' : 'server_error', code: null } };
}

/** Drops the connection mid-stream once `cutAfterChunks` chunks were sent; true when it did. */
function cutOff(
  response: ServerResponse,
  reply: Extract<ScriptedReply, { kind: 'text' }>,
  sentChunks: number,
): boolean {
  if (reply.cutAfterChunks === undefined || sentChunks < reply.cutAfterChunks) return false;
  response.socket?.destroy();
  return true;
}

function answerOpenAi(
  response: ServerResponse,
  request: RecordedRequest,
  reply: Extract<ScriptedReply, { kind: 'text' }>,
): void {
  if (isResponsesRequest(request)) {
    answerResponsesText(response, request, reply, reply.chunks ?? splitText(reply.text), (index) =>
      cutOff(response, reply, index),
    );
    return;
  }
  const model = reply.model ?? request.model ?? 'unknown';
  const usage = reply.usage ?? DEFAULT_USAGE;
  const wireUsage = {
    prompt_tokens: usage.inputTokens,
    completion_tokens: usage.outputTokens,
    total_tokens: usage.inputTokens + usage.outputTokens,
    prompt_tokens_details: { cached_tokens: usage.cachedInputTokens ?? 0 },
  };
  const base = { id: 'chatcmpl-loopback', created: 1_700_000_000, model };
  if (!request.stream) {
    sendJson(response, 200, {
      ...base,
      object: 'chat.completion',
      choices: [{ index: 0, message: { role: 'assistant', content: reply.text }, finish_reason: 'stop' }],
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
  send(chunk({ role: 'assistant', content: '' }, null));
  for (const [index, piece] of (reply.chunks ?? splitText(reply.text)).entries()) {
    if (cutOff(response, reply, index)) return;
    send(chunk({ content: piece }, null));
  }
  send(chunk({}, 'stop'));
  if (request.body?.stream_options?.include_usage === true) {
    send({ ...base, object: 'chat.completion.chunk', choices: [], usage: wireUsage });
  }
  send('[DONE]');
  response.end();
}

function answerAnthropic(
  response: ServerResponse,
  request: RecordedRequest,
  reply: Extract<ScriptedReply, { kind: 'text' }>,
): void {
  const model = reply.model ?? request.model ?? 'unknown';
  const usage = reply.usage ?? DEFAULT_USAGE;
  const cached = usage.cachedInputTokens ?? 0;
  // Anthropic counts cache reads apart from `input_tokens`.
  const inputUsage = {
    input_tokens: usage.inputTokens - cached,
    cache_read_input_tokens: cached,
    cache_creation_input_tokens: 0,
  };
  const message = { id: 'msg_loopback', type: 'message', role: 'assistant', model, stop_sequence: null };
  if (!request.stream) {
    sendJson(response, 200, {
      ...message,
      content: [{ type: 'text', text: reply.text }],
      stop_reason: 'end_turn',
      usage: { ...inputUsage, output_tokens: usage.outputTokens },
    });
    return;
  }
  const send = startSse(response);
  send(
    {
      type: 'message_start',
      message: { ...message, content: [], stop_reason: null, usage: { ...inputUsage, output_tokens: 1 } },
    },
    'message_start',
  );
  send({ type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } }, 'content_block_start');
  for (const [index, piece] of (reply.chunks ?? splitText(reply.text)).entries()) {
    if (cutOff(response, reply, index)) return;
    send({ type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: piece } }, 'content_block_delta');
  }
  send({ type: 'content_block_stop', index: 0 }, 'content_block_stop');
  send(
    {
      type: 'message_delta',
      delta: { stop_reason: 'end_turn', stop_sequence: null },
      usage: { output_tokens: usage.outputTokens },
    },
    'message_delta',
  );
  send({ type: 'message_stop' }, 'message_stop');
  response.end();
}

function answerGemini(
  response: ServerResponse,
  request: RecordedRequest,
  reply: Extract<ScriptedReply, { kind: 'text' }>,
): void {
  const usage = reply.usage ?? DEFAULT_USAGE;
  const usageMetadata = {
    promptTokenCount: usage.inputTokens,
    candidatesTokenCount: usage.outputTokens,
    totalTokenCount: usage.inputTokens + usage.outputTokens,
    cachedContentTokenCount: usage.cachedInputTokens ?? 0,
  };
  const modelVersion = reply.model ?? request.model ?? 'unknown';
  const candidate = (text: string, finishReason?: string) => ({
    content: { parts: [{ text }], role: 'model' },
    index: 0,
    ...(finishReason ? { finishReason } : {}),
  });
  if (!request.stream) {
    sendJson(response, 200, { candidates: [candidate(reply.text, 'STOP')], usageMetadata, modelVersion });
    return;
  }
  const send = startSse(response);
  const pieces = reply.chunks ?? splitText(reply.text);
  for (const [index, piece] of pieces.entries()) {
    if (cutOff(response, reply, index)) return;
    const last = index === pieces.length - 1;
    send({
      candidates: [candidate(piece, last ? 'STOP' : undefined)],
      modelVersion,
      ...(last ? { usageMetadata } : {}),
    });
  }
  response.end();
}

/** Where a flood's text sits in each wire's bodies and events. */
const FLOOD_TEXT_START = '{"output":{"content":"';

function floodFraming(
  wire: Wire,
  stream: boolean,
  model: string,
): { head: string; piece: (text: string) => string; tail: string; type: string } {
  const json = (value: unknown) => JSON.stringify(value);
  if (!stream) {
    // The text goes inside a JSON string: the filler is plain ASCII, so only the start needs escaping.
    const open = json(FLOOD_TEXT_START).slice(1, -1);
    const body =
      wire === 'anthropic'
        ? [
            `{"id":"msg_flood","type":"message","role":"assistant","model":${json(model)},"content":[{"type":"text","text":"${open}`,
            `"}],"stop_reason":"end_turn","stop_sequence":null,"usage":{"input_tokens":1,"output_tokens":1}}`,
          ]
        : wire === 'gemini'
          ? [
              `{"candidates":[{"content":{"parts":[{"text":"${open}`,
              `"}],"role":"model"},"finishReason":"STOP","index":0}]}`,
            ]
          : [
              `{"id":"chatcmpl-flood","object":"chat.completion","created":1700000000,"model":${json(model)},"choices":[{"index":0,` +
                `"message":{"role":"assistant","content":"${open}`,
              `"},"finish_reason":"stop"}],"usage":{"prompt_tokens":1,"completion_tokens":1,"total_tokens":2}}`,
            ];
    return { head: body[0]!, piece: (text) => text, tail: body[1]!, type: 'application/json' };
  }
  const event = (data: unknown, name?: string) => `${name ? `event: ${name}\n` : ''}data: ${json(data)}\n\n`;
  if (wire === 'anthropic') {
    const message = {
      id: 'msg_flood',
      type: 'message',
      role: 'assistant',
      model,
      content: [],
      stop_reason: null,
      stop_sequence: null,
      usage: { input_tokens: 1, output_tokens: 1 },
    };
    const delta = (text: string) =>
      event({ type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text } }, 'content_block_delta');
    return {
      head:
        event({ type: 'message_start', message }, 'message_start') +
        event(
          { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } },
          'content_block_start',
        ) +
        delta(FLOOD_TEXT_START),
      piece: delta,
      tail:
        event({ type: 'content_block_stop', index: 0 }, 'content_block_stop') +
        event(
          {
            type: 'message_delta',
            delta: { stop_reason: 'end_turn', stop_sequence: null },
            usage: { output_tokens: 1 },
          },
          'message_delta',
        ) +
        event({ type: 'message_stop' }, 'message_stop'),
      type: 'text/event-stream',
    };
  }
  if (wire === 'gemini') {
    const delta = (text: string, finishReason?: string) =>
      event({
        candidates: [
          { content: { parts: [{ text }], role: 'model' }, index: 0, ...(finishReason ? { finishReason } : {}) },
        ],
      });
    return {
      head: delta(FLOOD_TEXT_START),
      piece: (text) => delta(text),
      tail: delta('"}}', 'STOP'),
      type: 'text/event-stream',
    };
  }
  const chunk = (delta: Record<string, unknown>, finish: string | null) =>
    event({
      id: 'chatcmpl-flood',
      object: 'chat.completion.chunk',
      created: 1_700_000_000,
      model,
      choices: [{ index: 0, delta, finish_reason: finish }],
    });
  return {
    head: chunk({ role: 'assistant', content: FLOOD_TEXT_START }, null),
    piece: (text) => chunk({ content: text }, null),
    tail: chunk({}, 'stop') + 'data: [DONE]\n\n',
    type: 'text/event-stream',
  };
}

/** Writes a flood as fast as the client reads it (backpressure), counting what went out. */
function sendFlood(
  response: ServerResponse,
  request: RecordedRequest,
  reply: Extract<ScriptedReply, { kind: 'flood' }>,
  counters: { bytesSent: number; cutByClient: number; finished: number },
): void {
  const wire = request.wire === 'unknown' ? 'openai' : request.wire;
  const framing = isResponsesRequest(request)
    ? responsesFloodFraming(request.stream, request.model ?? 'unknown', FLOOD_TEXT_START)
    : floodFraming(wire, request.stream, request.model ?? 'unknown');
  const chunkBytes = reply.chunkBytes ?? 16_384;
  const filler = 'x'.repeat(chunkBytes);
  let left = reply.bytes;
  let done = false;
  response.writeHead(200, { 'content-type': framing.type });
  response.on('close', () => {
    if (!done) counters.cutByClient += 1;
  });
  const send = (text: string): boolean => {
    counters.bytesSent += Buffer.byteLength(text);
    return response.write(text);
  };
  send(framing.head);
  const pump = () => {
    while (!response.destroyed) {
      if (left !== null && left <= 0) {
        send(framing.tail);
        done = true;
        counters.finished += 1;
        response.end();
        return;
      }
      const size = left === null ? chunkBytes : Math.min(chunkBytes, left);
      if (left !== null) left -= size;
      if (!send(framing.piece(size === chunkBytes ? filler : filler.slice(0, size)))) {
        response.once('drain', pump);
        return;
      }
    }
  };
  pump();
}

/** Answers `request` with the reply's text in the request's own wire format (JSON or SSE). */
export function answerText(
  response: ServerResponse,
  request: RecordedRequest,
  reply: Extract<ScriptedReply, { kind: 'text' }>,
): void {
  if (request.wire === 'openai') answerOpenAi(response, request, reply);
  else if (request.wire === 'anthropic') answerAnthropic(response, request, reply);
  else if (request.wire === 'gemini') answerGemini(response, request, reply);
  else sendJson(response, 404, { error: { message: `loopback server: unknown endpoint ${request.url}` } });
}

/** Starts a server on 127.0.0.1 and an ephemeral port. */
export async function startLoopbackLlmServer(): Promise<LoopbackLlmServer> {
  const requests: RecordedRequest[] = [];
  const unexpectedRequests: RecordedRequest[] = [];
  const queue: ScriptedReply[] = [];
  const sockets = new Set<Socket>();
  const flood = { bytesSent: 0, cutByClient: 0, finished: 0 };

  const server = createServer((incoming, response) => {
    const pieces: Buffer[] = [];
    incoming.on('data', (piece: Buffer) => pieces.push(piece));
    incoming.on('end', () => {
      const raw = Buffer.concat(pieces).toString('utf8');
      let body: any = raw;
      try {
        body = raw === '' ? undefined : JSON.parse(raw);
      } catch {
        // Kept as text: a test asserting on it will show what arrived.
      }
      const url = incoming.url ?? '/';
      const recorded: RecordedRequest = {
        method: incoming.method ?? 'GET',
        url,
        headers: incoming.headers,
        body,
        ...classify(url, body),
      };
      requests.push(recorded);
      const reply = queue.shift();
      if (!reply) {
        unexpectedRequests.push(recorded);
        sendJson(response, 418, {
          error: { message: `loopback server: no scripted reply for ${recorded.method} ${url}` },
        });
        return;
      }
      if (reply.kind === 'hang') return;
      if (reply.kind === 'raw') {
        response.writeHead(reply.status, { 'content-type': reply.contentType });
        response.end(reply.body);
        return;
      }
      if (reply.kind === 'flood') {
        sendFlood(response, recorded, reply, flood);
        return;
      }
      if (reply.kind === 'status') {
        const message = reply.echoCredential
          ? `Incorrect API key provided: ${credentialOf(incoming.headers)}. You can find your API key in your account.`
          : `scripted HTTP ${reply.status}`;
        sendJson(
          response,
          reply.status,
          reply.body ?? defaultErrorBody(recorded.wire, reply.status, message),
          reply.headers,
        );
        return;
      }
      if (reply.kind === 'tool_calls') {
        if (isResponsesRequest(recorded)) answerResponsesToolCalls(response, recorded, reply);
        else answerToolCalls(response, recorded, reply);
        return;
      }
      answerText(response, recorded, reply);
      // The answer is handed to the socket by the next tick; the close follows it at once.
      if (reply.closeAfter) {
        const socket = incoming.socket;
        process.nextTick(() => socket.destroy());
      }
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('loopback server has no TCP address');

  let closing: Promise<void> | undefined;
  return {
    url: `http://127.0.0.1:${address.port}`,
    requests,
    unexpectedRequests,
    reply: (...replies) => {
      queue.push(...replies);
    },
    pendingReplies: () => queue.length,
    flood,
    close: () => {
      closing ??= new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      });
      return closing;
    },
  };
}
