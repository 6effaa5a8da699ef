/**
 * One Server-Sent Events response: frames, a comment heartbeat, an end safe to call twice, and a
 * cut-off for a client that stops reading (a slow reader never grows memory without bound).
 * Not @fastify/sse: 0.6 wants Node >= 20.20.2 (govflow supports 20.19) and gives no frames without
 * ids (seed 003's chat) beside journal ids, nor the cut-off; revisit at its 1.0.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';

/** Bytes buffered for a client that does not read before it is disconnected. */
const MAX_BUFFERED_BYTES = 8 * 1024 * 1024;

export class SseConnection {
  private heartbeat: NodeJS.Timeout | null = null;
  private ended = false;
  private corked = false;
  /** The id of the daemon's stopping notice (the session stream sets it); null: none, as seed 003's chat. */
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
    // Uncorked here, not by end(): on Node 22 end() leaves a corked socket corked (and detached).
    this.uncork();
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
      setImmediate(() => this.uncork());
    }
    this.response.write(text);
    if (this.response.writableLength > MAX_BUFFERED_BYTES) {
      this.response.destroy(new Error('event stream client does not read; disconnected'));
      this.finish();
    }
  }

  private uncork(): void {
    if (!this.corked) return;
    this.corked = false;
    this.response.uncork();
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
