/**
 * One table maps error kinds to exit codes (SPEC §8): every error class derives from
 * GovflowError, and the CLI answers 2 for what the user must fix, 1 for what failed while
 * working. Checked class by class and through `main` on real temp roots.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { AuditLogFormatError, AuditWriteError } from '../../src/audit/audit-errors.js';
import { EXIT_CODE_BY_KIND, EXIT_CODE_BY_STATUS, describeFailure, exitCodeFor } from '../../src/cli/exit-codes.js';
import { GovernanceInvalidError } from '../../src/daemon/governance-source.js';
import { ConfigError, GovflowError, ProviderError, RequestFileError, UsageError } from '../../src/errors.js';
import { FrontmatterError } from '../../src/governance/frontmatter.js';
import { ReplyRejectedError, SessionInterruptedError } from '../../src/pipeline/runner-contract.js';
import { exampleRoot, removeTempDirs, runCli, writeFile } from '../pipeline/pipeline-test-helpers.js';

afterEach(removeTempDirs);

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
    expect(EXIT_CODE_BY_STATUS).toEqual({ success: 0, partial: 0, failed: 1, pending: 3 });
  });

  it('carries retryable, the session id and the cause', () => {
    const cause = new Error('socket hang up');
    const error = new GovflowError('provider', 'the model call failed', { retryable: true, sessionId: 'sess-1', cause });
    expect(error).toMatchObject({ kind: 'provider', retryable: true, sessionId: 'sess-1', cause });
    expect(new SessionInterruptedError('stop', { sessionId: 'sess-2' })).toMatchObject({ retryable: true, sessionId: 'sess-2' });
    expect(new ProviderError('401', { provider: 'openai', model: 'm', retryable: false }).retryable).toBe(false);
  });

  it('describes configuration errors with file:line', () => {
    expect(describeFailure(new ConfigError('unknown key "x"', 'govflow.config.yaml', 7))).toBe('configuration error: govflow.config.yaml:7: unknown key "x"');
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
      const error = await runtime.runner.replyToSession('sess-nowhere', { text: 'yes', sourceFile: 'reply.json', claimedPath: null }, new AbortController().signal).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(ReplyRejectedError);
      expect(error).toMatchObject({ kind: 'request', sessionId: 'sess-nowhere', retryable: false });
    } finally {
      await runtime.close();
    }
  });
});
