/**
 * A store unreachable at start (SPEC §15): `govflow start` exits 2 within 30 s, naming host and
 * port, and never prints the credentials in the URL — whether nothing listens there (refused) or
 * something accepts the connection and never answers (a black hole). Needs no Postgres server.
 */
import net from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildDistOnce } from '../daemon/build-once.js';
import {
  cleanupAll,
  exampleScript,
  makeRoot,
  scriptedConfig,
  spawnCli,
  writeScript,
} from '../daemon/daemon-helpers.js';

const PASSWORD = 's3cret-Pa55word';
const USER = 'gfuser';

async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

function rootFor(port: number): string {
  const root = makeRoot(
    scriptedConfig(
      `store: { kind: postgres, url: "postgres://${USER}:${PASSWORD}@127.0.0.1:${port}/test", schema: govflow }\n`,
    ),
    'govflow-unreachable-',
  );
  writeScript(root, exampleScript());
  return root;
}

describe('cluster mode: a store unreachable at start', () => {
  const blackHoleSockets = new Set<net.Socket>();
  const blackHole = net.createServer((socket) => {
    blackHoleSockets.add(socket);
    socket.on('error', () => {});
    socket.on('close', () => blackHoleSockets.delete(socket));
  });

  beforeAll(async () => {
    await buildDistOnce();
    await new Promise<void>((resolve) => blackHole.listen(0, '127.0.0.1', resolve));
  }, 180_000);

  afterAll(async () => {
    for (const socket of blackHoleSockets) socket.destroy();
    await new Promise<void>((resolve) => blackHole.close(() => resolve()));
    await cleanupAll();
  });

  it.each([
    ['nothing listens (connection refused)', freePort],
    ['the server accepts and never answers', () => Promise.resolve((blackHole.address() as net.AddressInfo).port)],
  ])(
    'exits 2 within 30 s naming host and port when %s',
    async (_case, port) => {
      const target = await port();
      const root = rootFor(target);
      const startedAt = Date.now();
      const daemon = spawnCli(root, ['start', '--root', root]); // no ready line to wait for: there must be none
      // A deadline for the exit, not a sleep: the race ends as soon as the daemon exits.
      const outcome = await Promise.race([daemon.exited, sleep(35_000).then(() => null)]);
      const elapsed = Date.now() - startedAt;
      if (outcome === null) await daemon.kill9();
      const output = `${daemon.stdout}${daemon.stderr}`;
      expect(outcome, `govflow start still running after ${elapsed} ms; output:\n${output}`).not.toBeNull();
      expect(outcome!.code, `exit code (after ${elapsed} ms); output:\n${output}`).toBe(2);
      expect(elapsed, 'seconds to give up').toBeLessThan(30_000);
      expect(output).toContain('127.0.0.1');
      expect(output).toContain(String(target));
      expect(output, 'the password of the store URL was printed').not.toContain(PASSWORD);
      expect(output).not.toMatch(/govflow ready/);
    },
    60_000,
  );
});
