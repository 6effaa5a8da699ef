/**
 * The http_get{url} tool (README "Give an agent tools"): only hosts in `allow_hosts`, checked again
 * after resolution (the connection uses the checked address, so a rebinding DNS cannot answer
 * twice; a private or loopback address must be listed itself) and on each redirect, followed by hand.
 */
import { lookup } from 'node:dns/promises';
import http from 'node:http';
import https from 'node:https';
import { isIP } from 'node:net';
import { ToolCallError, stringField, type Tool } from './tool-contract.js';

export interface HttpGetLimits {
  allow_hosts: readonly string[];
  max_bytes: number;
  timeout_ms: number;
  max_redirects: number;
}

/** True when `host` (lower case) is allowed: listed exactly, or under a listed `*.domain`. */
export function hostAllowed(allowHosts: readonly string[], host: string): boolean {
  const bare = host.replace(/^\[|\]$/g, '').toLowerCase();
  return allowHosts.some((allowed) => {
    const entry = allowed.toLowerCase();
    if (entry.startsWith('*.')) return bare.endsWith(entry.slice(1)) && bare.length > entry.length - 1;
    return entry === bare;
  });
}

/** Loopback, private (RFC 1918, ULA), link-local, CGNAT and unspecified addresses. */
export function isInternalAddress(address: string): boolean {
  if (isIP(address) === 4) {
    const [a, b] = address.split('.').map(Number);
    return (
      a === 127 ||
      a === 10 ||
      a === 0 ||
      (a === 172 && b >= 16 && b <= 31) ||
      (a === 192 && b === 168) ||
      (a === 169 && b === 254) ||
      (a === 100 && b >= 64 && b <= 127)
    );
  }
  const lower = address.toLowerCase();
  if (lower.startsWith('::ffff:')) return isInternalAddress(lower.slice(7));
  return (
    lower === '::1' || lower === '::' || lower.startsWith('fc') || lower.startsWith('fd') || lower.startsWith('fe80')
  );
}

/** The address to connect to for `url`, after every allow-list check. */
async function checkedAddress(url: URL, limits: HttpGetLimits): Promise<{ address: string; family: number }> {
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new ToolCallError(`http_get: "${url.protocol}" URLs are not fetched; use http:// or https://`);
  }
  if (url.username || url.password) throw new ToolCallError('http_get: URLs with credentials are refused');
  const host = url.hostname.replace(/^\[|\]$/g, '').toLowerCase();
  if (!hostAllowed(limits.allow_hosts, host)) {
    const allowed =
      limits.allow_hosts.length > 0
        ? `allowed hosts: ${limits.allow_hosts.join(', ')}`
        : 'no host is allowed (tools.http_get.allow_hosts is empty)';
    throw new ToolCallError(`http_get: host "${host}" is not in tools.http_get.allow_hosts (${allowed})`);
  }
  if (isIP(host)) return { address: host, family: isIP(host) };
  let resolved: { address: string; family: number };
  try {
    resolved = await lookup(host);
  } catch (error) {
    throw new ToolCallError(`http_get: cannot resolve "${host}": ${(error as Error).message}`);
  }
  if (isInternalAddress(resolved.address) && !hostAllowed(limits.allow_hosts, resolved.address)) {
    throw new ToolCallError(
      `http_get: "${host}" resolves to the internal address ${resolved.address}, which is not itself in tools.http_get.allow_hosts; list the ` +
        `address too if this is intended`,
    );
  }
  return resolved;
}

interface Fetched {
  status: number;
  location: string | null;
  contentType: string | null;
  body: Buffer;
}

