import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { SpareEntries } from '../../src/store/spare-entries.js';
import { waitFor } from '../daemon/daemon-helpers.js';
import { makeTempFolder, removeTempFolders } from '../support/temp-dirs.js';

afterEach(removeTempFolders);

function until(condition: () => boolean, what: string): Promise<boolean> {
  return waitFor(what, condition, { timeoutMs: 5000, intervalMs: 5 });
}

describe('SpareEntries', () => {
  it('fills up in the background and hands out empty files and folders by moving them', async () => {
    const root = makeTempFolder('govflow-spare-');
    const spares = new SpareEntries(path.join(root, 'state'), { files: 3, folders: 2 });
    spares.start();
    await until(() => spares.ready.files === 3 && spares.ready.folders === 2, 'the first fill');
    const spareFolder = path.join(root, 'state', 'spare', String(process.pid));
    expect(readdirSync(spareFolder).filter((name) => name !== 'template')).toHaveLength(5);

    const session = path.join(root, 'sessions', 'sess-1');
    mkdirSync(path.dirname(session));
    expect(spares.placeFolder(session)).toBe(true);
    expect(spares.placeFile(path.join(session, 'journal.jsonl'))).toBe(true);
    expect(statSync(session).isDirectory()).toBe(true);
    expect(readFileSync(path.join(session, 'journal.jsonl'), 'utf8')).toBe('');
    expect(readdirSync(session)).toEqual(['journal.jsonl']);
    // Taken spares are made again.
    await until(() => spares.ready.files === 3 && spares.ready.folders === 2, 'the refill');
    await spares.close();
  });

  it('never replaces an existing file or folder', async () => {
    const root = makeTempFolder('govflow-spare-');
    const spares = new SpareEntries(path.join(root, 'state'), { files: 2, folders: 1 });
    spares.start();
    await until(() => spares.ready.files === 2 && spares.ready.folders === 1, 'the first fill');
    const folder = path.join(root, 'taken');
    mkdirSync(folder);
    writeFileSync(path.join(folder, 'journal.jsonl'), 'kept\n');
    expect(spares.placeFolder(folder)).toBe(false);
    expect(spares.placeFile(path.join(folder, 'journal.jsonl'))).toBe(false);
    expect(readFileSync(path.join(folder, 'journal.jsonl'), 'utf8')).toBe('kept\n');
    expect(spares.ready).toEqual({ files: 2, folders: 1 });
    await spares.close();
  });

  it('without spares, places nothing (the caller creates its entries)', async () => {
    const root = makeTempFolder('govflow-spare-');
    const spares = new SpareEntries(path.join(root, 'state'), { files: 0, folders: 0 });
    spares.start();
    const folder = path.join(root, 'a');
    expect(spares.placeFolder(folder)).toBe(false);
    expect(existsSync(folder)).toBe(false);
    mkdirSync(folder);
    expect(spares.placeFile(path.join(folder, 'file'))).toBe(false);
    expect(existsSync(path.join(folder, 'file'))).toBe(false);
    await spares.close();
  });

  it('adopts the spares a dead process left behind', async () => {
    const root = makeTempFolder('govflow-spare-');
    const state = path.join(root, 'state');
    const orphan = path.join(state, 'spare', '2147483646');
    mkdirSync(orphan, { recursive: true });
    writeFileSync(path.join(orphan, 'f-old-1'), '');
    mkdirSync(path.join(orphan, 'd-old-2'));
    const spares = new SpareEntries(state, { files: 1, folders: 1 });
    spares.start();
    expect(spares.ready).toEqual({ files: 1, folders: 1 });
    expect(existsSync(orphan)).toBe(false);
    expect(readdirSync(path.join(state, 'spare', String(process.pid))).sort()).toEqual(['d-old-2', 'f-old-1']);
    await spares.close();
  });
});
