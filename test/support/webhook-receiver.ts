/**
 * A loopback webhook receiver for the SPEC §20 tests: it records every POST (headers, the raw body,
 * when it came) and checks each with the `standardwebhooks` library exactly as a receiver would,
 * and answers as the test scripts it: 2xx, an error status, or no answer at all (a hang, until the
 * client gives up).
 */
import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { Webhook } from 'standardwebhooks';

export interface ReceivedWebhook {
  id: string;
  timestamp: string;
  signature: string;
  headers: IncomingHttpHeaders;
  /** The body exactly as it came. */
  raw: string;
  /** The verified payload, or null when verification failed (`error` says why). */
  payload: { type: string; timestamp: string; data: Record<string, unknown> } | null;
  error: string | null;
  path: string;
  at: number;
  /** What the receiver answered: a status, or 'hang'. */
  answer: number | 'hang';
}

/** What to answer to the n-th request (0-based) at `path`. */
export type Behaviour = (index: number, path: string) => number | 'hang';

export interface WebhookReceiver {
  url: string;
  received: ReceivedWebhook[];
  /** Replaces how the receiver answers from now on. */
  answer(behaviour: Behaviour): void;
  /** Deliveries that verified, optionally only at `path`. */
  verified(path?: string): ReceivedWebhook[];
  close(): Promise<void>;
}

/** A new `whsec_` secret (24 random bytes, base64). */
export function newWebhookSecret(): string {
  return `whsec_${Buffer.from(crypto.getRandomValues(new Uint8Array(24))).toString('base64')}`;
}

export async function startWebhookReceiver(secret: string, behaviour: Behaviour = () => 204): Promise<WebhookReceiver> {
  const webhook = new Webhook(secret);
  const received: ReceivedWebhook[] = [];
  const hanging = new Set<ServerResponse>();
  const sockets = new Set<Socket>();
  let answerOf = behaviour;
  let count = 0;
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      const path = request.url ?? '/';
      let payload: ReceivedWebhook['payload'] = null;
      let error: string | null = null;
      try {
        payload = webhook.verify(raw, request.headers as Record<string, string>) as ReceivedWebhook['payload'];
      } catch (problem) {
        error = (problem as Error).message;
      }
      const answer = answerOf(count++, path);
      received.push({
        id: String(request.headers['webhook-id'] ?? ''),
        timestamp: String(request.headers['webhook-timestamp'] ?? ''),
        signature: String(request.headers['webhook-signature'] ?? ''),
        headers: request.headers,
        raw,
        payload,
        error,
        path,
        at: Date.now(),
        answer,
      });
      if (answer === 'hang') {
        hanging.add(response);
        return;
      }
      response.statusCode = answer;
      response.end(answer >= 200 && answer < 300 ? '' : 'not now');
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    received,
    answer(next) {
      answerOf = next;
    },
    verified: (path) => received.filter((delivery) => delivery.payload !== null && (!path || delivery.path === path)),
    async close() {
      for (const response of hanging) response.destroy();
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
