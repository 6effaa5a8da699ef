/**
 * The journal reader (silent failure #5, issue 11): only a torn final line — one without its "\n"
 * — may be cut; an unparsable line anywhere else is an error naming file and line, and every
 * record's `v` must be a version this govflow reads. Frozen journals of each version (never
 * regenerated, test/fixtures/journal/) must still read and fold.
 */
import { cpSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { foldRecords } from '../../src/pipeline/session-state.js';
import { SessionJournal } from '../../src/store/journal-reader.js';
import { JournalFormatError, SUPPORTED_JOURNAL_VERSIONS } from '../../src/store/journal-format.js';
import { REPOSITORY_ROOT } from '../daemon/build-once.js';
import { makeTempFolder, removeTempFolders } from '../support/temp-dirs.js';

afterEach(removeTempFolders);

const FIXTURES = path.join(REPOSITORY_ROOT, 'test', 'fixtures', 'journal');

/** A copy of the frozen v1 journal in a temp folder (tests that break it never touch the fixture). */
function copyOfV1(): { directory: string; file: string; lines: string[] } {
  const directory = makeTempFolder('govflow-journal-');
  cpSync(path.join(FIXTURES, 'v1'), directory, { recursive: true });
  const file = path.join(directory, 'journal.jsonl');
  return { directory, file, lines: readFileSync(file, 'utf8').split('\n').slice(0, -1) };
}

describe('frozen journals of every supported version', () => {
  it('has a fixture for each supported version, and nothing else', () => {
    const folders = readdirSync(FIXTURES, { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => entry.name)
      .sort();
    expect(folders).toEqual(SUPPORTED_JOURNAL_VERSIONS.map((version) => `v${version}`));
  });

  it('v1 reads and folds to the finished session it recorded', () => {
    const records = SessionJournal.read(path.join(FIXTURES, 'v1'));
    expect(records).toHaveLength(14);
    expect(records.every((record) => record.v === 1)).toBe(true);
    const state = foldRecords(records);
    expect(state.session).toMatchObject({
      session_id: 'sess-fixture-v1',
      request_id: 'fixture-v1',
      entry_agent: 'objective_agent',
    });
    expect(state.messages.map((record) => record.message.agent.name)).toEqual([
      'objective_agent',
      'goal_agent',
      'planning_agent',
      'action_item_agent',
      'summarizer_agent',
      'final_output_agent',
    ]);
    expect(state.final?.message.agent.name).toBe('final_output_agent');
    expect(state.finishedAt).toBe('2026-11-23T17:05:48.749Z');
    expect(state.lastSequence).toBe(6);
    expect(SessionJournal.readManifest(FIXTURES, 'v1')).toMatchObject({ v: 1, state: 'SUCCESS', messages: 6 });
  });
});

describe('SessionJournal.read', () => {
  it('cuts a torn final line (no "\\n") when repairing, and only that', () => {
    const { directory, file, lines } = copyOfV1();
    const intact = `${lines.join('\n')}\n`;
    writeFileSync(file, `${intact}{"v":1,"type":"exch`);
    expect(SessionJournal.read(directory)).toHaveLength(14);
    expect(readFileSync(file, 'utf8')).not.toBe(intact); // reading alone changes nothing
    expect(SessionJournal.read(directory, true)).toHaveLength(14);
    expect(readFileSync(file, 'utf8')).toBe(intact);
  });

  it('refuses an unparsable line before the end, naming file and line, and cuts nothing', () => {
    const { directory, file, lines } = copyOfV1();
    lines[4] = lines[4].slice(0, 40);
    const damaged = `${lines.join('\n')}\n`;
    writeFileSync(file, damaged);
    const error = (() => {
      try {
        SessionJournal.read(directory, true);
      } catch (caught) {
        return caught;
      }
      return null;
    })();
    expect(error).toBeInstanceOf(JournalFormatError);
    expect((error as JournalFormatError).line).toBe(5);
    expect((error as Error).message).toMatch(
      new RegExp(`^${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}:5: not a journal record`),
    );
    expect(readFileSync(file, 'utf8')).toBe(damaged);
  });

  it('refuses a complete final line that does not parse (damage, not a torn append)', () => {
    const { directory, file, lines } = copyOfV1();
    writeFileSync(file, `${lines.join('\n')}\n{garbage}\n`);
    expect(() => SessionJournal.read(directory, true)).toThrow(/journal\.jsonl:15: not a journal record/);
  });

  it('refuses a record version it does not read, saying which versions it does', () => {
    const { directory, file, lines } = copyOfV1();
    lines[2] = lines[2].replace('{"v":1,', '{"v":2,');
    writeFileSync(file, `${lines.join('\n')}\n`);
    expect(() => SessionJournal.read(directory)).toThrow(
      /journal\.jsonl:3: journal record version v=2 is not one this govflow reads \(1\)/,
    );
    lines[2] = lines[2].replace('{"v":2,', '{');
    writeFileSync(file, `${lines.join('\n')}\n`);
    expect(() => SessionJournal.read(directory)).toThrow(/journal\.jsonl:3: journal record version v=undefined/);
  });
});
