/**
 * Request folders at the intake (SPEC §22), in process over real folders: a folder settles as a
 * whole (a rename makes it ready at once, writes anywhere inside keep it waiting), what the reader
 * hands over (request, attachments hashed and typed, kept 0600), the limits counted on attachments
 * only, and the repair of an upload a crash cut between its id claim and its rename.
 */
import { existsSync, mkdirSync, readdirSync, renameSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { IntakeRequest } from '../../src/intake/claimed-file.js';
import { repairInterruptedFolders, stageFolder } from '../../src/intake/folder-submission.js';
import { readRequestFolder } from '../../src/intake/request-folder.js';
import { RequestIdRegistry } from '../../src/intake/request-id-registry.js';
import { folderSighting, settleVerdict } from '../../src/intake/settle-check.js';
import { sha256 } from '../daemon/attachments-support.js';
import { cleanUp, makeIntake, makeRoot, sleep, waitUntil } from './intake-fixtures.js';

afterEach(cleanUp);

const LIMITS = { max_files: 3, max_bytes: 1000 };

function tree(folder: string, files: Record<string, string>): void {
  for (const [relative, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(folder, relative)), { recursive: true });
    writeFileSync(path.join(folder, relative), text);
  }
}

describe('a folder as one sighting', () => {
  it('is ready at once when renamed in after its last write, and waits while anything inside changes', async () => {
    const { root } = makeRoot();
    const folder = path.join(root, 'built');
    tree(folder, { 'request.txt': 'go', 'deep/er/scan.bin': 'abc' });
    const old = new Date(Date.now() - 60_000);
    for (const file of ['request.txt', 'deep/er/scan.bin', 'deep/er', 'deep', '.'])
      utimesSync(path.join(folder, file), old, old);
    renameSync(folder, path.join(root, 'moved'));
    const moved = folderSighting(path.join(root, 'moved'), 100);
    expect(moved.size).toBe(5n);
    expect(moved.ctimeNs > moved.mtimeNs).toBe(true);
    expect(settleVerdict({ sighting: moved, nowMs: Date.now(), settleMs: 60_000, arrivedWhole: false })).toMatchObject({
      ready: true,
    });

    // A write three folders down moves the folder's newest mtime: not ready until it holds still.
    writeFileSync(path.join(root, 'moved', 'deep', 'er', 'scan.bin'), 'abcdef');
    const written = folderSighting(path.join(root, 'moved'), 100);
    expect(written.size).toBe(8n);
    expect(written.mtimeNs > moved.mtimeNs).toBe(true);
    const verdict = settleVerdict({ sighting: written, nowMs: Date.now(), settleMs: 60_000, arrivedWhole: false });
    expect(verdict.ready).toBe(false);
  });

  it('lets the intake take a folder written in place only once it stops changing', async () => {
    const { paths } = makeRoot();
    // The writer's pace (150 ms) a tenth of the settle time: a loaded machine cannot stretch it into a settled folder.
    const { intake, recorded } = makeIntake(paths, { settleMs: 1_500, attachments: LIMITS });
    await intake.start();
    const folder = path.join(paths.inbox, 'in-place');
    mkdirSync(folder);
    writeFileSync(path.join(folder, 'request.txt'), 'Summarise the scan.');
    for (let index = 0; index < 6; index++) {
      writeFileSync(path.join(folder, 'scan.txt'), 'x'.repeat(index + 1), { flag: 'a' });
      await sleep(150); // the writer's pace, not a wait for the intake
      expect(recorded.items, `taken after write ${index + 1}`).toHaveLength(0);
    }
    await waitUntil(() => recorded.items.length === 1, 'the folder');
    const item = recorded.items[0] as IntakeRequest;
    expect(item.attachments?.files).toEqual([
      { path: 'scan.txt', sha256: sha256('x'.repeat(21)), bytes: 21, type: 'text/plain' },
    ]);
    expect(item.text).toBe('Summarise the scan.');
    expect(item.sourceFile).toBe('in-place');
    expect(statSync(path.join(item.claimedPath, 'scan.txt')).mode & 0o777).toBe(0o600);
  });
});

describe('readRequestFolder', () => {
  it('counts attachments only against the limits, in subfolders too, and finds the request file by name in any case', async () => {
    const { root } = makeRoot();
    tree(root, { 'REQUEST.TXT': 'r'.repeat(5000), 'a.txt': 'a'.repeat(400), 'b/c.txt': 'c'.repeat(600), 'b/d.md': '' });
    const read = await readRequestFolder(root, LIMITS);
    expect(read).toMatchObject({ kind: 'folder', requestFile: 'REQUEST.TXT' });
    expect(read.kind === 'folder' && read.attachments.map((file) => [file.path, file.bytes, file.type])).toEqual([
      ['a.txt', 400, 'text/plain'],
      ['b/c.txt', 600, 'text/plain'],
      ['b/d.md', 0, 'text/markdown'],
    ]);
    writeFileSync(path.join(root, 'b', 'e.txt'), '1');
    expect(await readRequestFolder(root, LIMITS)).toMatchObject({
      reason: expect.stringMatching(/more than 3 attachments/),
    });
    expect(await readRequestFolder(root, { max_files: 10, max_bytes: 1000 })).toMatchObject({
      reason: expect.stringMatching(/over 1000 bytes in all/),
    });
  });

  it('refuses a folder nested deeper than 16 levels', async () => {
    const { root } = makeRoot();
    const deep = Array.from({ length: 18 }, (_, index) => `d${index}`).join('/');
    tree(root, { 'request.md': 'r', [`${deep}/x.txt`]: 'x' });
    expect(await readRequestFolder(root, LIMITS)).toMatchObject({
      reason: expect.stringMatching(/nested deeper than 16/),
    });
  });
});

describe('repairInterruptedFolders', () => {
  it('finishes an upload whose request file owns its id, and removes one that never claimed it', async () => {
    const { paths } = makeRoot();
    const registry = new RequestIdRegistry(paths, { durable: false });
    const owned = stageFolder(paths);
    tree(owned.folder, { 'request.json': JSON.stringify({ request: 'x', request_id: 'up-1' }), 'a.pdf': 'pdf' });
    expect(await registry.claim('up-1', path.join(owned.folder, 'request.json'))).toBe('claimed');
    const orphan = stageFolder(paths);
    tree(orphan.folder, { 'request.json': JSON.stringify({ request: 'y', request_id: 'up-2' }) });
    expect(repairInterruptedFolders(paths, registry)).toBe(1);
    const names = readdirSync(paths.processing);
    expect(names).toHaveLength(1);
    expect(names[0]).toMatch(/^\d+-[0-9a-z]{6}-http-up-1$/);
    expect(existsSync(path.join(paths.processing, names[0], 'a.pdf'))).toBe(true);
    expect(existsSync(orphan.folder)).toBe(false);
  });
});
