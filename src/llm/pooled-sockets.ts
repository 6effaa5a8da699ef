/**
 * When a kept-alive socket may take a request at once (src/llm/node-http-fetch.ts, issue 55).
 *
 * A server closes a kept-alive connection in one of two ways: right after an answer (a server that
 * does not keep connections, or has served its last request on this one), or once it has sat idle
 * for the server's keep-alive timeout. Writing a request on a socket whose close has arrived but
 * not been read fails the call (the server may have read it: never sent again; the provider layer
 * retries it as any network failure). So a socket is written at once only when both closes are
 * ruled out as far as the loop can tell:
 * - a whole poll of the event loop has run since it went back to the pool (two turns), so a close
 *   the server sent with or right after its answer has been read, and the pool dropped the socket
 *   (one arriving later still is met as every HTTP client meets it: a failed call, retried);
 * - it has been idle for less than half the server's keep-alive timeout (its `Keep-Alive:
 *   timeout=N` hint), or {@link DEFAULT_FRESH_MS} when the server gives none.
 * Any other socket is looked at again after a turn of the loop (the caller's slower path): the one
 * reused within a turn of coming back, and the one idle long enough for the server to be closing it.
 *
 * Why it matters: at 1,000 calls in flight, the answers of a wave arrive together and a loop turn
 * is long; a turn waited before every write sent each wave's next calls only once the whole wave
 * had been read, so the sessions moved in lockstep and each step cost the whole wave's processing.
 */
import type { Agent, IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';

/** How long a socket counts as fresh when the server sent no keep-alive hint: well under the 5 s of Node's, uvicorn's and llama.cpp's servers. */
export const DEFAULT_FRESH_MS = 2_000;

interface Pooled {
  /** How long after its answer it counts as fresh (half the server's keep-alive hint). */
  freshMs: number;
  /** The loop turn it went back to the pool in, and when; Infinity while its answer is read. */
  turn: number;
  at: number;
}

/** Each socket's last answer and return to the pool: one record, written at the answer, completed at the return. */
const pooled = new WeakMap<Socket, Pooled>();

/** Loop turns (check phases) counted while a socket went free in the last two: the tick stops when nothing needs it. */
let turn = 0;
let lastFreed = -Infinity;
let ticking = false;

function tick(): void {
  turn += 1;
  if (turn - lastFreed < 2) setImmediate(tick).unref();
  else ticking = false;
}

/** How long after its answer a socket counts as fresh, from the answer's Keep-Alive hint. */
export function freshMsOf(keepAlive: string | undefined): number {
  const seconds = keepAlive === undefined ? NaN : Number(/(?:^|[\s,])timeout=(\d+)/i.exec(keepAlive)?.[1]);
  return Number.isFinite(seconds) ? (seconds * 1000) / 2 : DEFAULT_FRESH_MS;
}

/** Notes the server's keep-alive hint of an answer, for when its socket goes back to the pool. */
export function noteAnswer(socket: Socket | null, incoming: IncomingMessage): void {
  const hint = incoming.headers['keep-alive'];
  if (socket) pooled.set(socket, { freshMs: freshMsOf(Array.isArray(hint) ? hint[0] : hint), turn: Infinity, at: 0 });
}

/** Follows the sockets `agent` takes back into its pool. */
export function trackPool(agent: Agent): void {
  agent.on('free', (socket: Socket) => {
    const record = pooled.get(socket);
    if (record) {
      record.turn = turn;
      record.at = performance.now();
    }
    lastFreed = turn;
    if (!ticking) {
      ticking = true;
      setImmediate(tick).unref();
    }
  });
}

/** True when a request may be written on this reused socket now, without a turn of the loop first. */
export function writableAtOnce(socket: Socket): boolean {
  const record = pooled.get(socket);
  return (
    record !== undefined && turn - record.turn >= 2 && performance.now() - record.at < record.freshMs && usable(socket)
  );
}

/** Not closed, as far as the loop has read. */
export function usable(socket: Socket): boolean {
  return !socket.destroyed && socket.writable && !socket.readableEnded;
}
