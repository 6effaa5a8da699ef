/**
 * The pieces of run control without a daemon (docs/run-control.md): the control file's checks,
 * the operator entry's lines written and read back (no `[SEQUENCE]`, `[CONTROL]`), `[FORKED_FROM]`
 * and `[NOT_REPEATED]`, where a fork starts, the one cancellation source of a session, and the
 * sweep of control outcomes nobody read.
 */
import { existsSync, readdirSync, utimesSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { formatEntry, GENESIS_HASH } from '../../src/audit/audit-entry-format.js';
import { parseEntries } from '../../src/audit/audit-entry-parse.js';
import { parseRequestFile } from '../../src/intake/request-file.js';
import {
  OUTCOME_MAX_AGE_MS,
  removeControlOutcome,
  startOutcomeSweep,
  sweepControlOutcomes,
  writeControlOutcome,
} from '../../src/intake/control-outcome.js';
import { forkPoint, retryPoint } from '../../src/pipeline/fork-point.js';
import { operatorAuditInput } from '../../src/pipeline/operator-entry.js';
import { cancelOf, RunControls, type CancelOrder } from '../../src/pipeline/run-controls.js';
import { foldRecords } from '../../src/pipeline/session-state.js';
import type { ControlRecord, JournalRecord, SessionRecord } from '../../src/store/session-journal.js';
import { JOURNAL_FORMAT } from '../../src/store/journal-format.js';
import { makeMessage } from '../audit/audit-test-helpers.js';
import { waitFor } from '../daemon/daemon-helpers.js';
import { makeTempFolder, removeTempFolders } from '../support/temp-dirs.js';

const parse = (document: unknown) => parseRequestFile('c.json', Buffer.from(JSON.stringify(document)), 1_000_000);

const SESSION: SessionRecord = {
  v: JOURNAL_FORMAT,
  type: 'session',
  session_id: 'sess-1',
  request_id: 'req-1',
  request: { text: 'hello', user: 'ana', metadata: null },
  source_file: 'r.txt',
  claimed_path: null,
  created_at: '2026-03-08T06:00:00.000Z',
  entry_agent: 'objective_agent',
};

const ORDER: CancelOrder = {
  controlId: 'c-1',
  by: 'ops',
  claimedBy: null,
  reason: 'stop',
  claimedAt: '2026-03-08T06:00:01.000Z',
  sourceFile: 'c.json',
  claimedPath: null,
};

describe('control files', () => {
  it('reads the four controls, keeping a claimed `by` and the HTTP user apart', () => {
    expect(parse({ control: 'cancel', session_id: 'sess-1', reason: 'wrong', by: 'mallory' })).toEqual({
      kind: 'control',
      action: 'cancel',
      sessionId: 'sess-1',
      reason: 'wrong',
      from: null,
      request: null,
      requestId: null,
      by: 'mallory',
      httpUser: null,
      decision: null,
      advice: null,
      limits: null,
    });
    expect(
      parse({ control: 'fork', session_id: 'sess-1', from: 3, request: 'Again.', request_id: 'f-1' }),
    ).toMatchObject({ kind: 'control', action: 'fork', from: 3, request: 'Again.', requestId: 'f-1' });
    expect(parse({ control: 'retry', session_id: 'sess-1' })).toMatchObject({ action: 'retry', from: null });
    expect(parse({ control: 'rerun', session_id: 'sess-1', request: 'Edited.' })).toMatchObject({ action: 'rerun' });
  });

  it('refuses a bad shape, saying what to fix', () => {
    const reasons: Array<[unknown, RegExp]> = [
      [
        { control: 'explode', session_id: 'sess-1' },
        /is not a control: write "cancel", "retry", "fork", "rerun" or "intervene"/,
      ],
      [{ control: 'cancel' }, /"session_id" must be a string/],
      [{ control: 'cancel', session_id: '../x' }, /is not a session id/],
      [{ control: 'cancel', session_id: 'sess-1', colour: 'red' }, /unknown field "colour"/],
      [{ control: 'fork', session_id: 'sess-1' }, /a fork needs "from"/],
      [{ control: 'fork', session_id: 'sess-1', from: 0 }, /a fork needs "from"/],
      [{ control: 'retry', session_id: 'sess-1', from: 2 }, /"from" goes with "fork" only/],
      [{ control: 'cancel', session_id: 'sess-1', request_id: 'x' }, /a cancel makes no new session/],
      [{ control: 'rerun', session_id: 'sess-1', request_id: 'bad id' }, /"request_id" "bad id" is not allowed/],
      [{ control: 'cancel', session_id: 'sess-1', reason: 7 }, /"reason" must be a string/],
      [{ control: 'cancel', session_id: 'sess-1', request: 'x', reply: 'y' }, /unknown field "reply"/],
    ];
    for (const [document, reason] of reasons) {
      const parsed = parse(document);
      expect(parsed.kind, JSON.stringify(document)).toBe('invalid');
      expect((parsed as { reason: string }).reason).toMatch(reason);
    }
  });
});

describe('operator entries', () => {
  const control = (overrides: Partial<ControlRecord> = {}): ControlRecord => ({
    v: JOURNAL_FORMAT,
    type: 'control',
    action: 'cancel',
    control_id: '0a1b2c3d-0000-5000-8000-000000000000',
    by: 'ops',
    claimed_by: 'mallory',
    reason: 'wrong request',
    at: '2026-03-08T06:30:00.000Z',
    claimed_at: '2026-03-08T06:29:59.990Z',
    source_file: 'c.json',
    claimed_path: null,
    governance_hash: 'g'.repeat(64),
    ...overrides,
  });

  it('writes the §6 lines and [CONTROL], no [SEQUENCE], and reads them back', () => {
    const { text } = formatEntry(
      operatorAuditInput(control(), SESSION, 'Asia/Singapore'),
      'Asia/Singapore',
      GENESIS_HASH,
    );
    expect(text).toContain(
      '[AGENT: operator]\n[INPUT SOURCE: operator]\n[INPUT]: wrong request\n[OUTPUT TYPE: control]\n[STATUS: cancelled] Cancelled by ops: wrong request\n',
    );
    expect(text).not.toContain('[SEQUENCE');
    expect(text).toContain(
      '[CONTROL]: {"action":"cancel","by":"ops","claimed_by":"mallory","reason":"wrong request","at":"2026-03-08T14:30:00.000+08:00"}\n',
    );
    const [entry] = parseEntries(text).entries;
    expect(entry).toMatchObject({
      agent: 'operator',
      sequence: null,
      status: { code: 'cancelled' },
      user: 'ana',
      control: { action: 'cancel', by: 'ops', claimed_by: 'mallory' },
      forkedFrom: null,
    });
  });

  it("names a fork's origin, and the calls it did not repeat", () => {
    const fork = control({
      action: 'retry',
      claimed_by: null,
      reason: null,
      of_session: 'sess-0',
      of_request: 'req-0',
      from: 3,
      not_repeated: [{ sequence: 1, id: 'call-1', name: 'http_get' }],
    });
    const { text } = formatEntry(operatorAuditInput(fork, SESSION, 'UTC'), 'UTC', GENESIS_HASH);
    expect(text).toContain('[INPUT]: (no reason given)\n');
    expect(text).toContain('[STATUS: success] Retried by ops from session sess-0 at message 3 (messages 1–2 reused');
    expect(text).toContain('"of_session":"sess-0","from":3}');
    expect(parseEntries(text).entries[0]!.notRepeated).toEqual([{ sequence: 1, id: 'call-1', name: 'http_get' }]);

    const reused = formatEntry(
      {
        message: makeMessage({ sequence: 1 }),
        governanceHash: 'g'.repeat(64),
        corrections: [],
        complianceViolations: [],
        notes: [],
        forkedFrom: 'a'.repeat(64),
      },
      'UTC',
      GENESIS_HASH,
    );
    expect(parseEntries(reused.text).entries[0]).toMatchObject({ sequence: 1, forkedFrom: 'a'.repeat(64) });
  });

  it('refuses an entry with both [CONTROL] and [SEQUENCE], or a message without [SEQUENCE]', () => {
    const { text } = formatEntry(operatorAuditInput(control(), SESSION, 'UTC'), 'UTC', GENESIS_HASH);
    expect(() => parseEntries(text.replace('[PARENT_MESSAGE_ID', '[SEQUENCE: 1]\n[PARENT_MESSAGE_ID'))).toThrow(
      /SEQUENCE on an operator's entry/,
    );
    expect(() => parseEntries(text.replace(/\[CONTROL\]: .*\n/, ''))).toThrow(/missing \[SEQUENCE/);
  });
});

describe('where a fork starts', () => {
  const message = (sequence: number, code: 'success' | 'failed') => ({
    v: JOURNAL_FORMAT,
    type: 'message' as const,
    kind: 'chain' as const,
    message: {
      ...makeMessage({ id: `m${sequence}`, sequence }),
      status: { code, message: code },
      next_agent: { name: code === 'success' ? 'goal_agent' : null, reason: null },
    },
    task_id: null,
    plan_message_id: null,
    loop_key: `k${sequence}`,
    governance_hash: 'g',
    corrections: [],
    violations: [],
    notes: [],
    raw_output: null,
    final: false,
    plan: null,
    on_failure: null,
  });

  it('retries at the first message that did not succeed, re-runs at 1, forks within 1 … last + 1, and only ended sessions', () => {
    const failed = foldRecords([SESSION, message(1, 'success'), message(2, 'failed')] as JournalRecord[]);
    expect(retryPoint(failed)).toBe(2);
    expect(forkPoint(failed, 'retry', null)).toEqual({ from: 2 });
    expect(forkPoint(failed, 'rerun', null)).toEqual({ from: 1 });
    expect(forkPoint(failed, 'fork', 3)).toEqual({ from: 3 });
    expect(forkPoint(failed, 'fork', 4)).toMatchObject({ refusal: expect.stringMatching(/from 1 to 3/) });
    const running = foldRecords([SESSION, message(1, 'success')] as JournalRecord[]);
    expect(forkPoint(running, 'retry', null)).toMatchObject({ refusal: expect.stringMatching(/still running/) });
    const cancelled = foldRecords([
      SESSION,
      message(1, 'success'),
      {
        v: JOURNAL_FORMAT,
        type: 'control',
        action: 'cancel',
        control_id: 'c',
        by: 'x',
        claimed_by: null,
        reason: null,
        at: 'a',
        claimed_at: 'a',
        source_file: 'c',
        claimed_path: null,
        governance_hash: 'g',
      },
    ] as JournalRecord[]);
    expect(forkPoint(cancelled, 'retry', null)).toEqual({ from: 2 });
  });
});

describe("a session's one cancellation source", () => {
  it('aborts every signal of the session with the cancel, reports whether its run applied it, and knows no other session', async () => {
    const controls = new RunControls();
    const shutdown = new AbortController();
    expect(controls.cancel('sess-1', ORDER)).toBeNull();
    const run = controls.enter('sess-1', shutdown.signal);
    const child = AbortSignal.any([run.signal]);
    const delivered = controls.cancel('sess-1', ORDER)!;
    expect(run.signal.aborted && child.aborted).toBe(true);
    expect(cancelOf(child)).toMatchObject({ by: 'ops', sessionId: 'sess-1' });
    controls.applied('sess-1');
    expect(await delivered).toBe('applied');
    run.release();
    expect(controls.running('sess-1')).toBe(false);

    const paused = controls.enter('sess-2', shutdown.signal);
    const late = controls.cancel('sess-2', ORDER)!;
    paused.release();
    expect(await late).toBe('not-applied');

    const stopping = controls.enter('sess-3', shutdown.signal);
    shutdown.abort(new Error('shutdown'));
    expect(stopping.signal.aborted).toBe(true);
    expect(cancelOf(stopping.signal)).toBeNull();
    stopping.release();
  });
});

describe('control outcomes (system/state/controls/)', () => {
  afterEach(() => removeTempFolders());

  /** Writes the outcome of the control sent as `name`, last written `ageMs` ago. */
  function writeAged(paths: { state: string }, name: string, ageMs: number): void {
    writeControlOutcome(
      paths,
      { control: 'cancel', session_id: 'sess-1', status: 'applied', source_file: name, at: 'a' },
      false,
    );
    const when = new Date(Date.now() - ageMs);
    utimesSync(path.join(paths.state, 'controls', name), when, when);
  }

  const left = (paths: { state: string }) => readdirSync(path.join(paths.state, 'controls')).sort();
  const OLD = OUTCOME_MAX_AGE_MS + 60_000;

  it('a sweep removes the outcomes a day old and keeps the younger ones; none written yet is no error', () => {
    const paths = { state: makeTempFolder('govflow-outcomes-') };
    writeAged(paths, 'old.json', OLD);
    writeAged(paths, 'young.json', OUTCOME_MAX_AGE_MS - 60_000);
    expect(sweepControlOutcomes(paths)).toBe(1);
    expect(left(paths)).toEqual(['young.json']);
    expect(sweepControlOutcomes({ state: makeTempFolder('govflow-outcomes-') })).toBe(0);

    removeControlOutcome(paths, 'young.json');
    removeControlOutcome(paths, 'young.json');
    expect(left(paths)).toEqual([]);
  });

  it("the daemon's sweep runs at once and again on its interval, until stopped", async () => {
    const paths = { state: makeTempFolder('govflow-outcomes-') };
    writeAged(paths, 'first.json', OLD);
    writeAged(paths, 'young.json', 0);
    const said: unknown[] = [];
    const log = { info: (_message: string, fields?: unknown) => said.push(fields), warn() {}, error() {} };
    const stop = startOutcomeSweep(paths, log, 40);
    try {
      expect(left(paths)).toEqual(['young.json']);
      expect(said).toEqual([{ removed: 1, older_than_hours: 24 }]);
      writeAged(paths, 'later.json', OLD);
      await waitFor('the sweep on its interval', () => left(paths).length === 1);
      expect(left(paths)).toEqual(['young.json']);
    } finally {
      stop();
    }
    writeAged(paths, 'after.json', OLD);
    // A witness sweep on the same interval, started after the stop: once its own interval has run,
    // the stopped sweep's (due no later, on the same timer list) would have run too.
    const witness = { state: makeTempFolder('govflow-outcomes-') };
    const stopWitness = startOutcomeSweep(witness, { info() {}, warn() {}, error() {} }, 40);
    writeAged(witness, 'old.json', OLD);
    await waitFor('the witness sweep on its interval', () => left(witness).length === 0);
    stopWitness();
    expect(existsSync(path.join(paths.state, 'controls', 'after.json'))).toBe(true);
  });
});
