import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ManifestFile } from '../../src/store/manifest-file.js';
import { FdatasyncQueue } from '../../src/store/append-only-file.js';
import { makeTempFolder, removeTempFolders } from '../support/temp-dirs.js';

afterEach(removeTempFolders);

describe('ManifestFile', () => {
  it('ends with the latest content, shorter contents truncating longer ones', async () => {
    const file = path.join(makeTempFolder('govflow-manifest-'), 'manifest.json');
    const manifest = new ManifestFile(file);
    for (let index = 0; index < 50; index++) manifest.write(`${'x'.repeat(200 - index)}${index}\n`);
    manifest.write('short\n');
    expect(await manifest.close()).toBeNull();
    expect(readFileSync(file, 'utf8')).toBe('short\n');
  });

  it('reports a failed write instead of throwing, and close is safe twice', async () => {
    const folder = makeTempFolder('govflow-manifest-');
    writeFileSync(path.join(folder, 'not-a-folder'), '');
    const manifest = new ManifestFile(path.join(folder, 'not-a-folder', 'manifest.json'));
    manifest.write('{}\n');
    const error = await manifest.close();
    expect(error?.message).toMatch(/ENOTDIR/);
    expect(await manifest.close()).toBe(error);
  });
});

describe('FdatasyncQueue', () => {
  it('runs one sync at a time and folds the requests that arrive meanwhile into the next', async () => {
    const { openSync, closeSync, writeSync } = await import('node:fs');
    const fd = openSync(path.join(makeTempFolder('govflow-sync-'), 'file'), 'a');
    try {
      const queue = new FdatasyncQueue();
      writeSync(fd, 'a');
      const first = queue.sync(fd);
      // Asked before the first one started: it covers this write too.
      expect(queue.sync(fd)).toBe(first);
      await new Promise((resolve) => setImmediate(resolve));
      writeSync(fd, 'b');
      const second = queue.sync(fd);
      const third = queue.sync(fd);
      expect(third).toBe(second);
      expect(second).not.toBe(first);
      await Promise.all([first, second]);
      await queue.settled();
    } finally {
      closeSync(fd);
    }
  });
});
