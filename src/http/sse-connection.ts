/**
 * One Server-Sent Events response: headers, `id:`/`event:`/`data:` frames, a comment heartbeat,
 * and an end that is safe to call twice. A client that stops reading is cut off once too much is
 * buffered for it, so one slow reader never grows the daemon's memory without bound.
 *
 * Why not @fastify/sse (the stack names it): its current line (0.6) is a 0.x release whose
 * `engines` asks for Node >= 20.20.2, above the 20.19 govflow supports; and the two streams here
 * need what it does not give in one place: frames without ids for seed 003's chat, ids taken from
 * the journal for the session stream (so a reconnect resumes exactly), and the slow-reader cut-off
 * above. This file is 90 lines over Node's own response; revisit when @fastify/sse reaches 1.0.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';

/** Bytes buffered for a client that does not read before it is disconnected. */
const MAX_BUFFERED_BYTES = 8 * 1024 * 1024;

export class SseConnection {
  private heartbeat: NodeJS.Timeout | null = null;
  private ended = false;
  private corked = false;
  /**
   * The id of the daemon's stopping notice on this stream, set by a stream whose events have ids
   * (the session stream: one that resumes right); null sends it without an id, as seed 003's chat.
   */
  stoppingId: () => string | null = () => null;
  private readonly closeListeners: Array<() => void> = [];

  constructor(
    private readonly request: IncomingMessage,
    private readonly response: ServerResponse,
    heartbeatMs: number,
    headers: Record<string, string> = {},
  ) {
    response.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache, no-transform',
      connection: 'keep-alive',
      'x-accel-buffering': 'no',
      ...headers,
    });
    response.flushHeaders();
    // The request's socket, not the response: `close` fires when the client goes away.
    response.on('close', () => this.finish());
    request.socket.setTimeout(0);
    this.heartbeat = setInterval(() => this.write(': heartbeat\n\n'), heartbeatMs);
    this.heartbeat.unref();
  }

  get isOpen(): boolean {
    return !this.ended;
  }

  /** Runs `listener` once, when the stream ends for any reason (client gone, server done). */
  onClose(listener: () => void): void {
    if (this.ended) listener();
    else this.closeListeners.push(listener);
  }

  /** Sends one event; `data` is JSON on one line. Without an id (seed 003's chat frames) no `id:` line is written. */
  send(event: string, id: string | null, data: unknown): void {
    this.write(`${id === null ? '' : `id: ${id}\n`}event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
  }

  /** Ends the response after what was sent. */
  end(): void {
    if (this.ended) return;
    this.response.end();
    this.finish();
  }

  private write(text: string): void {
    if (this.ended || this.response.writableEnded || this.response.destroyed) return;
    // The events of one turn of the loop (a model's answer read in one piece gives dozens of
    // chunks) leave in one write instead of one system call each.
    if (!this.corked) {
      this.corked = true;
      this.response.cork();
      setImmediate(() => {
        this.corked = false;
        this.response.uncork();
      });
    }
    this.response.write(text);
    if (this.response.writableLength > MAX_BUFFERED_BYTES) {
      this.response.destroy(new Error('event stream client does not read; disconnected'));
      this.finish();
    }
  }

  private finish(): void {
    if (this.ended) return;
    this.ended = true;
    if (this.heartbeat) clearInterval(this.heartbeat);
    for (const listener of this.closeListeners.splice(0)) {
      try {
        listener();
      } catch {
        // cleanup of one listener must not stop the others
      }
    }
  }
}
