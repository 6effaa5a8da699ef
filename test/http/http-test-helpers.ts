/**
 * Helpers for the HTTP API tests: a daemon in this process with a real listener on 127.0.0.1:0, a
 * provider whose calls wait until the test releases them (no sleeps), and a streaming SSE reader
 * over fetch that parses frames as they arrive.
 */
import { GovflowDaemon } from '../../src/daemon/daemon.js';
import { DryRunProvider } from '../../src/llm/dry-run-provider.js';
import type { OperationalLog } from '../../src/log-contract.js';
import {
  PROVIDER_INTERFACE_VERSION,
  type LlmProvider,
  type LlmRequest,
  type LlmResponse,
} from '../../src/llm/provider.js';
import { afterEach } from 'vitest';
import { agentMessage, exampleRoot, removeTempDirs } from '../pipeline/pipeline-test-helpers.js';

export interface SseEvent {
  id: string | null;
  event: string;
  data: unknown;
}

/**
 * Dry-run answers, streamed in two chunks. With `gated`, every call waits for `release()`; an
 * aborted call rejects. `pendingOnce` makes that agent's first answer a question (status pending).
 */
export class GatedProvider implements LlmProvider {
  readonly kind = 'dry-run';
  readonly interfaceVersion = PROVIDER_INTERFACE_VERSION;
  private readonly inner = new DryRunProvider();
  private readonly waiting: Array<() => void> = [];
  private readonly callWaiters: Array<{ count: number; resolve: () => void }> = [];
  calls = 0;
  private asked = false;

  constructor(private readonly options: { gated?: boolean; pendingOnce?: string } = {}) {}

  /** Lets `count` waiting (or future) calls finish. */
  release(count = 1): void {
    for (let index = 0; index < count; index++) {
      const next = this.waiting.shift();
      if (next) next();
      else this.credit += 1;
    }
  }

  private credit = 0;

  /** Resolves once `count` calls have started in total. */
  waitForCalls(count: number): Promise<void> {
    if (this.calls >= count) return Promise.resolve();
    return new Promise((resolve) => this.callWaiters.push({ count, resolve }));
  }

  async generate(request: LlmRequest): Promise<LlmResponse> {
    this.calls += 1;
    for (const waiter of this.callWaiters.filter((candidate) => candidate.count <= this.calls)) {
      this.callWaiters.splice(this.callWaiters.indexOf(waiter), 1);
      waiter.resolve();
    }
    if (this.options.gated) {
      if (this.credit > 0) this.credit -= 1;
      else {
        await new Promise<void>((resolve, reject) => {
          const onAbort = () =>
            reject(request.signal.reason instanceof Error ? request.signal.reason : new Error('aborted'));
          if (request.signal.aborted) return onAbort();
          request.signal.addEventListener('abort', onAbort, { once: true });
          this.waiting.push(() => {
            request.signal.removeEventListener('abort', onAbort);
            resolve();
          });
        });
      }
    }
    if (this.options.pendingOnce === request.agent && !this.asked) {
      this.asked = true;
      const text = agentMessage({
        content: null,
        contentType: request.expectation?.contentType ?? 'objectives',
        next: null,
        status: 'pending',
        message: 'Which budget do you mean?',
      });
      return {
        text,
        usage: { inputTokens: 1, outputTokens: 1, cachedInputTokens: 0 },
        model: 'dry-run',
        provider: this.kind,
      };
    }
    const response = await this.inner.generate(request);
    const half = Math.floor(response.text.length / 2);
    request.onChunk?.(response.text.slice(0, half));
    request.onChunk?.(response.text.slice(half));
    return response;
  }
}

const SILENT = { info() {}, warn() {}, error() {} };

export interface HttpDaemon {
  daemon: GovflowDaemon;
  url: string;
  readyLine: string;
}

/** The HTTP API's address named by a daemon's ready line. */
export function httpUrlOf(readyLine: string): string {
  const url = /HTTP API on (http:\/\/\S+)/.exec(readyLine)?.[1];
  if (!url) throw new Error(`the ready line names no HTTP address: ${readyLine}`);
  return url;
}

/** Starts the daemon in this process with the HTTP API on a free loopback port. */
export async function startHttpDaemon(
  root: string,
  provider: LlmProvider = new GatedProvider(),
  log: OperationalLog = SILENT,
): Promise<HttpDaemon> {
  let readyLine = '';
  const daemon = await GovflowDaemon.start(root, {
    env: {},
    log,
    provider,
    httpListen: '127.0.0.1:0',
    announce: (line) => (readyLine = line),
  });
  return { daemon, url: httpUrlOf(readyLine), readyLine };
}

/**
 * A chat exchange as seed 003 writes it: event name and the sorted keys of its payload, a run of
 * `content_chunk`s counted once (the seed streams text in as many chunks as the model sends).
 */
export function seed003Shape(events: SseEvent[]): string[] {
  const lines = events.map((event) => `${event.event} ${JSON.stringify(Object.keys(event.data as object).sort())}`);
  return lines.filter((line, index) => !(line.startsWith('content_chunk ') && lines[index - 1] === line));
}

