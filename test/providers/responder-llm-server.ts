/**
 * A loopback LLM server whose replies are computed from each request, for runs where the order of
 * requests is not known in advance (plan tasks run in parallel). It is a thin proxy in front of
 * `test/llm/loopback-llm-server.ts`, so the wire formats (OpenAI Chat Completions, Anthropic
 * Messages, Gemini; JSON and SSE) stay written once: for every request the responder picks a
 * `ScriptedReply`, the proxy queues it on the backend and forwards the request there. Requests are
 * forwarded one at a time (the next waits until the previous answer is fully sent), so the
 * queued reply always meets the request it was computed for.
 */
import { createServer, request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import type { Socket } from 'node:net';
import {
  startLoopbackLlmServer,
  type LoopbackLlmServer,
  type RecordedRequest,
  type ScriptedReply,
} from '../llm/loopback-llm-server.js';

/** What the responder is given: the request as the backend will record it, plus its system prompt. */
export interface IncomingLlmRequest {
  url: string;
  headers: IncomingHttpHeaders;
  body: any;
  /** The system prompt text, whichever wire format carried it ('' when none). */
  system: string;
  /** 0-based arrival number. */
  index: number;
}

/** A reply, or a promise of one: the request waits for it (and the requests behind it wait too). */
export type Responder = (request: IncomingLlmRequest) => ScriptedReply | Promise<ScriptedReply>;

export interface ResponderLlmServer {
  /** `http://127.0.0.1:<port>`, without a trailing slash. */
  readonly url: string;
  /** Every request, as the backend recorded it (wire, stream, model, headers, body), in order. */
  readonly requests: RecordedRequest[];
  /** The reply chosen for each request, same order as `requests`. */
  readonly replies: ScriptedReply[];
  /** When each request arrived (Date.now()), same order as `requests`. */
  readonly arrivedAt: number[];
  /** When the client closed each request before its answer was sent (Date.now()), by arrival number. */
  readonly closedByClientAt: Array<number | undefined>;
  /** Each request's system prompt as it arrived (a request waiting behind a slow one is here before it is forwarded). */
  readonly arrivedSystems: string[];
  close(): Promise<void>;
}

/** The system prompt of an OpenAI, Anthropic or Gemini request body. */
export function systemPromptOf(body: any): string {
  const texts: string[] = [];
  const collect = (value: unknown): void => {
    if (typeof value === 'string') texts.push(value);
    else if (Array.isArray(value)) value.forEach(collect);
    else if (value && typeof value === 'object') {
      const record = value as Record<string, unknown>;
      if (typeof record.text === 'string') texts.push(record.text);
      else if (record.parts !== undefined) collect(record.parts);
      else if (record.content !== undefined) collect(record.content);
    }
  };
  if (Array.isArray(body?.messages)) {
    // OpenAI: a `system` (or `developer`) message first.
    for (const message of body.messages)
      if (message?.role === 'system' || message?.role === 'developer') collect(message.content);
  }
  if (Array.isArray(body?.input)) {
    // OpenAI Responses: `system` (or `developer`) items in `input`.
    for (const item of body.input) if (item?.role === 'system' || item?.role === 'developer') collect(item.content);
  }
  if (body?.system !== undefined) collect(body.system); // Anthropic: string or text blocks.
  if (body?.systemInstruction !== undefined) collect(body.systemInstruction); // Gemini: {parts: [{text}]}.
  return texts.join('\n');
}

export async function startResponderLlmServer(responder: Responder): Promise<ResponderLlmServer> {
  const backend: LoopbackLlmServer = await startLoopbackLlmServer();
  const backendUrl = new URL(backend.url);
  const replies: ScriptedReply[] = [];
  const arrivedAt: number[] = [];
  const closedByClientAt: Array<number | undefined> = [];
  const arrivedSystems: string[] = [];
  const sockets = new Set<Socket>();
  let chain: Promise<void> = Promise.resolve();
  let arrivals = 0;

  const server = createServer((incoming, response) => {
    const pieces: Buffer[] = [];
    incoming.on('data', (piece: Buffer) => pieces.push(piece));
    incoming.on('end', () => {
      const raw = Buffer.concat(pieces);
      let body: any;
      try {
        body = raw.length === 0 ? undefined : JSON.parse(raw.toString('utf8'));
      } catch {
        body = raw.toString('utf8');
      }
      const index = arrivals++;
      arrivedAt.push(Date.now());
      arrivedSystems.push(systemPromptOf(body));
      const url = incoming.url ?? '/';
      const forward = async (): Promise<void> => {
        let reply: ScriptedReply;
        try {
          reply = await responder({ url, headers: incoming.headers, body, system: systemPromptOf(body), index });
        } catch (error) {
          reply = { kind: 'status', status: 500, body: { error: { message: `responder threw: ${String(error)}` } } };
        }
        await new Promise<void>((done) => {
          replies.push(reply);
          backend.reply(reply);
          const outgoing = httpRequest(
            {
              host: backendUrl.hostname,
              port: backendUrl.port,
              method: incoming.method,
              path: url,
              headers: { ...incoming.headers, host: backendUrl.host, 'content-length': String(raw.length) },
            },
            (answer) => {
              response.writeHead(answer.statusCode ?? 502, answer.headers);
              answer.pipe(response);
              answer.on('end', () => done());
              answer.on('error', () => {
                response.destroy();
                done();
              });
              answer.on('close', () => done());
            },
          );
          // A client that gave up (its attempt timed out on a reply that hangs) frees the chain.
          response.on('close', () => {
            if (!response.writableFinished) {
              closedByClientAt[index] = Date.now();
              outgoing.destroy();
            }
            done();
          });
          // The backend dropped the connection (a reply cut mid-stream): the client sees the same.
          outgoing.on('error', () => {
            response.destroy();
            done();
          });
          outgoing.end(raw);
        });
      };
      chain = chain.then(forward);
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('responder server has no TCP address');

  let closing: Promise<void> | undefined;
  return {
    url: `http://127.0.0.1:${address.port}`,
    requests: backend.requests,
    replies,
    arrivedAt,
    closedByClientAt,
    arrivedSystems,
    close: () => {
      closing ??= (async () => {
        for (const socket of sockets) socket.destroy();
        await new Promise<void>((resolve) => server.close(() => resolve()));
        await backend.close();
      })();
      return closing;
    },
  };
}
