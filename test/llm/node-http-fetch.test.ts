/**
 * The keep-alive node:http fetch the model providers use (src/llm/node-http-fetch.ts), against a
 * real loopback server: sockets reused (counted at the server), an abort closing the request,
 * gzip and br decoded, a broken body failing as fetch's `terminated`, a refused connection as
 * `fetch failed` with its cause, and what it leaves to global fetch.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createServer as createTcpServer, type Server as TcpServer } from 'node:net';
import { nodeHttpFetch, withConnectionNotes } from '../../src/llm/node-http-fetch.js';
import { expectStaleSocketNote } from './stale-socket-note.js';
import { waitFor } from '../daemon/daemon-helpers.js';

type Handler = (request: IncomingMessage, body: string, response: ServerResponse) => void;

let server: Server;
let url: string;
let handler: Handler;
const sockets: Socket[] = [];
let closedRequests = 0;

beforeEach(async () => {
  sockets.length = 0;
  closedRequests = 0;
  handler = (_request, body, response) => {
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end(JSON.stringify({ echo: body }));
  };
  server = createServer((request, response) => {
    const parts: Buffer[] = [];
    request.on('data', (part: Buffer) => parts.push(part));
    request.on('end', () => handler(request, Buffer.concat(parts.splice(0)).toString('utf8'), response));
    response.on('close', () => {
      if (!response.writableFinished) closedRequests += 1;
    });
  });
  server.keepAliveTimeout = 30_000;
  server.on('connection', (socket: Socket) => sockets.push(socket));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterEach(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

async function until(check: () => boolean, what: string): Promise<void> {
  await waitFor(what, check, { timeoutMs: 5_000, intervalMs: 10 });
}

async function rejectionOf(promise: Promise<unknown>): Promise<Error> {
  const reason = await promise.then(
    () => new Error('expected a rejection'),
    (error: unknown) => error,
  );
  expect(reason).toBeInstanceOf(Error);
  return reason as Error;
}

describe('nodeHttpFetch', () => {
  it('sends method, headers and body, and answers with status, headers and body', async () => {
    let seen: { method?: string; headers?: IncomingMessage['headers']; body?: string } = {};
    handler = (request, body, response) => {
      seen = { method: request.method, headers: request.headers, body };
      response.writeHead(201, 'Made', { 'content-type': 'application/json', 'x-request-id': 'r-1' });
      response.end('{"ok":true}');
    };
    const body = JSON.stringify({ messages: [{ role: 'user', content: 'héllo' }] });
    const response = await nodeHttpFetch(`${url}/v1/chat/completions?x=1`, {
      method: 'post',
      headers: { 'Content-Type': 'application/json', authorization: 'Bearer k', skipped: undefined } as never,
      body,
    });
    expect(response.status).toBe(201);
    expect(response.statusText).toBe('Made');
    expect(response.ok).toBe(true);
    expect(response.headers.get('x-request-id')).toBe('r-1');
    expect(await response.json()).toEqual({ ok: true });
    expect(seen.method).toBe('POST');
    expect(seen.body).toBe(body);
    expect(seen.headers?.['content-type']).toBe('application/json');
    expect(seen.headers?.['authorization']).toBe('Bearer k');
    expect(seen.headers?.['content-length']).toBe(String(Buffer.byteLength(body)));
    expect(seen.headers).not.toHaveProperty('skipped');
  });

  it('keeps connections alive: 20 calls one after another use one socket', async () => {
    for (let call = 0; call < 20; call++) {
      const response = await nodeHttpFetch(`${url}/call/${call}`, { method: 'POST', body: `call ${call}` });
      expect(await response.json()).toEqual({ echo: `call ${call}` });
    }
    expect(sockets).toHaveLength(1);
  });

  it('keeps connections alive in parallel: two waves of 8 calls open 8 sockets, not 16', async () => {
    handler = (_request, body, response) => setTimeout(() => response.end(body), 30);
    for (let wave = 0; wave < 2; wave++) {
      const answers = await Promise.all(
        Array.from({ length: 8 }, async (_, index) =>
          (await nodeHttpFetch(`${url}/`, { method: 'POST', body: `${wave}-${index}` })).text(),
        ),
      );
      expect(answers).toEqual(Array.from({ length: 8 }, (_, index) => `${wave}-${index}`));
    }
    expect(sockets).toHaveLength(8);
  });

  it("keeps every socket of a wave wider than Node's default pool of idle sockets (256) for the next wave", async () => {
    const width = 300;
    let waiting: Array<() => void> = [];
    // Each wave is answered at once when all its calls have arrived: every socket is in use together.
    handler = (_request, body, response) => {
      waiting.push(() => response.end(body));
      if (waiting.length < width) return;
      const answers = waiting;
      waiting = [];
      for (const answer of answers) answer();
    };
    for (let wave = 0; wave < 2; wave++) {
      const answers = await Promise.all(
        Array.from({ length: width }, async (_, index) =>
          (await nodeHttpFetch(`${url}/`, { method: 'POST', body: `${wave}-${index}` })).text(),
        ),
      );
      expect(answers).toEqual(Array.from({ length: width }, (_, index) => `${wave}-${index}`));
    }
    expect(sockets).toHaveLength(width);
  });

  it('sends every call of a wave at once, however wide: 1,100 calls are open at the server together', async () => {
    // 1,000 sessions with two parallel tasks each is 2,000 calls: a socket cap (1,024 until issue
    // 55) held the calls above it until the first answers came back, a whole model latency late.
    const width = 1_100;
    const waiting: Array<() => void> = [];
    handler = (_request, body, response) => waiting.push(() => response.end(body));
    const calls = Array.from({ length: width }, async (_, index) =>
      (await nodeHttpFetch(`${url}/`, { method: 'POST', body: String(index) })).text(),
    );
    await until(() => waiting.length === width, `all ${width} calls open at the server at once`);
    for (const answer of waiting) answer();
    expect(await Promise.all(calls)).toEqual(Array.from({ length: width }, (_, index) => String(index)));
    expect(sockets).toHaveLength(width);
  });

  it('lets go of a request body once the server has it: 64 calls of 1 MiB waiting for answers hold no copies', async () => {
    // vitest carries no --expose-gc: reach the collector the way Node's own tests do.
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as () => void;
    const arrayBuffers = () => {
      gc();
      gc();
      return process.memoryUsage().arrayBuffers;
    };
    const calls = 64;
    const size = 1 << 20;
    const waiting: Array<() => void> = [];
    let bytesRead = 0;
    handler = (_request, body, response) => {
      bytesRead += body.length;
      waiting.push(() => response.end('ok'));
    };
    const before = arrayBuffers();
    const answers = Array.from({ length: calls }, async (_, index) =>
      (await nodeHttpFetch(`${url}/`, { method: 'POST', body: `${index}`.padEnd(size, 'x') })).text(),
    );
    try {
      await until(() => waiting.length === calls, `all ${calls} bodies read by the server`);
      expect(bytesRead).toBe(calls * size);
      // Held until the answers (the encoded bodies, one per call), it was 64 MiB more.
      expect(arrayBuffers() - before).toBeLessThan(16 * size);
    } finally {
      for (const answer of waiting) answer();
    }
    expect(await Promise.all(answers)).toEqual(Array.from({ length: calls }, () => 'ok'));
  });

  it('an abort before the answer closes the request at the server and rejects with the reason', async () => {
    let read = 0;
    handler = () => (read += 1); // never answers
    const controller = new AbortController();
    const pending = nodeHttpFetch(`${url}/hang`, { method: 'POST', body: '{}', signal: controller.signal });
    await until(() => sockets.length === 1, 'the request to arrive');
    await until(() => read === 1, 'the server to read the whole request');
    controller.abort();
    const error = await rejectionOf(pending);
    expect(error.name).toBe('AbortError');
    await until(() => closedRequests === 1, 'the server to see the request closed');
    expect(sockets[0]!.destroyed).toBe(true);
  });

  it('an abort while the body streams errors the body with the reason and closes the socket', async () => {
    handler = (_request, _body, response) => {
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      response.write('data: first\n\n');
    };
    const controller = new AbortController();
    const response = await nodeHttpFetch(`${url}/stream`, { method: 'POST', body: '{}', signal: controller.signal });
    const reader = response.body!.getReader();
    expect(new TextDecoder().decode((await reader.read()).value)).toBe('data: first\n\n');
    const reason = new Error('cancelled by the operator');
    controller.abort(reason);
    await expect(reader.read()).rejects.toBe(reason);
    await until(() => closedRequests === 1, 'the server to see the stream closed');
  });

  it('an already aborted signal sends nothing', async () => {
    const controller = new AbortController();
    controller.abort();
    const error = await rejectionOf(
      nodeHttpFetch(`${url}/`, { method: 'POST', body: '{}', signal: controller.signal }),
    );
    expect(error.name).toBe('AbortError');
    expect(sockets).toHaveLength(0);
  });

  it('cancelling the body closes the socket', async () => {
    handler = (_request, _body, response) => {
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      response.write('data: first\n\n');
    };
    const response = await nodeHttpFetch(`${url}/stream`, { method: 'POST', body: '{}' });
    await response.body!.cancel();
    await until(() => closedRequests === 1, 'the server to see the stream closed');
  });

  it.each([
    ['gzip', gzipSync],
    ['br', brotliCompressSync],
  ] as const)('decodes a %s body and asks for it', async (encoding, compress) => {
    let accepted: string | undefined;
    const text = JSON.stringify({ content: 'x'.repeat(10_000) });
    handler = (request, _body, response) => {
      accepted = request.headers['accept-encoding'];
      const compressed = compress(Buffer.from(text));
      response.writeHead(200, { 'content-encoding': encoding, 'content-length': String(compressed.length) });
      response.end(compressed);
    };
    const response = await nodeHttpFetch(`${url}/`, { method: 'POST', body: '{}' });
    expect(await response.text()).toBe(text);
    expect(accepted).toContain(encoding);
  });

  it('a body broken midway errors with TypeError terminated, its cause a socket error', async () => {
    handler = (_request, _body, response) => {
      response.writeHead(200, { 'content-type': 'application/json', 'content-length': '1000' });
      response.write('{"partial":');
      setTimeout(() => response.socket?.destroy(), 20);
    };
    const response = await nodeHttpFetch(`${url}/`, { method: 'POST', body: '{}' });
    const error = await rejectionOf(response.text());
    expect(error).toBeInstanceOf(TypeError);
    expect(error.message).toBe('terminated');
    expect((error.cause as NodeJS.ErrnoException).code).toBe('ECONNRESET');
  });

  it('a refused connection rejects with TypeError fetch failed, ECONNREFUSED as its cause', async () => {
    const address = url;
    // The server afterEach closes, listening before the old one lets go: it cannot take its port
    // (once it did, and the fetch waited on a server that never answers).
    const replacement = createServer().listen(0);
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
    server = replacement;
    const error = await rejectionOf(nodeHttpFetch(`${address}/`, { method: 'POST', body: '{}' }));
    expect(error).toBeInstanceOf(TypeError);
    expect(error.message).toBe('fetch failed');
    expect((error.cause as NodeJS.ErrnoException).code).toBe('ECONNREFUSED');
  });

  it('a kept-alive socket the server closed meanwhile is replaced, not reported', async () => {
    expect(await (await nodeHttpFetch(`${url}/`, { method: 'POST', body: 'one' })).json()).toEqual({ echo: 'one' });
    // The server drops the idle socket without the client having noticed yet.
    sockets[0]!.destroy();
    const second = await nodeHttpFetch(`${url}/`, { method: 'POST', body: 'two' });
    expect(await second.json()).toEqual({ echo: 'two' });
    expect(sockets).toHaveLength(2);
  });

  it('a redirect is followed (through global fetch), as fetch does', async () => {
    handler = (request, body, response) => {
      if (request.url === '/old') {
        response.writeHead(307, { location: '/new' });
        response.end();
        return;
      }
      response.end(`${request.url} ${body}`);
    };
    const response = await nodeHttpFetch(`${url}/old`, { method: 'POST', body: 'moved' });
    expect(response.status).toBe(200);
    expect(await response.text()).toBe('/new moved');
  });

  it('a 204 has a null body; an error status keeps its body', async () => {
    handler = (request, _body, response) => {
      if (request.url === '/empty') response.writeHead(204).end();
      else response.writeHead(429, { 'retry-after': '3' }).end('{"error":"slow down"}');
    };
    const empty = await nodeHttpFetch(`${url}/empty`, { method: 'POST', body: '{}' });
    expect(empty.status).toBe(204);
    expect(empty.body).toBeNull();
    const limited = await nodeHttpFetch(`${url}/limited`, { method: 'POST', body: '{}' });
    expect(limited.ok).toBe(false);
    expect(limited.headers.get('retry-after')).toBe('3');
    expect(await limited.json()).toEqual({ error: 'slow down' });
  });

  it('leaves a Request object to global fetch', async () => {
    const response = await nodeHttpFetch(new Request(`${url}/`, { method: 'POST', body: 'as a Request' }));
    expect(await response.json()).toEqual({ echo: 'as a Request' });
  });
});

/**
 * A model call is never sent twice (issue 54): a raw TCP server that answers the first request
 * kept alive, then on the same socket either reads the second request and closes (it may have run:
 * not sent again) or closes right after the first answer (the second finds the socket closed before
 * a byte is written: sent once, on a new connection, and the call's notes say so).
 */
