/**
 * Holding the line across a cluster (SPEC §15, §20): three daemons behind one imaginary load
 * balancer give one user's token `per_user_per_minute` calls in all, not three times that, and an
 * address's failed tokens count on every daemon, so its lockout holds on the ones it never tried.
 */
import { request as httpRequest } from 'node:http';
import { describe, expect, it } from 'vitest';
import { tokenSha256 } from '../../src/http/http-auth.js';
import { Cluster, clusterForTests } from '../support/cluster.js';
import { pgTestSchema } from '../support/postgres.js';

const pg = await pgTestSchema('cluster_rate');
const ALICE = 'alice-token-cluster-rate';
const BOB = 'bob-token-cluster-rate';
const PER_USER = 6;
const FAILURES = 3;

interface Answer {
  status: number;
  retryAfter: number;
  body: { error?: { code: string; message: string } } | null;
}

/** One GET from a chosen local address (127.0.0.x), so a test can be several clients. */
function call(url: string, route: string, token: string, from = '127.0.0.1'): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const outgoing = httpRequest(
      `${url}${route}`,
      { localAddress: from, headers: { authorization: `Bearer ${token}` } },
      (incoming) => {
        let text = '';
        incoming.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
        incoming.on('end', () =>
          resolve({
            status: incoming.statusCode!,
            retryAfter: Number(incoming.headers['retry-after']),
            body: text ? (JSON.parse(text) as Answer['body']) : null,
          }),
        );
      },
    );
    outgoing.on('error', reject);
    outgoing.end();
  });
}

describe.skipIf(!pg)('cluster mode: rate limits counted across daemons', () => {
  let cluster: Cluster;

  clusterForTests(
    pg,
    {
      nodes: 3,
      extraConfig: [
        'http:',
        '  listen: "127.0.0.1:0"',
        `  tokens: [{ user: alice, sha256: "${tokenSha256(ALICE)}" }, { user: bob, sha256: "${tokenSha256(BOB)}" }]`,
        `  rate_limit: { per_user_per_minute: ${PER_USER}, auth_failures_per_minute: ${FAILURES} }`,
      ].join('\n'),
    },
    async (created) => {
      cluster = created;
      await cluster.startAll();
    },
  );

  it('gives one user per_user_per_minute calls in all, round-robin over three daemons', async () => {
    const urls = cluster.nodes.map((node) => node.httpUrl);
    const answers: Answer[] = [];
    for (let index = 0; index < 3 * PER_USER; index += 1)
      answers.push(await call(urls[index % urls.length], '/readyz', ALICE));
    const statuses = answers.map((answer) => answer.status);
    expect(statuses.filter((status) => status === 200)).toHaveLength(PER_USER);
    expect(statuses.slice(0, PER_USER)).toEqual(Array(PER_USER).fill(200));
    const limited = answers[PER_USER];
    expect(limited.status).toBe(429);
    expect(limited.retryAfter >= 1 && limited.retryAfter <= 60, `Retry-After ${limited.retryAfter}`).toBe(true);
    expect(limited.body?.error?.message).toContain('per_user_per_minute');
    // Another user is not held, on any daemon.
    for (const url of urls) expect((await call(url, '/readyz', BOB)).status).toBe(200);
  });

  it('holds an address past auth_failures_per_minute failed tokens on every daemon, a right token included', async () => {
    const urls = cluster.nodes.map((node) => node.httpUrl);
    const guesser = '127.0.0.2';
    // One wrong guess on each daemon: none of them saw the limit's worth alone.
    for (const url of urls) expect((await call(url, '/readyz', 'wrong-guess', guesser)).status).toBe(401);
    for (const url of urls) {
      const held = await call(url, '/readyz', BOB, guesser);
      expect(held.status, 'a right token from the guessing address').toBe(429);
      expect(held.retryAfter >= 1 && held.retryAfter <= 60).toBe(true);
      expect(held.body?.error?.message).toContain('auth_failures_per_minute');
    }
    expect((await call(urls[2], '/readyz', BOB, '127.0.0.3')).status, 'another address').toBe(200);
  });
});
