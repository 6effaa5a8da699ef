/**
 * The security headers (docs/http-api.md "Security headers") on the web view's pages, the API's
 * JSON, its errors and its event streams: a CSP whose only inline sources are the hashes of the
 * very script and style the pages carry, no framing, nosniff, no referrer, no HSTS on plain HTTP.
 */
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tokenSha256 } from '../../src/http/http-auth.js';
import { waitFor } from '../daemon/daemon-helpers.js';
import { exampleRoot, removeTempDirs } from '../pipeline/pipeline-test-helpers.js';
import { GatedProvider, postJson, startHttpDaemon, type HttpDaemon } from './http-test-helpers.js';

const TOKEN = 'header-test-token';
let started: HttpDaemon;
let provider: GatedProvider;

beforeAll(async () => {
  provider = new GatedProvider({ gated: true });
  const root = exampleRoot(
    `http:\n  tokens:\n    - { user: alice, sha256: "${tokenSha256(TOKEN)}", role: operator }\n`,
  );
  started = await startHttpDaemon(root, provider);
});

afterAll(async () => {
  provider.release(100);
  await started?.daemon.stop();
  removeTempDirs();
});

const auth = { authorization: `Bearer ${TOKEN}` };

function directives(policy: string | null): Map<string, string[]> {
  return new Map(
    (policy ?? '').split(';').map((part) => {
      const [name, ...values] = part.trim().split(/\s+/);
      return [name, values];
    }),
  );
}

function sha256Source(text: string): string {
  return `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;
}

function expectHardened(headers: Headers): void {
  expect(headers.get('x-content-type-options')).toBe('nosniff');
  expect(headers.get('x-frame-options')).toBe('DENY');
  expect(headers.get('referrer-policy')).toBe('no-referrer');
  expect(headers.get('strict-transport-security')).toBeNull();
  const csp = directives(headers.get('content-security-policy'));
  expect(csp.get('default-src')).toEqual(["'none'"]);
  expect(csp.get('frame-ancestors')).toEqual(["'none'"]);
  expect(csp.get('base-uri')).toEqual(["'none'"]);
  expect(csp.get('form-action')).toEqual(["'self'"]);
  for (const name of ['script-src', 'style-src'])
    expect(csp.get(name)!.some((source) => /unsafe|\*|http/.test(source))).toBe(false);
}

describe('security headers', () => {
  it('allow exactly the inline script and style a live session page carries, by their hashes', async () => {
    const submitted = await postJson(`${started.url}/v1/requests`, { request: 'Summarize.' }, TOKEN);
    await provider.waitForCalls(1);
    await waitFor(
      'the session page',
      async () =>
        (await fetch(`${started.url}/ui/sessions/${submitted.body.session_id}`, { headers: auth })).status === 200,
    );
    const page = await fetch(`${started.url}/ui/sessions/${submitted.body.session_id}?sent=1`, { headers: auth });
    expectHardened(page.headers);
    const html = await page.text();
    const csp = directives(page.headers.get('content-security-policy'));
    const scripts = [...html.matchAll(/<script>([\s\S]*?)<\/script>/g)].map((match) => match[1]);
    const styles = [...html.matchAll(/<style>([\s\S]*?)<\/style>/g)].map((match) => match[1]);
    // The live-update script and the notice's focus, and the page's style: each allowed by its hash.
    expect(scripts).toHaveLength(2);
    expect(styles).toHaveLength(1);
    for (const script of scripts) expect(csp.get('script-src')).toContain(sha256Source(script));
    for (const style of styles) expect(csp.get('style-src')).toContain(sha256Source(style));
    expect(html).not.toMatch(/<script [^>]*src=|\son[a-z]+=|style="/);
    expect(csp.get('connect-src')).toEqual(["'self'"]);
  });

  it('are on the sign-in page, the API, its errors and its event streams', async () => {
    const urls: Array<[string, RequestInit, number]> = [
      ['/ui/login', {}, 200],
      ['/v1/sessions', { headers: auth }, 200],
      ['/v1/sessions', {}, 401],
      ['/v1/requests/none', { headers: auth }, 404],
      ['/healthz', {}, 200],
      ['/metrics', { headers: auth }, 200],
    ];
    for (const [path, init, status] of urls) {
      const response = await fetch(`${started.url}${path}`, { ...init, redirect: 'manual' });
      expect(response.status, path).toBe(status);
      expectHardened(response.headers);
      await response.arrayBuffer();
    }
    const submitted = await postJson(`${started.url}/v1/requests`, { request: 'Stream it.' }, TOKEN);
    const controller = new AbortController();
    const stream = await fetch(`${started.url}/v1/sessions/${submitted.body.session_id}/events`, {
      headers: auth,
      signal: controller.signal,
    });
    expect(stream.headers.get('content-type')).toContain('text/event-stream');
    expectHardened(stream.headers);
    controller.abort();
  });
});