function fetchOnce(
  url: URL,
  target: { address: string; family: number },
  limits: HttpGetLimits,
  signal: AbortSignal,
): Promise<Fetched> {
  return new Promise((resolve, reject) => {
    const client = url.protocol === 'https:' ? https : http;
    const request = client.request(
      url,
      {
        method: 'GET',
        signal,
        headers: { 'user-agent': 'govflow-http_get', accept: '*/*', 'accept-encoding': 'identity' },
        // Pin the connection to the checked address; TLS still verifies the certificate against the name.
        lookup: (_hostname, options, callback) => {
          if ((options as { all?: boolean }).all)
            (callback as unknown as (error: null, addresses: Array<{ address: string; family: number }>) => void)(
              null,
              [target],
            );
          else
            (callback as (error: null, address: string, family: number) => void)(null, target.address, target.family);
        },
      },
      (response) => {
        const status = response.statusCode ?? 0;
        const location = typeof response.headers.location === 'string' ? response.headers.location : null;
        const contentType = response.headers['content-type'] ?? null;
        if (status >= 300 && status < 400 && location) {
          response.resume();
          resolve({ status, location, contentType, body: Buffer.alloc(0) });
          return;
        }
        const declared = Number(response.headers['content-length']);
        if (Number.isFinite(declared) && declared > limits.max_bytes) {
          response.destroy();
          reject(
            new ToolCallError(
              `http_get: the response has ${declared} bytes, over the limit of ${limits.max_bytes} (tools.http_get.max_bytes)`,
            ),
          );
          return;
        }
        const chunks: Buffer[] = [];
        let total = 0;
        response.on('data', (chunk: Buffer) => {
          total += chunk.length;
          if (total > limits.max_bytes) {
            response.destroy();
            reject(
              new ToolCallError(
                `http_get: the response is over the limit of ${limits.max_bytes} bytes (tools.http_get.max_bytes)`,
              ),
            );
            return;
          }
          chunks.push(chunk);
        });
        response.on('end', () => resolve({ status, location, contentType, body: Buffer.concat(chunks) }));
        response.on('error', reject);
      },
    );
    request.on('error', reject);
    request.end();
  });
}

export function httpGetTool(limits: HttpGetLimits): Tool {
  return {
    name: 'http_get',
    description: `Fetches a URL with HTTP GET and returns the status line, content type and body (hosts allowed: ${limits.allow_hosts.join(', ') || 'none'}).`,
    inputSchema: {
      type: 'object',
      properties: { url: { type: 'string', description: 'An http:// or https:// URL on an allowed host.' } },
      required: ['url'],
      additionalProperties: false,
    },
    async call(input, context) {
      const raw = stringField(input, 'url', 'http_get')!;
      let url: URL;
      try {
        url = new URL(raw);
      } catch {
        throw new ToolCallError(`http_get: "${raw}" is not a URL; give an absolute http:// or https:// URL`);
      }
      const timeout = AbortSignal.timeout(limits.timeout_ms);
      const signal = AbortSignal.any([context.signal, timeout]);
      try {
        for (let redirects = 0; ; redirects++) {
          const target = await checkedAddress(url, limits);
          const fetched = await fetchOnce(url, target, limits, signal);
          if (fetched.location !== null) {
            if (redirects >= limits.max_redirects)
              throw new ToolCallError(
                `http_get: more than ${limits.max_redirects} redirects (tools.http_get.max_redirects)`,
              );
            url = new URL(fetched.location, url);
            continue;
          }
          const text = fetched.body.toString('utf8');
          return {
            output: `HTTP ${fetched.status}\ncontent-type: ${fetched.contentType ?? 'unknown'}\nurl: ${url.href}\n\n${text}`,
            isError: fetched.status >= 400,
          };
        }
      } catch (error) {
        if (error instanceof ToolCallError) throw error;
        if (timeout.aborted)
          throw new ToolCallError(
            `http_get: no complete answer within ${limits.timeout_ms} ms (tools.http_get.timeout_ms)`,
          );
        if (context.signal.aborted) throw error;
        throw new ToolCallError(`http_get: ${url.href}: ${(error as Error).message}`);
      }
    },
  };
}