/** fetch with a JSON body and optional bearer token; returns status and parsed JSON. */
export async function postJson(url: string, body: unknown, token?: string): Promise<{ status: number; body: any }> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : null };
}

export async function getJson(url: string, token?: string): Promise<{ status: number; body: any }> {
  const response = await fetch(url, { headers: token ? { authorization: `Bearer ${token}` } : {} });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : null };
}

/** An open SSE response read frame by frame as bytes arrive. */
export class SseReader {
  readonly events: SseEvent[] = [];
  comments = 0;
  ended = false;
  status = 0;
  headers = new Headers();
  private readonly controller = new AbortController();
  private waiters: Array<() => void> = [];
  private reading: Promise<void> = Promise.resolve();

  static async open(
    url: string,
    options: { token?: string; lastEventId?: string; method?: string; body?: unknown } = {},
  ): Promise<SseReader> {
    const reader = new SseReader();
    const response = await fetch(url, {
      method: options.method ?? 'GET',
      signal: reader.controller.signal,
      headers: {
        accept: 'text/event-stream',
        ...(options.token ? { authorization: `Bearer ${options.token}` } : {}),
        ...(options.lastEventId ? { 'last-event-id': options.lastEventId } : {}),
        ...(options.body !== undefined ? { 'content-type': 'application/json' } : {}),
      },
      ...(options.body !== undefined ? { body: JSON.stringify(options.body) } : {}),
    });
    reader.status = response.status;
    reader.headers = response.headers;
    if (!response.body) throw new Error('no body');
    reader.reading = reader.consume(response.body);
    return reader;
  }

  private async consume(body: ReadableStream<Uint8Array>): Promise<void> {
    const decoder = new TextDecoder();
    let buffer = '';
    try {
      for await (const chunk of body as unknown as AsyncIterable<Uint8Array>) {
        buffer += decoder.decode(chunk, { stream: true });
        let end: number;
        while ((end = buffer.indexOf('\n\n')) !== -1) {
          this.parseFrame(buffer.slice(0, end));
          buffer = buffer.slice(end + 2);
        }
      }
    } catch {
      // aborted by the test, or the server went away
    }
    this.ended = true;
    this.wake();
  }

  private parseFrame(frame: string): void {
    let id: string | null = null;
    let event = 'message';
    const data: string[] = [];
    let comment = false;
    for (const line of frame.split('\n')) {
      if (line.startsWith(':')) comment = true;
      else if (line.startsWith('id: ')) id = line.slice(4);
      else if (line.startsWith('event: ')) event = line.slice(7);
      else if (line.startsWith('data: ')) data.push(line.slice(6));
    }
    if (data.length === 0) {
      if (comment) this.comments += 1;
      this.wake();
      return;
    }
    this.events.push({ id, event, data: JSON.parse(data.join('\n')) });
    this.wake();
  }

  private wake(): void {
    for (const waiter of this.waiters.splice(0)) waiter();
  }

  /** Waits until `predicate` holds for the events so far (or the stream ended), at most `timeoutMs`. */
  async until(predicate: (events: SseEvent[]) => boolean, timeoutMs = 15_000): Promise<SseEvent[]> {
    const deadline = Date.now() + timeoutMs;
    while (!predicate(this.events)) {
      if (this.ended) throw new Error(`the stream ended before the awaited event; got: ${this.names().join(', ')}`);
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`timed out waiting for an event; got: ${this.names().join(', ')}`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
    return this.events;
  }

  /** Resolves once the server ended the stream. */
  async finished(timeoutMs = 15_000): Promise<SseEvent[]> {
    const timer = new Promise<never>((_resolve, reject) =>
      setTimeout(() => reject(new Error(`the stream did not end; got: ${this.names().join(', ')}`)), timeoutMs).unref(),
    );
    await Promise.race([this.reading, timer]);
    return this.events;
  }

  names(): string[] {
    return this.events.map((event) => event.event);
  }

  /** Cuts the connection from the client side. */
  async close(): Promise<void> {
    this.controller.abort();
    await this.reading;
  }
}

/**
 * What a test file's tests open — daemons and event streams — closed after each test (this
 * registers the afterEach), with `start` for an example root and `open` for a stream.
 */
export function httpTestbed() {
  const running: HttpDaemon[] = [];
  const readers: SseReader[] = [];
  afterEach(async () => {
    for (const reader of readers.splice(0)) await reader.close();
    for (const { daemon } of running.splice(0)) await daemon.stop();
    removeTempDirs();
  });
  return {
    running,
    readers,
    async start(provider: GatedProvider, config = ''): Promise<HttpDaemon & { root: string }> {
      const root = exampleRoot(config);
      const started = await startHttpDaemon(root, provider);
      running.push(started);
      return { ...started, root };
    },
    async open(url: string, options: Parameters<typeof SseReader.open>[1] = {}): Promise<SseReader> {
      const reader = await SseReader.open(url, options);
      readers.push(reader);
      return reader;
    },
  };
}
