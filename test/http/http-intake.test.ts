/**
 * HttpIntake with a real InboxIntake behind it: a POSTed request is made durable as a claim in
 * system/processing/ (never an inbox file), a duplicate id is refused, and a submission a crash
 * cut between its id claim and its rename is finished at the next start.
 */
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { systemPaths } from '../../src/config/system-paths.js';
import { originalNameOf } from '../../src/intake/claim-name.js';
import type { IntakeItem } from '../../src/intake/claimed-file.js';
import { InboxIntake } from '../../src/intake/inbox-intake.js';
import { RequestIdRegistry } from '../../src/intake/request-id-registry.js';
import { repairInterruptedSubmissions } from '../../src/intake/request-submission.js';
import { HttpIntake } from '../../src/http/http-intake.js';
import { parseRequestFile } from '../../src/intake/request-file.js';
import { makeTempFolder, removeTempFolders } from '../support/temp-dirs.js';

const intakes: InboxIntake[] = [];
afterEach(async () => {
  await Promise.all(intakes.splice(0).map((intake) => intake.stop()));
  removeTempFolders();
});

/** Names in a folder but the hidden ones (temp files). */
function visible(folder: string): string[] {
  return readdirSync(folder).filter((name) => !name.startsWith('.'));
}

function setUp(maxBytes = 1024) {
  const paths = systemPaths(makeTempFolder('govflow-http-intake-'));
  mkdirSync(paths.processing, { recursive: true });
  const registry = new RequestIdRegistry(paths);
  const handled: IntakeItem[] = [];
  let release!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  const inbox = new InboxIntake({
    paths,
    registry,
    maxBytes,
    settleMs: 100,
    rescanIntervalMs: 60_000,
    concurrency: 1,
    timezone: 'UTC',
    watch: false,
    handle: async (item) => {
      handled.push(item);
      await gate;
    },
  });
  intakes.push(inbox);
  const intake = new HttpIntake({
    submit: (submission) => inbox.submit(submission),
    registry,
    maxBytes,
    timezone: 'UTC',
  });
  return { paths, registry, intake, inbox, handled, release };
}

