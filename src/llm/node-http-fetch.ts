/**
 * A keep-alive `fetch` over node:http and node:https for the model providers' calls (issue 41).
 * Node's global fetch spends more CPU per call than the AI SDK itself does on a loopback model:
 * WHATWG request and header objects, its own connection pool and parser on top of the socket.
 * undici, which would let us tune that pool, is not a dependency of govflow (only the copy bundled
 * inside Node behind `fetch`, and a transitive copy that is not ours to import), so this is built
 * on Node's own HTTP client and two keep-alive Agents.
 *
 * It serves what the AI SDK's providers ask: a string or URL over http(s), a method, plain
 * headers, a string or byte body and an AbortSignal. Everything else — a Request object, a stream
 * or form body, a `redirect` mode other than follow, another scheme — goes to global fetch, and so
 * does an answer that redirects (the request is sent again through fetch, which follows it), and
 * every call when Node is told to use the environment's proxy (NODE_USE_ENV_PROXY, Node 24).
 *
 * Toward its caller it behaves as fetch does, so the provider layer's retry classification holds:
 * a Response with status, headers and a body stream, gzip/deflate/br decoded as read; a failure
 * before the answer rejects with TypeError('fetch failed') and the socket error as `cause`; a body
 * broken midway errors with TypeError('terminated'); an abort destroys the socket (the server sees
 * the call closed: a cancel reaches the model) and rejects, or errors the body, with the signal's
 * reason.
 *
 * A call is never sent twice (a model call paid twice): a socket kept alive is written on at once
 * only when a close from the server is ruled out (pooled-sockets.ts: a whole poll of the loop has
 * run since it went back to the pool, and it is idle for under half the server's keep-alive
 * timeout); any other is looked at after a turn of the event loop, so a close the server sent while
 * it sat in the pool has been read, and one the server closed is dropped for a new connection (the
 * call's `connectionNotes` say so: the journal's exchange record carries them). Once a byte of the
 * request is written, a failure is the caller's `fetch failed`: the server may have read it.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import http from 'node:http';
import https from 'node:https';
import type { Readable } from 'node:stream';
import zlib from 'node:zlib';
import { noteAnswer, trackPool, usable, writableAtOnce } from './pooled-sockets.js';

/**
 * Connections per origin: no cap. How many calls run at once is the configuration's to bound
 * (`intake.concurrency` sessions, each with up to `limits.max_fan_out` tasks or delegations at a
 * time); a cap here made the calls above it wait for a socket, a whole model latency late (issue
 * 55: 1,000 sessions in flight with two parallel tasks each sent 1,024 calls, then the rest). Idle
 * sockets are kept as many as were in use, so a wave of answers does not close what the next wave
 * reconnects (Node's default of 256 made 1,000 sessions in flight open 744 new connections per
 * wave); the server's Keep-Alive hint closes them. The least recently used idle socket is taken
 * first (fifo): within a wave it has been in the pool for a poll of the loop, so it is written on
 * at once, where the most recent one (Node's lifo) had often just come back and waited a turn.
 */
const AGENT_OPTIONS = {
  keepAlive: true,
  maxSockets: Infinity,
  maxFreeSockets: Infinity,
  scheduling: 'fifo',
} as const;
const httpAgent = new http.Agent(AGENT_OPTIONS);
const httpsAgent = new https.Agent(AGENT_OPTIONS);
trackPool(httpAgent);
trackPool(httpsAgent);

const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);
const NULL_BODY_STATUSES = new Set([204, 205, 304]);
const NORMALISED_METHODS = new Set(['DELETE', 'GET', 'HEAD', 'OPTIONS', 'POST', 'PUT']);
/** Kept-alive sockets found closed before one call is written, at most; then the call fails. */
const MAX_STALE_SOCKETS = 8;

/** What happened to the connections of the calls made inside `withConnectionNotes`, for the journal. */
const notesOfCall = new AsyncLocalStorage<string[]>();

/** Runs `call` collecting the connection notes of its fetches into `notes` (a stale socket replaced, say). */
export function withConnectionNotes<T>(notes: string[], call: () => T): T {
  return notesOfCall.run(notes, call);
}

/** Node's fetch honours HTTP(S)_PROXY under NODE_USE_ENV_PROXY=1; this client leaves such calls to it. */
const ENVIRONMENT_PROXY = process.env.NODE_USE_ENV_PROXY === '1';

type FetchInput = Parameters<typeof fetch>[0];
type FetchInit = NonNullable<Parameters<typeof fetch>[1]>;

