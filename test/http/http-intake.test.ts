/** HttpIntake on its own: the durable write into the inbox, duplicates, and crash repair. */
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { systemPaths } from '../../src/config/system-paths.js';
import { RequestIdRegistry } from '../../src/intake/request-id-registry.js';
import { HttpIntake } from '../../src/http/http-intake.js';
import { makeTempFolder, removeTempFolders } from '../support/temp-dirs.js';

afterEach(removeTempFolders);

function setUp() {
  const paths = systemPaths(makeTempFolder('govflow-http-intake-'));
  mkdirSync(paths.inbox, { recursive: true });
  const registry = new RequestIdRegistry(paths);
  const intake = new HttpIntake({ paths, registry, durable: true, maxBytes: 1024, timezone: 'UTC' });
  return { paths, registry, intake };
}

describe('HttpIntake', () => {
  it('writes the request with its user and session into the inbox, and refuses the id a second time', async () => {
    const { paths, intake } = setUp();
    const submitted = await intake.submit({ request: 'Summarize.', request_id: 'r-1', metadata: { a: 1 } }, 'alice');
    expect(readdirSync(paths.inbox)).toEqual(['http-r-1.json']);
    expect(JSON.parse(readFileSync(path.join(paths.inbox, 'http-r-1.json'), 'utf8'))).toEqual({
      request: 'Summarize.', request_id: 'r-1', session_id: submitted.sessionId, user: 'alice', metadata: { a: 1 },
    });
    expect(await intake.ownerOf('r-1')).toEqual({ user: 'alice', sessionId: submitted.sessionId });
    await expect(intake.submit({ request: 'again', request_id: 'r-1' }, 'bob')).rejects.toMatchObject({ status: 409 });
    await expect(intake.submit({ request: 'x'.repeat(2000) }, 'bob')).rejects.toMatchObject({ status: 400, message: expect.stringMatching(/max_bytes/) });
    expect(readdirSync(paths.inbox)).toEqual(['http-r-1.json']);
    expect(await intake.ownerOf('never')).toBeNull();
  });

  it('finishes a submission a crash cut after its id claim, and drops one that never claimed its id', async () => {
    const { paths, registry, intake } = setUp();
    const claimed = path.join(paths.inbox, '.http-cut-1.json.tmp');
    writeFileSync(claimed, JSON.stringify({ request: 'cut short', request_id: 'cut-1', user: 'alice' }));
    expect(await registry.claim('cut-1', claimed)).toBe('claimed');
    const unclaimed = path.join(paths.inbox, '.http-cut-2.json.tmp');
    writeFileSync(unclaimed, JSON.stringify({ request: 'never acknowledged', request_id: 'cut-2' }));
    expect(intake.repairInterrupted()).toBe(1);
    expect(readdirSync(paths.inbox)).toEqual(['http-cut-1.json']);
    expect(existsSync(unclaimed)).toBe(false);
    expect(await intake.ownerOf('cut-1')).toMatchObject({ user: 'alice' });
  });
});
