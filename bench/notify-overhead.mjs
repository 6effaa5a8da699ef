/**
 * What telling the world and holding the line cost (SPEC §20, issue 40): the daemon's CPU per
 * request with and without webhooks and rate limits, at 16 requests in flight over HTTP.
 *
 * A `govflow start` child process (the example app, six agents, the scripted model answering at
 * once, fsync on, intake.concurrency 16, one token) takes BENCH_NOTIFY_REQUESTS requests (default
 * 400) from 16 clients over kept-alive connections; a client sends its next request once its last
 * one's result is in the outbox (seen by a watcher in this process, so polling costs the daemon
 * nothing). Figure: the child's CPU time (user + system, from /proc/<pid>/stat) over the whole run,
 * divided by the requests, once with no `notify`/`rate_limit` keys and once with both:
 * `http.rate_limit` (limits high enough never to refuse) and one webhook endpoint (a receiver in
 * this process answering 204), measured until every event was delivered. BENCH_NOTIFY_ROUNDS rounds
 * (default 3), the two configurations alternating; figures are medians over rounds, "added" the
 * median of per-round differences. BENCH_NOTIFY_PARTS=webhooks (or rate_limit) turns on one alone.
 *
 * Target: webhooks and rate limits add ≤ 1 ms of CPU per request (a webhook is one signed POST and
 * one small durable file per session; a rate-limit check is a map lookup).
 */
