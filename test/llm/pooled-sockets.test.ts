/**
 * When a kept-alive socket takes a model call at once (src/llm/pooled-sockets.ts), against loopback
 * servers: the turns of the event loop from the call to the server reading it are counted, so a
 * call written at once (the server reads it within a turn) is told from one whose socket was
 * looked at first (two turns or more); and what a server that closed the socket gets: one request.
 */
import { createServer, type Server } from 'node:http';
import { createServer as createTcpServer, type AddressInfo, type Server as TcpServer, type Socket } from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { nodeHttpFetch } from '../../src/llm/node-http-fetch.js';
import { DEFAULT_FRESH_MS, freshMsOf } from '../../src/llm/pooled-sockets.js';

const servers: Array<Server | TcpServer> = [];
const serverSockets: Socket[] = [];

afterEach(async () => {
  for (const socket of serverSockets.splice(0)) socket.destroy();
  for (const server of servers.splice(0)) await new Promise((resolve) => server.close(resolve));
});

/** Resolves after `count` turns of the loop (check phases): with two, a whole poll has run since it was called. */
async function turns(count: number): Promise<void> {
  for (let turn = 0; turn < count; turn++) await new Promise((resolve) => setImmediate(resolve));
}

/** A server whose requests are noted with the loop turn they were read in; `rawAnswer` answers on the raw socket. */
async function countingServer(rawAnswer?: string, closeAfterAnswer = false) {
  let turn = 0;
  const readAt: number[] = [];
  let connections = 0;
  const onRequest = () => readAt.push(turn);
  let server: Server | TcpServer;
  if (rawAnswer === undefined) {
    const http = createServer((request, response) => {
      onRequest();
      request.resume().once('end', () => response.end('ok'));
    });
    http.keepAliveTimeout = 30_000; // sends `Keep-Alive: timeout=30`
    server = http;
  } else {
    server = createTcpServer((socket: Socket) => {
      socket.on('error', () => {});
      socket.on('data', (data) => {
        for (const _ of data.toString('latin1').matchAll(/^POST /gm)) {
          onRequest();
          socket.write(rawAnswer);
          if (closeAfterAnswer) socket.destroy();
        }
      });
    });
  }
  server.on('connection', (socket: Socket) => {
    connections += 1;
    serverSockets.push(socket);
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  /** One call; resolves with the turns from the call until the server read it. */
  const call = async (): Promise<number> => {
    turn = 0;
    const before = readAt.length;
    let counting = true;
    const tick = () => {
      if (!counting) return;
      turn += 1;
      setImmediate(tick);
    };
    setImmediate(tick);
    try {
      const response = await nodeHttpFetch(url, { method: 'POST', body: 'x' });
      expect(await response.text()).toBe('ok');
    } finally {
      counting = false;
    }
    expect(readAt.length).toBe(before + 1);
    return readAt.at(-1)!;
  };
  return { call, connections: () => connections, requests: () => readAt.length };
}

const answer = (keepAlive: string) =>
  `HTTP/1.1 200 OK\r\ncontent-length: 2\r\nconnection: keep-alive\r\nkeep-alive: ${keepAlive}\r\n\r\nok`;

describe('pooled sockets: when a kept-alive socket takes a call at once', () => {
  it("reads the server's keep-alive hint: half its timeout counts as fresh", () => {
    expect(freshMsOf('timeout=30')).toBe(15_000);
    expect(freshMsOf('timeout=5, max=1000')).toBe(2_500);
    expect(freshMsOf('max=10, timeout=0')).toBe(0);
    expect(freshMsOf(undefined)).toBe(DEFAULT_FRESH_MS);
    expect(freshMsOf('timeout=soon')).toBe(DEFAULT_FRESH_MS);
  });

  it('a socket back in the pool for a whole poll of the loop, idle under half the hint, is written at once', async () => {
    const server = await countingServer();
    await server.call();
    await turns(2);
    expect(await server.call(), 'the reused socket: read within a turn of the call').toBeLessThanOrEqual(1);
    expect(server.connections()).toBe(1);
  });

  it('a socket reused in the turn it came back is looked at first (a close sent with its answer may be unread)', async () => {
    const server = await countingServer();
    await server.call();
    expect(await server.call(), 'at once after the first answer: looked at for two turns').toBeGreaterThanOrEqual(2);
    expect(server.connections()).toBe(1);
  });

  it('a socket idle for half the keep-alive hint or longer is looked at first (the server may be closing it)', async () => {
    const server = await countingServer(answer('timeout=2'));
    vi.useFakeTimers({ toFake: ['performance'] }); // its clock only: the loop's turns stay real
    try {
      await server.call();
      await turns(2);
      vi.advanceTimersByTime(999);
      expect(await server.call(), 'idle 999 ms of a 2 s hint: at once').toBeLessThanOrEqual(1);
      await turns(2);
      vi.advanceTimersByTime(1_000);
      expect(await server.call(), 'idle 1 s of a 2 s hint: looked at first').toBeGreaterThanOrEqual(2);
    } finally {
      vi.useRealTimers();
    }
    expect(server.connections()).toBe(1);
  });

  it('a socket the server closed after its answer, reused after a poll: a new connection, the call sent once', async () => {
    const server = await countingServer(answer('timeout=30'), true);
    await server.call();
    await turns(2);
    await server.call();
    expect(server.requests(), 'each call reached the server once').toBe(2);
    expect(server.connections()).toBe(2);
  });
});
