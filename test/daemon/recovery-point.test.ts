/**
 * Where recovery starts reading the audit log for claims whose sessions never started
 * (src/daemon/recovery-point.ts): a run that finds system/processing/ empty notes where the log
 * ends; a run that finds claims left there keeps the point of the run that claimed them, through
 * any number of crashes; claims older than the note (or a damaged note) read the log from its start.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { systemPaths } from '../../src/config/system-paths.js';
import { recoveryPoint } from '../../src/daemon/recovery-point.js';
import { makeTempFolder, removeTempFolders } from '../support/temp-dirs.js';

afterEach(removeTempFolders);

function root() {
  const paths = systemPaths(makeTempFolder('govflow-recovery-point-'));
  mkdirSync(paths.state, { recursive: true });
  mkdirSync(paths.processing, { recursive: true });
  return paths;
}

describe('recoveryPoint', () => {
  it('notes where the log ends when nothing is claimed, and keeps that point while claims are left', () => {
    const paths = root();
    const noted = path.join(paths.state, 'recovery-from.json');
    expect(recoveryPoint(paths, { file: '20260308.log', bytes: 1200 }, false)).toEqual({
      file: '20260308.log',
      bytes: 1200,
    });
    expect(JSON.parse(readFileSync(noted, 'utf8'))).toEqual({ file: '20260308.log', bytes: 1200 });
    // The run claims a request and is killed; the next two runs (the second after another crash) keep the first point.
    writeFileSync(path.join(paths.processing, '20260308T101010Z-note.txt'), 'Summarize.');
    expect(recoveryPoint(paths, { file: '20260308.log', bytes: 9000 }, false)).toEqual({
      file: '20260308.log',
      bytes: 1200,
    });
    expect(recoveryPoint(paths, { file: '20260309.log', bytes: 300 }, false)).toEqual({
      file: '20260308.log',
      bytes: 1200,
    });
    expect(JSON.parse(readFileSync(noted, 'utf8'))).toEqual({ file: '20260308.log', bytes: 1200 });
  });

  it("reads from the log's start for claims it has no point for, and notes the start when there is no log yet", () => {
    const paths = root();
    writeFileSync(path.join(paths.processing, '.submission.tmp'), '{"request":');
    expect(recoveryPoint(paths, { file: '20260308.log', bytes: 500 }, false)).toEqual({ file: '', bytes: 0 });
    writeFileSync(path.join(paths.state, 'recovery-from.json'), '{"file": 3}');
    expect(recoveryPoint(paths, { file: '20260308.log', bytes: 500 }, false)).toEqual({ file: '', bytes: 0 });
    const empty = root();
    expect(recoveryPoint(empty, null, false)).toEqual({ file: '', bytes: 0 });
  });
});
