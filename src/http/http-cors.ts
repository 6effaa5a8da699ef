/**
 * CORS (docs/http-api.md "CORS"), by @fastify/cors: a browser app on one of `http.cors.origins`
 * may call the API. Its preflight `OPTIONS` is answered 204 in the first hooks, before the rate
 * limits and the token check (a browser sends no Authorization on a preflight); answers to it carry
 * `access-control-allow-origin: <its origin>` and expose the chat's headers. Any other origin, and
 * a call with no Origin, gets no CORS header at all. No origins: the plugin is not even registered.
 */
import cors from '@fastify/cors';
import type { FastifyInstance } from 'fastify';

/** Registers CORS for `origins` (exact `scheme://host[:port]` strings); call before the auth hook. */
export async function registerCors(app: FastifyInstance, origins: readonly string[]): Promise<void> {
  if (origins.length === 0) return;
  const allowed = new Set(origins);
  await app.register(cors, {
    // true reflects the request's own Origin; false sends no CORS header.
    origin: (origin, callback) => callback(null, origin !== undefined && allowed.has(origin)),
    methods: ['GET', 'POST'],
    allowedHeaders: ['authorization', 'content-type', 'last-event-id'],
    exposedHeaders: ['x-conversation-id', 'x-request-id'],
    maxAge: 600,
    optionsSuccessStatus: 204,
  });
}
