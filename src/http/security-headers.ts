/**
 * The security headers of every HTTP answer (docs/http-api.md "Security headers"), set by helmet:
 * a Content-Security-Policy that allows the web view's own inline script and style by their hashes
 * and nothing else (no 'unsafe-inline', no other origin, no framing), and nosniff, X-Frame-Options
 * DENY and Referrer-Policy no-referrer. No Strict-Transport-Security: govflow serves plain HTTP, and
 * HSTS is the business of the TLS proxy in front of it.
 *
 * helmet's middleware is built once, here: @fastify/helmet (13), which wraps it, built it again on
 * every request, parsing the policy each time (12 KB of garbage a request, bench/RESULTS.md).
 */
import type { FastifyInstance } from 'fastify';
import helmet from 'helmet';

/** The hashes (`'sha256-…'`) of the inline scripts and styles the pages carry. */
export interface ContentSources {
  scripts: readonly string[];
  styles: readonly string[];
}

export function contentSecurityDirectives(sources: ContentSources): Record<string, string[]> {
  return {
    'default-src': ["'none'"],
    'script-src': sources.scripts.length > 0 ? [...sources.scripts] : ["'none'"],
    'style-src': sources.styles.length > 0 ? [...sources.styles] : ["'none'"],
    'img-src': ["'self'", 'data:'],
    // The live page's EventSource reads the session's event stream on this server.
    'connect-src': ["'self'"],
    'form-action': ["'self'"],
    'frame-ancestors': ["'none'"],
    'base-uri': ["'none'"],
  };
}

/** Sets the headers on every answer of `app`, its 404s and errors included (call before the routes). */
export function registerSecurityHeaders(app: FastifyInstance, sources: ContentSources): void {
  const setHeaders = helmet({
    contentSecurityPolicy: { useDefaults: false, directives: contentSecurityDirectives(sources) },
    frameguard: { action: 'deny' },
    referrerPolicy: { policy: 'no-referrer' },
    strictTransportSecurity: false,
  });
  // helmet 8 throws what goes wrong instead of passing it on: its callback only says it is done.
  app.addHook('onRequest', (request, reply, done) => {
    setHeaders(request.raw, reply.raw, () => done());
  });
}
