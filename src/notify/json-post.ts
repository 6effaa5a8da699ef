/**
 * One POST of a JSON body to a receiver (webhook endpoints, URL witnesses), on node:http(s) with
 * kept-alive connections: a delivery costs a fraction of fetch's CPU (no web streams, no Request
 * objects), which matters when every session end makes one. Resolves with the status once the
 * answer's head is in (its body is drained and dropped); rejects when `timeoutMs` passes first
 * (a TimeoutError), when `signal` aborts, or when the receiver cannot be reached.
 */
import { Agent as HttpAgent, request as httpRequest } from 'node:http';
import type { LookupFunction } from 'node:net';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { GovflowError } from '../errors.js';

const agents = {
  http: new HttpAgent({ keepAlive: true, maxSockets: 8 }),
  https: new HttpsAgent({ keepAlive: true, maxSockets: 8 }),
};

/** The receiver did not answer within the time given. */
export class PostTimeoutError extends GovflowError {
  override readonly name = 'TimeoutError';
  constructor(message: string) {
    super('provider', message, { retryable: true });
  }
}

/**
 * `address`: connect there instead of resolving the URL's host (a webhook's checked address); TLS
 * still verifies the certificate against the host's name.
 */
export function postJson(
  url: string,
  body: string,
  options: {
    headers?: Record<string, string>;
    timeoutMs: number;
    signal: AbortSignal;
    address?: { address: string; family: number } | null;
  },
): Promise<number> {
  const pinned = options.address ?? null;
  const secure = url.startsWith('https:');
  return new Promise((resolve, reject) => {
    if (options.signal.aborted) return reject(options.signal.reason);
    const outgoing = (secure ? httpsRequest : httpRequest)(url, {
      method: 'POST',
      agent: secure ? agents.https : agents.http,
      ...(pinned
        ? {
            lookup: ((_host: string, lookupOptions: { all?: boolean }, callback: (...args: unknown[]) => void) => {
              if (lookupOptions.all) callback(null, [pinned]);
              else callback(null, pinned.address, pinned.family);
            }) as unknown as LookupFunction,
          }
        : {}),
      headers: {
        'content-type': 'application/json',
        'content-length': String(Buffer.byteLength(body)),
        ...options.headers,
      },
    });
    const timer = setTimeout(
      () => outgoing.destroy(new PostTimeoutError(`no answer within ${options.timeoutMs / 1000} s`)),
      options.timeoutMs,
    );
    const onAbort = () => outgoing.destroy(options.signal.reason as Error);
    options.signal.addEventListener('abort', onAbort, { once: true });
    const done = () => {
      clearTimeout(timer);
      options.signal.removeEventListener('abort', onAbort);
    };
    outgoing.on('response', (incoming) => {
      done();
      incoming.resume();
      resolve(incoming.statusCode ?? 0);
    });
    outgoing.on('error', (error) => {
      done();
      reject(error);
    });
    outgoing.end(body);
  });
}
