/**
 * A loopback model server (OpenAI Chat Completions wire, JSON or SSE, through the same writers as
 * test/llm/loopback-llm-server.ts) that answers requests concurrently, each after its own delay:
 * for runs where several sessions ask their models at the same time (parallel delegations). The
 * reply is computed from each request; every request is recorded with when it arrived and when
 * its answer was sent (or the client closed it first).
 */
import { createServer } from 'node:http';
import type { Socket } from 'node:net';
import { answerText, type RecordedRequest, type ScriptedReply } from '../llm/loopback-llm-server.js';
import { answerToolCalls, sendJson, toolResultsOf } from '../llm/loopback-wire.js';
import { systemPromptOf } from '../providers/responder-llm-server.js';

export interface ConcurrentRequest {
  body: any;
  /** The system prompt ('' when none). */
  system: string;
  /** The text of the user messages, joined. */
  user: string;
  /** Tool results the request carries back, as JSON text. */
  toolResults: string[];
}

export interface ConcurrentCall extends ConcurrentRequest {
  arrivedAt: number;
  /** When the answer was sent; undefined while it waits or when the client closed it first. */
  answeredAt?: number;
  closedByClientAt?: number;
}

export type ConcurrentResponder = (request: ConcurrentRequest) => {
  reply: Extract<ScriptedReply, { kind: 'text' | 'tool_calls' }>;
  delayMs?: number;
};

export interface ConcurrentLlmServer {
  /** `http://127.0.0.1:<port>`; the provider's base_url is this + `/v1`. */
  readonly url: string;
  readonly calls: ConcurrentCall[];
  close(): Promise<void>;
}

function userTextOf(body: any): string {
  const texts: string[] = [];
  for (const message of Array.isArray(body?.messages) ? body.messages : []) {
    if (message?.role !== 'user') continue;
    if (typeof message.content === 'string') texts.push(message.content);
    else if (Array.isArray(message.content))
      for (const part of message.content) if (typeof part?.text === 'string') texts.push(part.text);
  }
  return texts.join('\n');
}

export async function startConcurrentLlmServer(responder: ConcurrentResponder): Promise<ConcurrentLlmServer> {
  const calls: ConcurrentCall[] = [];
  const sockets = new Set<Socket>();
  const server = createServer((incoming, response) => {
    const pieces: Buffer[] = [];
    incoming.on('data', (piece: Buffer) => pieces.push(piece));
    incoming.on('end', () => {
      let body: any;
      try {
        body = JSON.parse(Buffer.concat(pieces).toString('utf8'));
      } catch {
        sendJson(response, 400, { error: { message: 'concurrent server: the body is not JSON' } });
        return;
      }
      const url = incoming.url ?? '/';
      const request: ConcurrentRequest = {
        body,
        system: systemPromptOf(body),
        user: userTextOf(body),
        toolResults: toolResultsOf(body),
      };
      const call: ConcurrentCall = { ...request, arrivedAt: Date.now() };
      calls.push(call);
      if (!url.split('?')[0]!.endsWith('/chat/completions')) {
        sendJson(response, 404, { error: { message: `concurrent server: unknown endpoint ${url}` } });
        return;
      }
      let answer: ReturnType<ConcurrentResponder>;
      try {
        answer = responder(request);
      } catch (error) {
        sendJson(response, 500, { error: { message: `responder threw: ${String(error)}` } });
        return;
      }
      const recorded: RecordedRequest = {
        method: incoming.method ?? 'POST',
        url,
        wire: 'openai',
        stream: body?.stream === true,
        model: body?.model,
        headers: incoming.headers,
        body,
      };
      const timer = setTimeout(() => {
        call.answeredAt = Date.now();
        if (answer.reply.kind === 'tool_calls') answerToolCalls(response, recorded, answer.reply);
        else answerText(response, recorded, answer.reply);
      }, answer.delayMs ?? 0);
      response.on('close', () => {
        if (call.answeredAt === undefined) {
          call.closedByClientAt = Date.now();
          clearTimeout(timer);
        }
      });
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('concurrent server has no TCP address');
  let closing: Promise<void> | undefined;
  return {
    url: `http://127.0.0.1:${address.port}`,
    calls,
    close: () => {
      closing ??= new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      });
      return closing;
    },
  };
}