describe('nodeHttpFetch on a kept-alive socket the server closed', () => {
  const OK = 'HTTP/1.1 200 OK\r\ncontent-length: 2\r\nconnection: keep-alive\r\nkeep-alive: timeout=30\r\n\r\nok';

  async function tcpServer(
    onRequest: (socket: import('node:net').Socket, ordinal: number, onSocket: number) => void,
  ): Promise<{ server: TcpServer; url: string; requests: () => number; connections: () => number }> {
    let requests = 0;
    let connections = 0;
    const server = createTcpServer((socket) => {
      connections += 1;
      let onSocket = 0;
      socket.on('error', () => {});
      socket.on('data', (data) => {
        // Each test request is one small POST, read in one piece.
        for (const _ of data.toString('latin1').matchAll(/^POST /gm)) {
          requests += 1;
          onSocket += 1;
          onRequest(socket, requests, onSocket);
        }
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return {
      server,
      url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
      requests: () => requests,
      connections: () => connections,
    };
  }

  it('a request the server read before closing is not sent again: fetch failed, counted once at the server', async () => {
    const tcp = await tcpServer((socket, ordinal) => {
      if (ordinal === 1) socket.write(OK);
      else socket.destroy(); // read, then closed without an answer: it may have run
    });
    try {
      expect(await (await nodeHttpFetch(`${tcp.url}/one`, { method: 'POST', body: 'one' })).text()).toBe('ok');
      const notes: string[] = [];
      const failed = await rejectionOf(
        withConnectionNotes(notes, () => nodeHttpFetch(`${tcp.url}/two`, { method: 'POST', body: 'two' })),
      );
      expect(failed.message).toBe('fetch failed');
      await new Promise((resolve) => setTimeout(resolve, 200)); // a silence window: a re-send would have arrived by now
      expect(tcp.requests(), 'requests the server read: the second once, never again').toBe(2);
      expect(notes).toEqual([]);
    } finally {
      tcp.server.close();
    }
  });

  it('a socket closed before the request is written is replaced: sent once, on a new connection, and noted', async () => {
    const tcp = await tcpServer((socket, _ordinal, onSocket) => {
      if (onSocket > 1) return socket.destroy();
      socket.write(OK);
      socket.destroy(); // the answer, then the close: the client's pooled socket is stale
    });
    try {
      const notes: string[] = [];
      const first = await nodeHttpFetch(`${tcp.url}/one`, { method: 'POST', body: 'one' });
      expect(await first.text()).toBe('ok');
      // At once, as a pipeline's next call: the pool still holds the socket whose close is on its way.
      const second = await withConnectionNotes(notes, () =>
        nodeHttpFetch(`${tcp.url}/two`, { method: 'POST', body: 'two' }),
      );
      expect(await second.text()).toBe('ok');
      expect(tcp.requests(), 'each call reached the server once').toBe(2);
      expect(tcp.connections()).toBe(2);
      expectStaleSocketNote(notes);
    } finally {
      tcp.server.close();
    }
  });
});
