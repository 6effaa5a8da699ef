/**
 * The conformance matrix for `kind: local` (a tiny GGUF model written at test time, run by
 * node-llama-cpp in the daemon): what it can do — the HTTP API, the chat endpoint in seed 003's
 * events, PII redaction before the prompt reaches the model, an output guardrail, traces, record
 * then replay — and what it cannot: tool calls. An agent with `tools:` or `delegates:` (the
 * `delegate` tool) is refused by `govflow validate` and by `govflow start`, in one line naming
 * the agent's file, line and the reason, never offered nothing silently.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { writeTinyGguf } from '../support/tiny-gguf-model.js';
import { buildDistOnce } from '../daemon/build-once.js';
import { cleanupAll, runCli, startDaemon } from '../daemon/daemon-helpers.js';
import { getJson, httpUrlOf, seed003Shape } from '../http/http-test-helpers.js';
import { auditEntries } from '../pipeline/pipeline-test-helpers.js';
import { skipsFor } from '../support/machine-requirement.js';
import { ensureNodeLlamaCpp } from '../support/node-llama-cpp-cache.js';
import { removeTempFolders } from '../support/temp-dirs.js';
import { OtlpReceiver } from '../telemetry/otlp-receiver.js';
import { checkCassettes, checkTraces, runFeatures, type FeatureRun } from './conformance-checks.js';
import { EMAIL, featureConfig, featureRoot, type Feature } from './conformance-features.js';

const installed = ensureNodeLlamaCpp();
const skipped = skipsFor('conformance: kind local', 'reason' in installed ? installed.reason : null);
const env: Record<string, string> = 'dir' in installed ? { GOVFLOW_NODE_LLAMA_CPP_DIR: installed.dir } : {};

const LOCAL = ['provider: { kind: local, model: models/tiny.gguf, local: { threads: 1, context_size: 4096 } }'];
/** The grammar holds the answer to three characters; the guardrail redacts any three. */
const DESK = [
  'output_schema: { type: object, additionalProperties: false, required: [answer], properties: { answer: { type: string, minLength: 3, maxLength: 3 } } }',
];
const GUARDRAIL = '{ name: three-chars, on: output, match: { regex: "^.{3}$" }, action: redact }';
const REDACTED = { answer: '[REDACTED:three-chars]' };
const FEATURES: Feature[] = ['chat', 'pii', 'guardrail'];

let collector: OtlpReceiver | undefined;

beforeAll(buildDistOnce, 240_000);
afterEach(async () => {
  await cleanupAll();
  await collector?.close();
  collector = undefined;
  removeTempFolders();
});

function localRoot(config: string, deskLines = DESK): string {
  const root = featureRoot(config, deskLines);
  mkdirSync(path.join(root, 'models'));
  writeTinyGguf(path.join(root, 'models', 'tiny.gguf'));
  return root;
}

/** What the local model did with each feature: every answer redacted by the guardrail, the address kept from the prompt. */
async function checkLocalOutcomes(root: string, runs: Map<Feature, FeatureRun>): Promise<Map<Feature, FeatureRun>> {
  const entries = await auditEntries(root);
  for (const run of runs.values()) {
    expect(run.result, run.feature).toMatchObject({ status: 'success', messages: 1, output: REDACTED });
    const [entry, ...others] = entries.filter((candidate) => candidate.sessionId === run.sessionId);
    expect(others).toEqual([]);
    expect(entry.guardrails).toEqual([{ rule: 'three-chars', action: 'redact' }]);
    if (run.feature === 'pii') {
      expect(entry.piiRedacted).toEqual({ email: 1 });
      expect(entry.input).toContain('[EMAIL_1]');
    }
  }
  const chat = runs.get('chat')!;
  expect(seed003Shape(chat.events)).toEqual([
    'message_start ["turn"]',
    'content_chunk ["chunk"]',
    'message_complete []',
  ]);
  expect(chat.events[0].data).toEqual({ turn: 0 });
  return runs;
}

const sessionsOf = (runs: Map<Feature, FeatureRun>) => [...runs.values()].map((run) => run.sessionId);

describe.skipIf(skipped)('conformance: local', () => {
  it('the API, chat in seed 003 events, PII, a guardrail and traces; recorded, then replayed', async () => {
    collector = await OtlpReceiver.start();
    const root = localRoot(featureConfig(LOCAL, collector.url, { guardrail: GUARDRAIL }));
    const daemon = await startDaemon(root, { env, readyTimeoutMs: 60_000 });
    const url = httpUrlOf(daemon.readyLine);
    const runs = await checkLocalOutcomes(root, await runFeatures(url, FEATURES, { sequential: false }));
    expect((await getJson(`${url}/v1/verify`)).body.ok).toBe(true);
    expect((await daemon.stop()).code).toBe(0);
    await checkTraces(root, collector.spans, sessionsOf(runs), {
      provider: 'local',
      calls: FEATURES.length,
      tools: [],
    });
    // The prompt the model got (the cassette holds it as given) had the placeholder, never the address.
    checkCassettes(root, FEATURES.length);
    expect(
      readFileSync(path.join(root, 'system', 'sessions', runs.get('pii')!.sessionId, 'pii-vault.json'), 'utf8'),
    ).toContain(EMAIL);

    writeFileSync(
      path.join(root, 'govflow.config.yaml'),
      featureConfig(['provider: { kind: replay, replay: { dir: cassettes, on_miss: fail } }'], collector.url, {
        record: false,
        guardrail: GUARDRAIL,
      }),
    );
    const replay = await startDaemon(root);
    const replayUrl = httpUrlOf(replay.readyLine);
    const replayed = await checkLocalOutcomes(root, await runFeatures(replayUrl, FEATURES, { sequential: false }));
    expect((await replay.stop()).code).toBe(0);
    await checkTraces(root, collector.spans, sessionsOf(replayed), {
      provider: 'replay',
      calls: FEATURES.length,
      tools: [],
    });
  }, 180_000);

  it.each([
    ['tools', 'tools: [list_files]'],
    ['delegates', 'delegates: [helper_agent]'],
  ])(
    'an agent with %s: validate and start refuse in one line naming the agent, its line and why',
    async (key, line) => {
      const root = localRoot(featureConfig(LOCAL, 'http://127.0.0.1:9', { guardrail: GUARDRAIL }), [...DESK, line]);
      // desk_agent.md: the frontmatter's line 2 is `name:`; the key is the 9th line.
      const named = new RegExp(
        `governance/agents/desk_agent\\.md:9: agent "desk_agent": ${key}: provider\\.kind local cannot offer tools`,
      );
      const checked = await runCli(['validate', '--root', root], { env });
      expect(checked.stderr).toMatch(named);
      expect(checked.code).toBe(1);
      const started = await runCli(['start', '--root', root], { env, timeoutMs: 60_000 });
      expect(started.stderr.split('\n').filter((text) => named.test(text))).toHaveLength(1);
      expect(started.code).toBe(2);
    },
    90_000,
  );
});