import { spawn } from 'node:child_process';
import { createServer } from 'node:http';
import { watch, writeFileSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import {
  REPOSITORY_ROOT,
  cleanUpOnExit,
  envInteger,
  exampleAnswers,
  makeExampleRoot,
  processCpu,
  removeRoot,
  reportResult,
  requestText,
  round,
  sleep,
  summarize,
} from './bench-support.mjs';

const REQUESTS = envInteger('BENCH_NOTIFY_REQUESTS', 400);
const ROUNDS = envInteger('BENCH_NOTIFY_ROUNDS', 3);
const IN_FLIGHT = 16;
/** What the "with" runs turn on (BENCH_NOTIFY_PARTS=webhooks or rate_limit to see one alone). */
const PARTS = (process.env.BENCH_NOTIFY_PARTS ?? 'webhooks,rate_limit').split(',').map((part) => part.trim());
const WARM_UP = 32;
const TOKEN = 'bench-notify-token';
const SECRET = `whsec_${Buffer.from('govflow-bench-notify-secret').toString('base64')}`;
const roots = [];
cleanUpOnExit(roots);

/** A kept-alive connection sending each POST in one write (the client's cost stays small). */
async function connect(url) {
  const target = new URL(url);
  const socket = net.connect({ host: target.hostname, port: Number(target.port), noDelay: true });
  await new Promise((resolve, reject) => {
    socket.once('connect', resolve);
    socket.once('error', reject);
  });
  return (body) =>
    new Promise((resolve, reject) => {
      let text = '';
      const onData = (chunk) => {
        text += chunk.toString('latin1');
        const end = text.indexOf('\r\n\r\n');
        if (end === -1) return;
        const length = Number(/content-length: *(\d+)/i.exec(text.slice(0, end))?.[1] ?? 0);
        if (text.length < end + 4 + length) return;
        socket.off('data', onData);
        socket.off('error', reject);
        resolve(Number(text.slice(9, 12)));
      };
      socket.on('data', onData);
      socket.once('error', reject);
      socket.write(
        `POST /v1/requests HTTP/1.1\r\nHost: ${target.host}\r\nAuthorization: Bearer ${TOKEN}\r\nContent-Type: ` +
          `application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
      );
    });
}

/** A webhook receiver answering 204; `count()` is the deliveries so far. */
async function startReceiver() {
  let deliveries = 0;
  const server = createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      deliveries += 1;
      response.statusCode = 204;
      response.end();
    });
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${server.address().port}/hook`,
    count: () => deliveries,
    close: () => new Promise((resolve) => server.close(resolve)),
  };
}

async function startDaemon(root) {
  // BENCH_NOTIFY_PROFILE=DIR: a CPU profile of each daemon there (bench/cpu-profile-summary.mjs reads it).
  const profile = process.env.BENCH_NOTIFY_PROFILE
    ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_NOTIFY_PROFILE}`]
    : [];
  const bin = path.join(REPOSITORY_ROOT, 'bin', 'govflow.js');
  const child = spawn(process.execPath, [...profile, bin, 'start', '--root', root], {
    env: { ...process.env, HOOK_SECRET: SECRET },
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  let output = '';
  const url = await new Promise((resolve, reject) => {
    child.stdout.on('data', (chunk) => {
      output += chunk;
      const match = /HTTP API on (http:\/\/[^\s,)]+)/.exec(output);
      if (match) resolve(match[1]);
    });
    child.once('exit', (code) => reject(new Error(`govflow start exited (${code}) before it was ready`)));
  });
  return { child, url };
}

/** One run: a fresh root and daemon; resolves with the daemon's CPU ms per request. */
async function measure(script, notify, receiver, label) {
  const tokenHash = (await import('node:crypto')).createHash('sha256').update(TOKEN).digest('hex');
  const config = [
    'provider: { kind: scripted, script: script.json }',
    'intake: { concurrency: 16 }',
    'http:',
    '  listen: "127.0.0.1:0"',
    `  tokens: [{ user: bench, sha256: "${tokenHash}" }]`,
    ...(notify && PARTS.includes('rate_limit')
      ? ['  rate_limit: { per_user_per_minute: 1000000, auth_failures_per_minute: 1000 }']
      : []),
    ...(notify && PARTS.includes('webhooks')
      ? [
          'notify:',
          '  allow_private_targets: true',
          `  webhooks: [{ url: "${receiver.url}", secret_env: HOOK_SECRET }]`,
        ]
      : []),
    '',
  ].join('\n');
  const root = makeExampleRoot(config, 'govflow-bench-notify-');
  roots.push(root);
  writeFileSync(path.join(root, 'script.json'), script);
  const { child, url } = await startDaemon(root);
  const outbox = path.join(root, 'system', 'outbox');
  const waiting = new Map();
  const watcher = watch(outbox, (_event, name) => {
    if (!name?.endsWith('.json') || name.startsWith('.')) return;
    const id = name.slice(0, -'.json'.length);
    waiting.get(id)?.();
    waiting.delete(id);
  });
  const run = async (prefix, count) => {
    let next = 0;
    await Promise.all(
      Array.from({ length: IN_FLIGHT }, async () => {
        const post = await connect(url);
        while (next < count) {
          const id = `${prefix}-${next++}`;
          const done = new Promise((resolve) => waiting.set(id, resolve));
          const status = await post(JSON.stringify({ request: requestText(next), request_id: id }));
          if (status !== 202) throw new Error(`POST answered ${status}`);
          await done;
        }
      }),
    );
  };
  try {
    const deliveredBefore = receiver.count();
    await run(`${label}-warm`, WARM_UP);
    const hooks = notify && PARTS.includes('webhooks');
    if (hooks) while (receiver.count() - deliveredBefore < WARM_UP) await sleep(5);
    const before = processCpu(child.pid).total / 1000;
    const delivered = receiver.count();
    await run(label, REQUESTS);
    // Every event delivered: its CPU is part of the figure.
    if (hooks) while (receiver.count() - delivered < REQUESTS) await sleep(5);
    const after = processCpu(child.pid).total / 1000;
    return ((after - before) * 1000) / REQUESTS;
  } finally {
    watcher.close();
    child.kill('SIGTERM');
    await new Promise((resolve) => child.once('exit', resolve));
    removeRoot(root);
  }
}

const { answers } = await exampleAnswers();
const script = JSON.stringify({
  loop: true,
  responses: Object.fromEntries(Object.entries(answers).map(([agent, text]) => [agent, [text]])),
});
const receiver = await startReceiver();
const plain = [];
const notified = [];
const added = [];
for (let index = 0; index < ROUNDS; index++) {
  // Alternating which goes first, so both meet the same machine load.
  const order = index % 2 === 0 ? [false, true] : [true, false];
  const figures = {};
  for (const notify of order)
    figures[notify] = await measure(script, notify, receiver, `r${index}-${notify ? 'on' : 'off'}`);
  plain.push(figures.false);
  notified.push(figures.true);
  added.push(figures.true - figures.false);
  console.log(
    `round ${index + 1}: without ${round(figures.false, 2)} ms CPU/request, with webhooks + rate limits ${round(figures.true, 2)} ms (+` +
      `${round(figures.true - figures.false, 2)} ms)`,
  );
}
await receiver.close();
const without = summarize(plain).median;
const withBoth = summarize(notified).median;
const extra = summarize(added).median;
console.log(
  `daemon CPU per request at ${IN_FLIGHT} in flight (${REQUESTS} requests of the example app, 6 steps each, medians of ${ROUNDS} rounds): ` +
    `without ${round(without, 2)} ms, with webhooks + rate limits ${round(withBoth, 2)} ms; added ${round(extra, 2)} ms (` +
    `${round((extra / without) * 100, 1)} %)`,
);
reportResult({
  bench: 'notify-overhead',
  targets: [
    {
      name: 'CPU added per request by webhooks + rate limits (16 in flight)',
      target: '≤ 1 ms',
      value: round(extra, 2),
      unit: 'ms',
      pass: extra <= 1,
    },
  ],
  figures: { without_ms: round(without, 2), with_ms: round(withBoth, 2), added_ms: round(extra, 2) },
});
