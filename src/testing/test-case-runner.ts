/**
 * Runs one governance test case in a throwaway copy of the root, answering from its cassette (or,
 * with `update`, recording one from the configured provider), then judges the session.
 */
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { readLogEntries } from '../audit/audit-log-reader.js';
import { verifyAuditChain } from '../audit/audit-chain-verify.js';
import { loadConfig } from '../config/config-loader.js';
import { openRuntime } from '../daemon/runtime.js';
import { ConfigError, errorMessage } from '../errors.js';
import { createProvider } from '../llm/create-provider.js';
import type { LlmProvider } from '../llm/provider.js';
import { CassetteRecorder, recordingProvider } from '../llm/recording-provider.js';
import { ReplayProvider } from '../llm/replay-provider.js';
import { writeFileAtomic } from '../store/atomic-file.js';
import { promptChangesOf, type PromptChange } from './prompt-changes.js';
import type { TestCase } from './test-case-file.js';
import { checkExpectations, type ExpectationFailure, type Observation } from './test-expectations.js';

/** Top-level entries of a root that a test run neither needs nor may change. */
const NOT_COPIED = new Set(['system', 'tests', 'node_modules', '.git', 'dist', 'coverage']);

export interface CaseReport {
  testCase: TestCase;
  passed: boolean;
  ms: number;
  failures: ExpectationFailure[];
  promptChanges: PromptChange[];
  /** With `update`: the cassette written. */
  recorded: string | null;
}

export interface RunCaseOptions {
  update: boolean;
  env: NodeJS.ProcessEnv;
}

/** A copy of `root` without its runtime state, in a new temp folder. */
function copyRoot(root: string): string {
  const copy = mkdtempSync(path.join(tmpdir(), 'govflow-test-'));
  cpSync(root, copy, {
    recursive: true,
    filter: (source) => {
      const relative = path.relative(root, source);
      return relative === '' || !NOT_COPIED.has(relative.split(path.sep)[0]);
    },
  });
  return copy;
}

async function providerFor(
  testCase: TestCase,
  copy: string,
  options: RunCaseOptions,
  stagingFile: string,
): Promise<{ provider: LlmProvider; replay: ReplayProvider | null; recorder: CassetteRecorder | null }> {
  if (!options.update) {
    try {
      const replay = ReplayProvider.fromTarget(testCase.cassette);
      return { provider: replay, replay, recorder: null };
    } catch (error) {
      if (error instanceof ConfigError) {
        const hint = /does not exist/.test(error.message)
          ? `; record it with: govflow test --update ${testCase.name}`
          : '';
        throw new ConfigError(`${error.message}${hint}`, error.file);
      }
      throw error;
    }
  }
  const config = loadConfig(copy, options.env);
  if (config.provider.kind === 'replay') {
    throw new ConfigError(
      '--update records answers from the configured provider, but provider.kind is "replay"; configure the provider to record from (dry-run, ' +
        'scripted or a real model)',
      'govflow.config.yaml',
    );
  }
  const recorder = new CassetteRecorder(stagingFile);
  return {
    provider: recordingProvider(await createProvider(config, options.env, { recordDir: null }), recorder),
    replay: null,
    recorder,
  };
}

/** Runs one case to the end. Never throws for a case's own problems: they are its failures. */
export async function runTestCase(root: string, testCase: TestCase, options: RunCaseOptions): Promise<CaseReport> {
  const started = performance.now();
  const copy = copyRoot(root);
  const staging = mkdtempSync(path.join(tmpdir(), 'govflow-test-cassette-'));
  const report = (
    failures: ExpectationFailure[],
    promptChanges: PromptChange[] = [],
    recorded: string | null = null,
  ): CaseReport => ({
    testCase,
    passed: failures.length === 0 && promptChanges.length === 0,
    ms: Math.round(performance.now() - started),
    failures,
    promptChanges,
    recorded,
  });
  try {
    let parts;
    try {
      parts = await providerFor(testCase, copy, options, path.join(staging, 'cassette.json'));
    } catch (error) {
      return report([
        { what: 'cassette', detail: error instanceof ConfigError ? error.describe() : errorMessage(error) },
      ]);
    }
    const env = { ...options.env, GOVFLOW_FSYNC: '0' };
    const runtime = await openRuntime(copy, { env, provider: parts.provider });
    parts.recorder?.recordGovernance(runtime.governance.current().files);
    let observation: Observation;
    let promptChanges: PromptChange[];
    try {
      const outcome = await runtime.runner.startSession(
        {
          requestId: testCase.request.request_id ?? `test-${testCase.name}`.slice(0, 128),
          text: testCase.request.request,
          user: testCase.request.user ?? null,
          metadata: testCase.request.metadata ?? null,
          sourceFile: path.basename(testCase.file),
          claimedPath: null,
        },
        new AbortController().signal,
      );
      const entries = (await readLogEntries(runtime.config.paths.logs)).filter(
        (entry) => entry.sessionId === outcome.sessionId,
      );
      entries.sort((left, right) => (left.sequence ?? 0) - (right.sequence ?? 0));
      const verified = await verifyAuditChain({
        logsDir: runtime.config.paths.logs,
        stateDir: runtime.config.paths.state,
      });
      promptChanges = promptChangesOf(parts.replay, runtime.governance.current());
      observation = {
        status: outcome.status,
        agents: entries.map((entry) => entry.agent),
        output: outcome.result.output,
        auditEntries: entries.map((entry) => entry.body),
        auditFields: entries.map((entry) => ({
          agent: entry.agent,
          status: entry.status.code,
          output_type: entry.outputType,
        })),
        verify: {
          ok: verified.ok,
          problem: verified.firstProblem ? `${verified.firstProblem.reason}: ${verified.firstProblem.detail}` : null,
        },
      };
    } finally {
      await runtime.close();
    }
    let recorded: string | null = null;
    if (parts.recorder) {
      mkdirSync(path.dirname(testCase.cassette), { recursive: true });
      writeFileAtomic(testCase.cassette, readFileSync(parts.recorder.file, 'utf8'));
      recorded = testCase.cassette;
    }
    return report(checkExpectations(testCase.expect, observation), promptChanges, recorded);
  } catch (error) {
    return report([{ what: 'session', detail: error instanceof ConfigError ? error.describe() : errorMessage(error) }]);
  } finally {
    rmSync(copy, { recursive: true, force: true });
    rmSync(staging, { recursive: true, force: true });
  }
}