describe('HttpIntake', () => {
  it("reads a request's owner from a request file longer than the first read of its marker", async () => {
    const { intake, inbox, release } = setUp(64 * 1024);
    await inbox.start();
    const submitted = await intake.submit({ request: 'long '.repeat(4000), request_id: 'r-long' }, 'carol');
    expect(await intake.ownerOf('r-long')).toEqual({ user: 'carol', sessionId: submitted.sessionId });
    release();
  });

  it('makes the request a durable claim with its user and session, hands it over without the inbox, and refuses the id a second time', async () => {
    const { paths, intake, inbox, handled, release } = setUp();
    await inbox.start();
    const submitted = await intake.submit({ request: 'Summarize.', request_id: 'r-1', metadata: { a: 1 } }, 'alice');
    // The claim is there, under the inbox-style name, before the handler even ran.
    const [claim] = visible(paths.processing);
    expect(originalNameOf(claim)).toBe('http-r-1.json');
    expect(JSON.parse(readFileSync(path.join(paths.processing, claim), 'utf8'))).toEqual({
      request: 'Summarize.',
      request_id: 'r-1',
      session_id: submitted.sessionId,
      user: 'alice',
      metadata: { a: 1 },
    });
    expect(readdirSync(paths.inbox)).toEqual([]);
    await expect.poll(() => handled.length).toBe(1);
    expect(handled[0]).toMatchObject({
      kind: 'request',
      requestId: 'r-1',
      user: 'alice',
      sourceFile: 'http-r-1.json',
      claimedPath: path.join(paths.processing, claim),
    });
    expect(await intake.ownerOf('r-1')).toEqual({ user: 'alice', sessionId: submitted.sessionId });
    await expect(intake.submit({ request: 'again', request_id: 'r-1' }, 'bob')).rejects.toMatchObject({ status: 409 });
    await expect(intake.submit({ request: 'x'.repeat(2000) }, 'bob')).rejects.toMatchObject({
      status: 400,
      message: expect.stringMatching(/max_bytes/),
    });
    expect(visible(paths.processing)).toEqual([claim]);
    expect(await intake.ownerOf('never')).toBeNull();
    release();
  });

  it('judges a body as the inbox judges the same JSON file: refused by both, for the same reason', async () => {
    const { intake } = setUp();
    const bodies = [
      { request: 'x', priority: 'high' },
      { request: 'x', request_id: '../etc' },
      { request: 'x', metadata: [1] },
      { request: '   ' },
      { metadata: {} },
    ];
    for (const body of bodies) {
      const file = parseRequestFile('r.json', Buffer.from(JSON.stringify(body)), 1024);
      expect(file.kind, JSON.stringify(body)).toBe('invalid');
      const reason = (file as { reason: string }).reason;
      const refused = await intake.submit(body, 'alice').then(
        () => null,
        (error: unknown) => error as { status: number; message: string },
      );
      expect({ body, status: refused?.status }).toEqual({ body, status: 400 });
      // The same reason up to the list of fields (a client over HTTP may not name the user or session).
      expect(refused!.message.split(':')[0]).toBe(reason.split(':')[0]);
    }
  });

  it('runs a submission made before the intake started once it starts, and queues later ones behind the running one', async () => {
    const { paths, intake, inbox, handled, release } = setUp();
    await intake.submit({ request: 'early', request_id: 'early-1' }, 'alice');
    expect(readdirSync(paths.processing).map(originalNameOf)).toEqual(['http-early-1.json']);
    await inbox.start();
    await intake.submit({ request: 'second', request_id: 'r-2' }, 'alice');
    await expect.poll(() => handled.length).toBe(1);
    expect(inbox.queued).toBe(1);
    release();
    await inbox.idle();
    expect(handled.map((item) => (item.kind === 'request' ? item.requestId : null))).toEqual(['early-1', 'r-2']);
  });

  it('makes system/processing/ again when it was removed under the daemon, and leaves no temp file', async () => {
    const { paths, intake, inbox, handled, release } = setUp();
    await inbox.start();
    rmSync(paths.processing, { recursive: true });
    await intake.submit({ request: 'third', request_id: 's-3' }, 'alice');
    expect(readdirSync(paths.processing).map(originalNameOf)).toEqual(['http-s-3.json']);
    await expect.poll(() => handled.length).toBe(1);
    release();
  });

  it(
    'finishes submissions a crash cut after their id claim (in a named temp file, or an unnamed one as earlier versions left), and drops ' +
      'temp files that never claimed an id',
    async () => {
      const { paths, registry, intake } = setUp();
      const cut = async (name: string, document: unknown, requestId?: string) => {
        const file = path.join(paths.processing, name);
        writeFileSync(file, document === '' ? '' : JSON.stringify(document));
        return requestId ? registry.claim(requestId, file) : null;
      };
      expect(
        await cut(
          '.submit-1700000000000-abcdef-http-cut-1.json.tmp',
          { request: 'cut short', request_id: 'cut-1', user: 'alice' },
          'cut-1',
        ),
      ).toBe('claimed');
      expect(
        await cut(
          '.submit-spare-abc123.tmp',
          { request: 'cut short in a spare', request_id: 'cut-3', user: 'bob' },
          'cut-3',
        ),
      ).toBe('claimed');
      await cut('.submit-1700000000001-abcdef-http-cut-2.json.tmp', {
        request: 'never acknowledged',
        request_id: 'cut-2',
      });
      await cut('.submit-spare-def456.tmp', '');
      expect(repairInterruptedSubmissions(paths, registry, 1024)).toBe(2);
      const names = readdirSync(paths.processing);
      expect(names).toContain('1700000000000-abcdef-http-cut-1.json');
      // An unnamed temp file's claim is named as an HTTP submission of its id is.
      expect(names.map(originalNameOf).sort()).toEqual(['http-cut-1.json', 'http-cut-3.json']);
      expect(await intake.ownerOf('cut-1')).toMatchObject({ user: 'alice' });
      expect(await intake.ownerOf('cut-3')).toMatchObject({ user: 'bob' });
    },
  );
});
