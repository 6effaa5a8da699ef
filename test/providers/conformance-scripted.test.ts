/**
 * The conformance matrix for the kinds without a server: `scripted` runs every feature a user
 * combines (conformance-features.ts) from a script file — one request after the other, since a
 * script answers each agent's calls in its file's order — with traces and cassettes, the same
 * checks as the AI SDK kinds; then `replay` runs them all at once from those cassettes.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { buildDistOnce } from '../daemon/build-once.js';
import { cleanupAll, startDaemon } from '../daemon/daemon-helpers.js';
import { getJson, httpUrlOf } from '../http/http-test-helpers.js';
import { removeTempFolders } from '../support/temp-dirs.js';
import { OtlpReceiver } from '../telemetry/otlp-receiver.js';
import { checkCassettes, checkOutcomes, checkTraces, runFeatures } from './conformance-checks.js';
import { FEATURES, featureConfig, featureRoot, featureScript } from './conformance-features.js';

let collector: OtlpReceiver | undefined;

beforeAll(buildDistOnce, 240_000);
afterEach(async () => {
  await cleanupAll();
  await collector?.close();
  collector = undefined;
  removeTempFolders();
});

describe('conformance: scripted, then replay', () => {
  it('scripted: chat with a tool call, approval, PII, guardrail, delegation and traces; replay: the same from its cassettes', async () => {
    collector = await OtlpReceiver.start();
    const root = featureRoot(featureConfig(['provider: { kind: scripted, script: script.json }'], collector.url));
    writeFileSync(path.join(root, 'script.json'), featureScript());
    const daemon = await startDaemon(root);
    const url = httpUrlOf(daemon.readyLine);
    const sessions = await checkOutcomes(root, await runFeatures(url, FEATURES, { sequential: true }));
    expect((await getJson(`${url}/v1/verify`)).body.ok).toBe(true);
    expect((await daemon.stop()).code).toBe(0);
    await checkTraces(root, collector.spans, sessions, { provider: 'scripted' });
    checkCassettes(root);

    writeFileSync(
      path.join(root, 'govflow.config.yaml'),
      featureConfig(['provider: { kind: replay, replay: { dir: cassettes, on_miss: fail } }'], collector.url, {
        record: false,
      }),
    );
    const replay = await startDaemon(root);
    const replayUrl = httpUrlOf(replay.readyLine);
    const replayedSessions = await checkOutcomes(root, await runFeatures(replayUrl, FEATURES, { sequential: false }));
    expect((await getJson(`${replayUrl}/v1/verify`)).body.ok).toBe(true);
    expect((await replay.stop()).code).toBe(0);
    await checkTraces(root, collector.spans, replayedSessions, { provider: 'replay' });
  }, 120_000);
});
