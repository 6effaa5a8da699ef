/**
 * One table maps error kinds to exit codes (SPEC §8): every error class derives from
 * GovflowError, and the CLI answers 2 for what the user must fix, 1 for what failed while
 * working. Checked class by class and through `main` on real temp roots.
 */
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { AuditLogFormatError, AuditWriteError } from '../../src/audit/audit-errors.js';
import { ValueDecodeError } from '../../src/audit/audit-line-encoding.js';
import { EXIT_CODE_BY_KIND, EXIT_CODE_BY_STATUS, describeFailure, exitCodeFor } from '../../src/cli/exit-codes.js';
import { GovernanceInvalidError } from '../../src/daemon/governance-source.js';
import { ROOT_LOCK_FILE } from '../../src/daemon/root-lock.js';
import { ConfigError, GovflowError, ProviderError, RequestFileError, UsageError } from '../../src/errors.js';
import { FrontmatterError } from '../../src/config/frontmatter.js';
import { OutsideRootError } from '../../src/governance/root-boundary.js';
import { HttpProblem } from '../../src/http/http-problem.js';
import { AnswerTooLargeError } from '../../src/llm/answer-size-limit.js';
import { ReplyRejectedError, SessionInterruptedError } from '../../src/pipeline/runner-contract.js';
import { PiiTextError } from '../../src/privacy/pii-redactor.js';
import { UserRegexError } from '../../src/config/user-regex.js';
import { DiskWaitAbandonedError } from '../../src/store/disk-waits.js';
import { JournalFormatError } from '../../src/store/journal-format.js';
import { ToolCallError } from '../../src/tools/tool-contract.js';
import { buildDistOnce } from '../daemon/build-once.js';
import { cleanupAll, makeRoot, runCli as runGovflowProcess } from '../daemon/daemon-helpers.js';
import { exampleRoot, removeTempDirs, runCli, writeFile } from '../pipeline/pipeline-test-helpers.js';
import { pgTestSchema } from '../support/postgres.js';

const pg = await pgTestSchema('exit_codes');
afterEach(removeTempDirs);
afterAll(async () => {
  await cleanupAll();
  await pg?.drop();
});

