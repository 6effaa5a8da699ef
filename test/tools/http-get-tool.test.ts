/** http_get against real loopback servers: allow-list, redirects re-checked, size and time limits. */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { hostAllowed, httpGetTool, isInternalAddress, type HttpGetLimits } from '../../src/tools/http-get-tool.js';
import { ToolCallError, type ToolCallContext } from '../../src/tools/tool-contract.js';

const servers: http.Server[] = [];
afterEach(async () => {
  await Promise.all(
    servers.splice(0).map(
      (server) =>
        new Promise((resolve) => {
          server.closeAllConnections();
          server.close(resolve);
        }),
    ),
  );
});

async function serve(handler: http.RequestListener): Promise<number> {
  const server = http.createServer(handler);
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
}

const context: ToolCallContext = {
  sessionId: 'sess-1',
  workspace: '/nonexistent',
  signal: new AbortController().signal,
};

function tool(overrides: Partial<HttpGetLimits> = {}) {
  return httpGetTool({ allow_hosts: ['127.0.0.1'], max_bytes: 1000, timeout_ms: 2000, max_redirects: 3, ...overrides });
}

async function refusal(promise: Promise<unknown>): Promise<string> {
  const error = await promise.then(
    () => null,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(ToolCallError);
  return (error as Error).message;
}

describe('http_get', () => {
  it('fetches from an allowed host', async () => {
    const port = await serve((request, response) => {
      response.setHeader('content-type', 'text/plain');
      response.end(`hello from ${request.url}`);
    });
    const outcome = await tool().call({ url: `http://127.0.0.1:${port}/page` }, context);
    expect(outcome.isError).toBe(false);
    expect(outcome.output).toBe(
      `HTTP 200\ncontent-type: text/plain\nurl: http://127.0.0.1:${port}/page\n\nhello from /page`,
    );
  });

  it('reports 4xx/5xx as an error result with the body', async () => {
    const port = await serve((_request, response) => {
      response.statusCode = 404;
      response.end('nope');
    });
    const outcome = await tool().call({ url: `http://127.0.0.1:${port}/` }, context);
    expect(outcome).toMatchObject({ isError: true });
    expect(outcome.output).toMatch(/^HTTP 404[\s\S]*nope$/);
  });

  it('refuses hosts not allowed, and says which are', async () => {
    expect(await refusal(tool().call({ url: 'http://example.com/' }, context))).toMatch(
      /host "example\.com" is not in tools\.http_get\.allow_hosts \(allowed hosts: 127\.0\.0\.1\)/,
    );
    expect(await refusal(tool({ allow_hosts: [] }).call({ url: 'http://127.0.0.1:1/' }, context))).toMatch(
      /no host is allowed/,
    );
    expect(await refusal(tool().call({ url: 'file:///etc/passwd' }, context))).toMatch(/"file:" URLs are not fetched/);
    expect(await refusal(tool().call({ url: 'not a url' }, context))).toMatch(/is not a URL/);
  });

  it('checks every redirect against the allow-list (followed by hand)', async () => {
    let reachedForbidden = false;
    const forbidden = await serve((_request, response) => {
      reachedForbidden = true;
      response.end('should never be read');
    });
    const port = await serve((request, response) => {
      if (request.url === '/hop') {
        response.statusCode = 302;
        response.setHeader('location', '/final');
        response.end();
      } else if (request.url === '/out') {
        response.statusCode = 302;
        response.setHeader('location', `http://localhost:${forbidden}/`);
        response.end();
      } else response.end('arrived');
    });
    expect((await tool().call({ url: `http://127.0.0.1:${port}/hop` }, context)).output).toMatch(
      /url: http:\/\/127\.0\.0\.1:\d+\/final\n\narrived$/,
    );
    expect(await refusal(tool().call({ url: `http://127.0.0.1:${port}/out` }, context))).toMatch(
      /host "localhost" is not in tools\.http_get\.allow_hosts/,
    );
    expect(reachedForbidden).toBe(false);
  });

  it('stops after max_redirects', async () => {
    const port = await serve((_request, response) => {
      response.statusCode = 301;
      response.setHeader('location', '/again');
      response.end();
    });
    expect(await refusal(tool({ max_redirects: 2 }).call({ url: `http://127.0.0.1:${port}/` }, context))).toMatch(
      /more than 2 redirects/,
    );
  });

  it('checks the resolved address: an allowed name resolving to loopback needs the address listed too', async () => {
    const port = await serve((_request, response) => response.end('local'));
    expect(
      await refusal(tool({ allow_hosts: ['localhost'] }).call({ url: `http://localhost:${port}/` }, context)),
    ).toMatch(
      /"localhost" resolves to the internal address (127\.0\.0\.1|::1), which is not itself in tools\.http_get\.allow_hosts/,
    );
    const outcome = await tool({ allow_hosts: ['localhost', '127.0.0.1', '::1'] }).call(
      { url: `http://localhost:${port}/` },
      context,
    );
    expect(outcome.output).toMatch(/local$/);
  });

  it('enforces the size limit, declared or streamed', async () => {
    const port = await serve((request, response) => {
      if (request.url === '/declared') response.end('x'.repeat(2000));
      else {
        response.write('y'.repeat(600));
        response.end('y'.repeat(600));
      }
    });
    expect(await refusal(tool().call({ url: `http://127.0.0.1:${port}/declared` }, context))).toMatch(
      /2000 bytes, over the limit of 1000/,
    );
    expect(await refusal(tool().call({ url: `http://127.0.0.1:${port}/streamed` }, context))).toMatch(
      /over the limit of 1000 bytes/,
    );
  });

  it('enforces the time limit', async () => {
    const port = await serve((_request, response) => {
      response.write('slow');
    });
    expect(await refusal(tool({ timeout_ms: 200 }).call({ url: `http://127.0.0.1:${port}/` }, context))).toMatch(
      /no complete answer within 200 ms/,
    );
  });

  it('matches hosts exactly or by *.domain, and knows internal addresses', () => {
    expect(hostAllowed(['*.example.com'], 'api.example.com')).toBe(true);
    expect(hostAllowed(['*.example.com'], 'example.com')).toBe(false);
    expect(hostAllowed(['*.example.com'], 'evilexample.com')).toBe(false);
    expect(hostAllowed(['Example.com'], 'example.com')).toBe(true);
    for (const address of [
      '127.0.0.1',
      '10.1.2.3',
      '172.16.0.1',
      '192.168.1.1',
      '169.254.169.254',
      '::1',
      'fd00::1',
      '::ffff:127.0.0.1',
    ]) {
      expect(isInternalAddress(address), address).toBe(true);
    }
    expect(isInternalAddress('93.184.216.34')).toBe(false);
  });
});
