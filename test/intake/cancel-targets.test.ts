/**
 * A bulk cancel's targets in a files root, read from session folders as the runner leaves them,
 * including a session just started whose manifest has not landed yet (its file is created off the
 * event loop): under load a `POST /v1/sessions/cancel {"status": "running"}` missed such sessions.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { systemPaths } from '../../src/config/system-paths.js';
import { filesCancelTargets } from '../../src/intake/cancel-targets.js';
import { makeTempFolder, removeTempFolders } from '../support/temp-dirs.js';

afterEach(removeTempFolders);

const RUNNING_OR_PAUSED = { statuses: ['running', 'paused'] as const, user: null, since: null };

function sessionRecord(id: string, createdAt: string, extra: Record<string, unknown> = {}) {
  return {
    v: 1,
    type: 'session',
    session_id: id,
    request_id: `req-${id}`,
    request: { text: 'Summarise the notes.', user: 'alice', metadata: null },
    source_file: `req-${id}.txt`,
    claimed_path: null,
    created_at: createdAt,
    entry_agent: 'objective_agent',
    ...extra,
  };
}

/** A session folder: its journal's records and, unless null, a manifest in `state`. */
function writeSession(root: string, id: string, records: object[], state: string | null): void {
  const directory = path.join(root, 'system', 'sessions', id);
  mkdirSync(directory, { recursive: true });
  writeFileSync(path.join(directory, 'journal.jsonl'), records.map((record) => `${JSON.stringify(record)}\n`).join(''));
  if (state !== null)
    writeFileSync(path.join(directory, 'manifest.json'), JSON.stringify({ v: 1, session_id: id, state }));
}

describe('bulk cancel targets in a files root', () => {
  it('takes a running session whose manifest has not landed, by its journal; never an ended or delegated one', async () => {
    const root = makeTempFolder('govflow-cancel-targets-');
    const finished = { v: 1, type: 'finished', status: 'success', at: '2026-01-01T00:00:09Z' };
    writeSession(root, 's-new', [sessionRecord('s-new', '2026-01-01T00:00:03Z')], null);
    writeSession(root, 's-running', [sessionRecord('s-running', '2026-01-01T00:00:01Z')], 'RUNNING');
    writeSession(root, 's-paused', [sessionRecord('s-paused', '2026-01-01T00:00:02Z')], 'PAUSED');
    writeSession(root, 's-done', [sessionRecord('s-done', '2026-01-01T00:00:00Z'), finished], 'SUCCESS');
    writeSession(
      root,
      's-done-no-manifest',
      [sessionRecord('s-done-no-manifest', '2026-01-01T00:00:00Z'), finished],
      null,
    );
    const delegation = { parent_session_id: 's-running', agent: 'helper', at: '2026-01-01T00:00:04Z' };
    writeSession(root, 's-child', [sessionRecord('s-child', '2026-01-01T00:00:04Z', { delegation })], null);
    mkdirSync(path.join(root, 'system', 'sessions', 's-empty-folder'));

    const targets = await filesCancelTargets(systemPaths(root), 1 << 20, 'UTC', RUNNING_OR_PAUSED);
    expect(targets.map((target) => [target.sessionId, target.status])).toEqual([
      ['s-running', 'running'],
      ['s-paused', 'paused'],
      ['s-new', 'running'],
    ]);
    expect(targets[2]).toMatchObject({ requestId: 'req-s-new', user: 'alice', createdAt: '2026-01-01T00:00:03Z' });

    const pausedOnly = await filesCancelTargets(systemPaths(root), 1 << 20, 'UTC', {
      ...RUNNING_OR_PAUSED,
      statuses: ['paused'],
    });
    expect(pausedOnly.map((target) => target.sessionId)).toEqual(['s-paused']);
  });
});