/** The request when this client serves it, else undefined (global fetch does). */
function served(input: FetchInput, init: FetchInit | undefined): URL | undefined {
  if (ENVIRONMENT_PROXY) return undefined;
  const href = typeof input === 'string' ? input : input instanceof URL ? input.href : undefined;
  if (href === undefined || !URL.canParse(href)) return undefined;
  const body = init?.body;
  if (body !== undefined && body !== null && typeof body !== 'string' && !(body instanceof Uint8Array))
    return undefined;
  if (init?.redirect !== undefined && init.redirect !== 'follow') return undefined;
  if (init !== undefined && 'dispatcher' in init) return undefined;
  const url = new URL(href);
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return undefined;
  // fetch's own refusals (credentials in the URL, a body on GET/HEAD) keep fetch's own errors.
  if (url.username !== '' || url.password !== '') return undefined;
  if (body !== undefined && body !== null && /^(get|head)$/i.test(init?.method ?? 'GET')) return undefined;
  return url;
}

/** A `fetch` over keep-alive node:http(s) Agents; global fetch for what it does not serve. */
export const nodeHttpFetch = ((input: FetchInput, init?: FetchInit): Promise<Response> => {
  const url = served(input, init);
  if (url === undefined) return fetch(input, init);
  return send(url, input, init ?? {}, 0);
}) as typeof fetch;

/** The outgoing headers: the caller's, plus the defaults fetch would add. */
function outgoingHeaders(
  given: FetchInit['headers'],
  body: Uint8Array | undefined,
  textBody: boolean,
): http.OutgoingHttpHeaders {
  const headers: Record<string, string> = {};
  if (given instanceof Headers || Array.isArray(given)) {
    for (const [name, value] of given) headers[name.toLowerCase()] = value;
  } else if (given) {
    for (const name of Object.keys(given)) {
      const value = given[name];
      if (value !== undefined) headers[name.toLowerCase()] = typeof value === 'string' ? value : value.join(', ');
    }
  }
  headers['accept'] ??= '*/*';
  headers['accept-encoding'] ??= 'gzip, deflate, br';
  if (body !== undefined) {
    headers['content-length'] = String(body.byteLength);
    if (textBody) headers['content-type'] ??= 'text/plain;charset=UTF-8';
  }
  return headers;
}

function responseHeaders(raw: string[]): Headers {
  const headers = new Headers();
  for (let index = 0; index + 1 < raw.length; index += 2) headers.append(raw[index]!, raw[index + 1]!);
  return headers;
}

/** The body as fetch reads it: decoded for the encodings it asks for, raw for any other. */
function decoded(incoming: http.IncomingMessage): Readable {
  const encoding = incoming.headers['content-encoding']?.trim().toLowerCase();
  // As undici does: a truncated compressed body yields what arrived, then the socket's own error.
  const lenient = { flush: zlib.constants.Z_SYNC_FLUSH, finishFlush: zlib.constants.Z_SYNC_FLUSH };
  let decoder: zlib.Gunzip | zlib.Inflate | zlib.BrotliDecompress | undefined;
  if (encoding === 'gzip' || encoding === 'x-gzip') decoder = zlib.createGunzip(lenient);
  else if (encoding === 'deflate') decoder = zlib.createInflate(lenient);
  else if (encoding === 'br')
    decoder = zlib.createBrotliDecompress({
      flush: zlib.constants.BROTLI_OPERATION_FLUSH,
      finishFlush: zlib.constants.BROTLI_OPERATION_FLUSH,
    });
  if (decoder === undefined) return incoming;
  incoming.pipe(decoder);
  return decoder;
}

