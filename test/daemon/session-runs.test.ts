/**
 * A reply that arrives while a cancel is still being applied (its result is written, the control's
 * own work on the session not yet ended) must be refused for the cancel, not as "running right
 * now": the daemon waits for the control to end, then the reply is refused with the cancel's words.
 */
import { appendFileSync, cpSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { SessionRuns } from '../../src/daemon/session-runs.js';
import { REPOSITORY_ROOT } from '../daemon/build-once.js';
import { makeTempFolder, removeTempFolders } from '../support/temp-dirs.js';

afterEach(removeTempFolders);

function sessionsWithJournal(sessionId: string, cancelled: boolean): string {
  const sessionsDir = makeTempFolder('govflow-session-runs-');
  const directory = path.join(sessionsDir, sessionId);
  cpSync(path.join(REPOSITORY_ROOT, 'test', 'fixtures', 'journal', 'v1'), directory, { recursive: true });
  if (cancelled) {
    const at = new Date().toISOString();
    const control = {
      v: 1,
      type: 'control',
      action: 'cancel',
      control_id: 'ctl-1',
      by: 'operator',
      claimed_by: null,
      reason: 'wrong request',
      at,
      claimed_at: at,
      source_file: 'stop.json',
      claimed_path: null,
      governance_hash: 'x',
    };
    appendFileSync(path.join(directory, 'journal.jsonl'), `${JSON.stringify(control)}\n`);
  }
  return sessionsDir;
}

describe('SessionRuns.replyMayApply', () => {
  it('waits for a cancel still being applied, then lets the reply go on to its refusal', async () => {
    const runs = new SessionRuns(sessionsWithJournal('sess-1', true));
    const end = runs.begin('sess-1');
    let settled: string | null | undefined;
    const verdict = runs.replyMayApply('sess-1', () => {}).then((answer) => (settled = answer));
    // It reads the journal synchronously, then waits on the run: once the pending callbacks have all
    // run (a turn of the event loop), nothing but the run's end can settle it.
    await new Promise((resolve) => setImmediate(resolve));
    expect(settled).toBeUndefined();
    end();
    expect(await verdict).toBeNull();
    expect(runs.busy('sess-1')).toBe(false);
  });

  it('refuses a reply to a session that runs and waits for no one', async () => {
    const runs = new SessionRuns(sessionsWithJournal('sess-2', false));
    const end = runs.begin('sess-2');
    expect(await runs.replyMayApply('sess-2', () => {})).toMatch(/is running right now/);
    end();
    expect(await runs.replyMayApply('sess-2', () => {})).toBeNull();
  });
});