describe('GovflowError and the exit-code table', () => {
  it('every error class is a GovflowError whose kind picks the exit code', () => {
    const cases: Array<[GovflowError, string, number]> = [
      [new UsageError('bad flag'), 'usage', 2],
      [new ConfigError('bad key', 'govflow.config.yaml', 3), 'config', 2],
      [new GovernanceInvalidError([new ConfigError('x', 'a.md', 1)]), 'config', 2],
      [new FrontmatterError('no closing ---', 1), 'config', 2],
      [new RequestFileError('empty', 'inbox/a.txt'), 'request', 2],
      [new ReplyRejectedError('no such session'), 'request', 2],
      [new ProviderError('down', { provider: 'openai', model: 'm', retryable: true }), 'provider', 1],
      [new SessionInterruptedError('shutdown'), 'interrupted', 1],
      [new AuditLogFormatError('torn', 4, 'logs/20260101.log'), 'audit', 1],
      [new AuditWriteError('disk full', 'logs/20260101.log', 'id'), 'audit', 1],
    ];
    for (const [error, kind, code] of cases) {
      expect(error).toBeInstanceOf(GovflowError);
      expect(error.kind).toBe(kind);
      expect(exitCodeFor(error)).toBe(code);
    }
    expect(exitCodeFor(new TypeError('a defect'))).toBe(1);
    expect(new Set(Object.values(EXIT_CODE_BY_KIND))).toEqual(new Set([1, 2]));
    expect(EXIT_CODE_BY_STATUS).toEqual({
      cancelled: 1,
      success: 0,
      partial: 0,
      failed: 1,
      pending: 3,
      intervention_required: 3,
      halted_cost: 3,
      halted_time: 3,
    });
  });

  it('the classes that once extended plain Error have a kind too, and keep the fields callers read', () => {
    const cases: Array<[GovflowError, string, number]> = [
      [new OutsideRootError('../secret.md', '/elsewhere/secret.md', '/root'), 'config', 2],
      [new UserRegexError('rule must be a non-empty string'), 'config', 2],
      [new HttpProblem(400, 'bad_request', 'send JSON'), 'request', 2],
      [new HttpProblem(503, 'stopping', 'shutting down'), 'interrupted', 1],
      [new HttpProblem(500, 'internal', 'failed to answer'), 'internal', 1],
      [new AnswerTooLargeError(10, '{"out'), 'provider', 1],
      [new ToolCallError('read_file: "x" is a folder'), 'provider', 1],
      [new DiskWaitAbandonedError('stopped while waiting for the disk'), 'interrupted', 1],
      [new ValueDecodeError('not valid JSON', { cause: new SyntaxError('x') }), 'audit', 1],
      [new JournalFormatError('not a journal record', 'journal.jsonl', 5), 'audit', 1],
      [new PiiTextError('text over the limit'), 'internal', 1],
    ];
    for (const [error, kind, code] of cases) {
      expect(error, error.name).toBeInstanceOf(GovflowError);
      expect(error.kind, error.name).toBe(kind);
      expect(exitCodeFor(error), error.name).toBe(code);
    }
    expect(new JournalFormatError('damaged', 'journal.jsonl', 5)).toMatchObject({
      name: 'JournalFormatError',
      file: 'journal.jsonl',
      line: 5,
      message: 'journal.jsonl:5: damaged',
    });
    expect(new HttpProblem(503, 'not_ready', 'starting')).toMatchObject({
      name: 'HttpProblem',
      status: 503,
      code: 'not_ready',
      retryable: true,
    });
    expect(new AnswerTooLargeError(10, 'ab')).toMatchObject({
      limitBytes: 10,
      prefix: 'ab',
      message: 'answer exceeded llm.max_output_bytes (10)',
    });
    expect(new ValueDecodeError('bad', { cause: 'why' }).cause).toBe('why');
  });

  it('carries retryable, the session id and the cause', () => {
    const cause = new Error('socket hang up');
    const error = new GovflowError('provider', 'the model call failed', {
      retryable: true,
      sessionId: 'sess-1',
      cause,
    });
    expect(error).toMatchObject({ kind: 'provider', retryable: true, sessionId: 'sess-1', cause });
    expect(new SessionInterruptedError('stop', { sessionId: 'sess-2' })).toMatchObject({
      retryable: true,
      sessionId: 'sess-2',
    });
    expect(new ProviderError('401', { provider: 'openai', model: 'm', retryable: false }).retryable).toBe(false);
  });

  it('describes configuration errors with file:line', () => {
    expect(describeFailure(new ConfigError('unknown key "x"', 'govflow.config.yaml', 7))).toBe(
      'configuration error: govflow.config.yaml:7: unknown key "x"',
    );
    expect(describeFailure(new AuditLogFormatError('torn', 4, 'a.log'))).toBe('a.log:4: torn');
    expect(describeFailure('plain')).toBe('plain');
  });

  it('main exits 2 for bad usage and bad configuration, naming what to fix', async () => {
    const root = exampleRoot();
    const usage = await runCli(['status', '--root', root, '--bogus']);
    expect(usage.code).toBe(2);
    expect(usage.stderr).toMatch(/govflow status: .*bogus/);
    expect((await runCli(['nope'])).code).toBe(2);

    writeFile(root, 'govflow.config.yaml', 'timezone: UTC\nnot_a_key: 1\n');
    writeFile(root, 'request.txt', 'hello');
    const config = await runCli(['run', `${root}/request.txt`, '--root', root]);
    expect(config.code).toBe(2);
    expect(config.stderr).toMatch(/configuration error: .*govflow\.config\.yaml.*not_a_key/);
  });

  it('main exits 2 for a reply to a session that does not exist', async () => {
    const root = exampleRoot();
    const reply = writeFile(root, 'reply.json', JSON.stringify({ session_id: 'sess-missing', reply: 'yes' }));
    const run = await runCli(['run', reply, '--root', root]);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/govflow run: no session "sess-missing"/);
  });

  it('errors from a session name it: a rejected reply carries its session id', async () => {
    const root = exampleRoot();
    const { openRuntime } = await import('../../src/daemon/runtime.js');
    const runtime = await openRuntime(root, { env: {} });
    try {
      const error = await runtime.runner
        .replyToSession(
          'sess-nowhere',
          { text: 'yes', sourceFile: 'reply.json', claimedPath: null },
          new AbortController().signal,
        )
        .catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(ReplyRejectedError);
      expect(error).toMatchObject({ kind: 'request', sessionId: 'sess-nowhere', retryable: false });
    } finally {
      await runtime.close();
    }
  });
});

