/**
 * The security headers of every HTTP answer (docs/http-api.md "Security headers"), set by
 * @fastify/helmet: a Content-Security-Policy that allows the web view's own inline script and
 * style by their hashes and nothing else (no 'unsafe-inline', no other origin, no framing), and
 * nosniff, X-Frame-Options DENY and Referrer-Policy no-referrer. No Strict-Transport-Security:
 * govflow serves plain HTTP, and HSTS is the business of the TLS proxy in front of it.
 */
import helmet from '@fastify/helmet';
import type { FastifyInstance } from 'fastify';

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

/** Registers the headers on every route of `app` (call before the routes). */
export async function registerSecurityHeaders(app: FastifyInstance, sources: ContentSources): Promise<void> {
  await app.register(helmet, {
    global: true,
    contentSecurityPolicy: { useDefaults: false, directives: contentSecurityDirectives(sources) },
    frameguard: { action: 'deny' },
    referrerPolicy: { policy: 'no-referrer' },
    strictTransportSecurity: false,
  });
}