/** One exchange; `stale`: kept-alive sockets found closed before this call was written on them. */
function send(url: URL, input: FetchInput, init: FetchInit, stale: number): Promise<Response> {
  const signal = init.signal ?? undefined;
  if (signal?.aborted) return Promise.reject(signal.reason);
  const given = init.body === null || init.body === undefined ? undefined : (init.body as string | Uint8Array);
  // Encoded once, here: its length is the header, and the socket takes the bytes as they are.
  let body = typeof given === 'string' ? Buffer.from(given, 'utf8') : given;
  const givenMethod = init.method ?? 'GET';
  const method = NORMALISED_METHODS.has(givenMethod.toUpperCase()) ? givenMethod.toUpperCase() : givenMethod;
  const secure = url.protocol === 'https:';

  return new Promise<Response>((resolve, reject) => {
    const request = (secure ? https : http).request({
      protocol: url.protocol,
      // A literal IPv6 address comes bracketed in URL.hostname; the socket wants it bare.
      hostname: url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname,
      port: url.port,
      path: url.pathname + url.search,
      method,
      headers: outgoingHeaders(init.headers, body, typeof given === 'string'),
      agent: secure ? httpsAgent : httpAgent,
    });
    // What an abort does now: before the answer, reject; while the body is read, error it.
    let onAbort = (): void => {
      request.destroy();
      reject(signal!.reason);
    };
    const abortListener = () => onAbort();
    const release = () => signal?.removeEventListener('abort', abortListener);
    signal?.addEventListener('abort', abortListener, { once: true });
    let answered = false;

    /** Set once a byte of the request may have gone out: from then on a failure is never sent again. */
    let written = false;
    let replaced = false;
    /** The kept-alive socket was closed by the server before the request was written: nothing reached it. */
    const replace = (): void => {
      if (replaced) return;
      replaced = true;
      release();
      request.removeAllListeners('error');
      request.on('error', () => {});
      request.destroy();
      notesOfCall
        .getStore()
        ?.push(
          `the kept-alive connection to ${url.host} had been closed by the server before the request was written; ` +
            'sent on a new connection (sent once)',
        );
      if (stale + 1 >= MAX_STALE_SOCKETS)
        reject(
          new TypeError('fetch failed', {
            cause: new Error(`${MAX_STALE_SOCKETS} kept-alive connections found closed`),
          }),
        );
      else resolve(send(url, input, init, stale + 1));
    };

    request.on('error', (error: NodeJS.ErrnoException) => {
      if (answered || signal?.aborted) return; // the body stream reports it, or the abort did
      if (request.reusedSocket && !written) return replace();
      release();
      reject(new TypeError('fetch failed', { cause: error }));
    });

    const write = (): void => {
      written = true;
      // Handed to the socket, then let go: the call's closures live until its answer, and a body
      // held here for the model's whole latency was 17 KB a call at 2,000 calls in flight (issue 55).
      const bytes = body;
      body = undefined;
      if (bytes === undefined) request.end();
      else request.end(bytes);
    };
    request.once('socket', (socket) => {
      if (!request.reusedSocket || writableAtOnce(socket)) return write();
      // A kept-alive socket not known to be open (pooled-sockets.ts): two turns of the loop (a poll
      // between), so a close the server sent while it sat in the pool has been read, then it is
      // looked at before a byte goes out.
      setImmediate(() =>
        setImmediate(() => {
          if (signal?.aborted || replaced) return;
          if (usable(socket)) write();
          else replace();
        }),
      );
    });

    request.on('response', (incoming) => {
      answered = true;
      noteAnswer(request.socket, incoming);
      const status = incoming.statusCode ?? 0;
      if (REDIRECT_STATUSES.has(status) && incoming.headers.location !== undefined) {
        incoming.resume();
        release();
        resolve(fetch(input, init));
        return;
      }
      const headers = responseHeaders(incoming.rawHeaders);
      const statusText = incoming.statusMessage ?? '';
      if (NULL_BODY_STATUSES.has(status) || method === 'HEAD') {
        incoming.resume();
        incoming.once('end', release);
        answerWith(() => new Response(null, { status, statusText, headers }));
        return;
      }
      const stream = bodyStream(incoming, request, signal, release, (abort) => (onAbort = abort));
      answerWith(() => new Response(stream, { status, statusText, headers }));
    });

    /** Resolves with the Response, or fails as fetch does on a status it cannot represent. */
    function answerWith(make: () => Response): void {
      try {
        resolve(make());
      } catch (error) {
        release();
        request.destroy();
        reject(new TypeError('fetch failed', { cause: error }));
      }
    }
  });
}

/**
 * The response body as a web stream: read as the SDK pulls (the socket pauses when it does not),
 * ended when the answer is complete, errored when the socket breaks, cancelled by closing the socket.
 */
function bodyStream(
  incoming: http.IncomingMessage,
  request: http.ClientRequest,
  signal: AbortSignal | undefined,
  release: () => void,
  onAbort: (abort: () => void) => void,
): ReadableStream<Uint8Array> {
  const source = decoded(incoming);
  let done = false;
  return new ReadableStream<Uint8Array>(
    {
      start(controller) {
        const fail = (error: unknown) => {
          if (done) return;
          done = true;
          release();
          request.destroy();
          controller.error(error);
        };
        onAbort(() => fail(signal!.reason));
        const broken = (cause: unknown) => fail(new TypeError('terminated', { cause }));
        source.on('data', (chunk: Buffer) => {
          if (done) return;
          controller.enqueue(chunk);
          if ((controller.desiredSize ?? 0) <= 0) source.pause();
        });
        source.once('end', () => {
          if (done) return;
          done = true;
          release();
          controller.close();
        });
        incoming.on('error', broken);
        if (source !== incoming) source.on('error', broken);
        // A socket closed before the last byte, whether or not Node reported an error for it.
        incoming.once('close', () => {
          if (!incoming.complete) broken(Object.assign(new Error('other side closed'), { code: 'ECONNRESET' }));
        });
      },
      pull() {
        source.resume();
      },
      cancel() {
        done = true;
        release();
        request.destroy();
      },
    },
    { highWaterMark: 65_536, size: (chunk) => chunk.byteLength },
  );
}