/**
 * Exit codes issue 29 changed: these errors were plain `Error`s, so they exited 1 ("a defect");
 * as GovflowErrors of kind usage or config they exit 2, for the person must fix something.
 */
describe('exit codes through a real govflow process', () => {
  beforeAll(buildDistOnce, 180_000);
  afterEach(cleanupAll);

  it('a govflow.config.yaml that is a symlink out of the root: govflow run exits 2 naming it (was 1)', async () => {
    const root = makeRoot();
    const outside = mkdtempSync(path.join(tmpdir(), 'govflow-outside-'));
    try {
      writeFileSync(path.join(outside, 'govflow.config.yaml'), 'timezone: UTC\n');
      rmSync(path.join(root, 'govflow.config.yaml'), { force: true });
      symlinkSync(path.join(outside, 'govflow.config.yaml'), path.join(root, 'govflow.config.yaml'));
      writeFileSync(path.join(root, 'request.txt'), 'hello');
      const run = await runGovflowProcess(['run', path.join(root, 'request.txt'), '--root', root]);
      expect(run.code, run.stderr).toBe(2);
      expect(run.stderr).toMatch(/govflow\.config\.yaml is outside the root .*allow_outside_root: true/);
    } finally {
      rmSync(outside, { recursive: true, force: true });
    }
  });

  it('a root lock that is stale but being broken by someone else: exit 2 saying to remove it (was 1)', async () => {
    const root = makeRoot();
    const state = path.join(root, 'system', 'state');
    mkdirSync(state, { recursive: true });
    // An unreadable lock is stale; a fresh .break file says another process is breaking it right now.
    writeFileSync(path.join(state, ROOT_LOCK_FILE), 'not a lock\n');
    const breakFile = path.join(state, `${ROOT_LOCK_FILE}.break`);
    writeFileSync(breakFile, '');
    writeFileSync(path.join(root, 'request.txt'), 'hello');
    // The other process keeps at it (a .break file older than a few seconds counts as abandoned,
    // and a loaded machine may take that long to start the CLI).
    const breaking = setInterval(() => utimesSync(breakFile, new Date(), new Date()), 500);
    const run = await runGovflowProcess(['run', path.join(root, 'request.txt'), '--root', root]).finally(() =>
      clearInterval(breaking),
    );
    expect(run.code, run.stderr).toBe(2);
    expect(run.stderr).toMatch(
      /could not take the root lock .*keeps being re-created; if no govflow process runs on this root, remove the file/,
    );
  });

  // /proc takes no new files, even from root (tests may run as root, where chmod does not stop a write).
  it.runIf(process.platform === 'linux')(
    'a state folder that cannot be written: start and run exit 2 naming it (was 1)',
    async () => {
      const root = makeRoot();
      mkdirSync(path.join(root, 'system'), { recursive: true });
      symlinkSync('/proc', path.join(root, 'system', 'state'));
      writeFileSync(path.join(root, 'request.txt'), 'hello');
      for (const args of [['start'], ['run', path.join(root, 'request.txt')]]) {
        const result = await runGovflowProcess([...args, '--root', root]);
        expect(result.code, result.stderr).toBe(2);
        expect(result.stderr).toMatch(/could not create the root lock .*check that .*system\/state is writable/);
      }
    },
  );

  it.skipIf(!pg)(
    'a store schema newer than this govflow: govflow migrate exits 2 saying to run the newer one (was 1)',
    async () => {
      const root = makeRoot(`store:\n  kind: postgres\n  url: ${pg!.url}\n  schema: ${pg!.schema}\n`);
      const first = await runGovflowProcess(['migrate', '--root', root]);
      expect(first.code, first.stderr).toBe(0);
      await pg!.query(`insert into schema_migrations (version, name) values (9999, 'from a newer govflow')`);
      const newer = await runGovflowProcess(['migrate', '--root', root]);
      expect(newer.code, newer.stderr).toBe(2);
      expect(newer.stderr).toMatch(
        /the store's schema ".*" is at version 9999, newer than this govflow knows \(\d+\): run the newer govflow/,
      );
    },
  );
});
