import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { RunClaims } from '../../src/daemon/run-claims.js';

const folders: string[] = [];
afterEach(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

function stateDir(): string {
  const folder = mkdtempSync(path.join(os.tmpdir(), 'govflow-claims-'));
  folders.push(folder);
  return folder;
}

describe('RunClaims', () => {
  it('takes every claim this process did not make as an orphan, and releases it', () => {
    const state = stateDir();
    const claims = new RunClaims(state);
    claims.register('sess-mine');
    mkdirSync(claims.directory, { recursive: true });
    writeFileSync(path.join(claims.directory, 'sess-killed'), '');
    expect(claims.list().sort()).toEqual(['sess-killed', 'sess-mine']);
    expect(claims.orphans()).toEqual(['sess-killed']);
    claims.release('sess-killed');
    claims.release('sess-mine');
    expect(readdirSync(claims.directory)).toEqual([]);
  });
});
