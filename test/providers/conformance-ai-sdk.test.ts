/**
 * The conformance matrix for the AI SDK kinds (openai, openai-compatible, ollama, anthropic,
 * google): per kind, one `govflow start` child process against a loopback server speaking the
 * kind's wire format runs every feature a user combines at once (conformance-features.ts) — the
 * chat endpoint through a tool call in seed 003's events, an approval answered over HTTP, PII
 * redaction, an output guardrail's retry, a delegation — with traces exported to a loopback OTLP
 * collector and every call recorded to cassettes. Then a second daemon on the same root, with
 * `kind: replay` and the server gone, runs the same features from those cassettes.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { buildDistOnce } from '../daemon/build-once.js';
import { cleanupAll, startDaemon } from '../daemon/daemon-helpers.js';
import { getJson, httpUrlOf } from '../http/http-test-helpers.js';
import { removeTempFolders } from '../support/temp-dirs.js';
import { OtlpReceiver } from '../telemetry/otlp-receiver.js';
import { checkCassettes, checkOutcomes, checkTraces, checkWire, runFeatures } from './conformance-checks.js';
import { FEATURES, featureConfig, featureResponder, featureRoot } from './conformance-features.js';
import { KINDS, providerLines } from './provider-kinds.js';
import { startResponderLlmServer, type ResponderLlmServer } from './responder-llm-server.js';

let server: ResponderLlmServer | undefined;
let collector: OtlpReceiver | undefined;

beforeAll(buildDistOnce, 240_000);
afterEach(async () => {
  await cleanupAll();
  await server?.close();
  await collector?.close();
  server = undefined;
  collector = undefined;
  removeTempFolders();
});

describe.each(KINDS)('conformance: $kind', (testCase) => {
  it('chat with a tool call, approval, PII, guardrail, delegation and traces over its wire; recorded, then replayed with no server', async () => {
    server = await startResponderLlmServer(featureResponder);
    collector = await OtlpReceiver.start();
    const root = featureRoot(featureConfig(providerLines(testCase, server.url + testCase.basePath), collector.url));
    const daemon = await startDaemon(root, { env: { [testCase.keyEnv]: testCase.key } });
    const url = httpUrlOf(daemon.readyLine);
    const runs = await runFeatures(url, FEATURES, { sequential: false });
    const sessions = await checkOutcomes(root, runs);
    checkWire(server, testCase);
    expect((await getJson(`${url}/v1/verify`)).body.ok).toBe(true);
    expect((await daemon.stop()).code).toBe(0);
    await checkTraces(root, collector.spans, sessions, { provider: testCase.spanProvider });
    checkCassettes(root);

    // Replay: the same features answered from the cassettes, with no server to ask.
    await server.close();
    writeFileSync(
      path.join(root, 'govflow.config.yaml'),
      featureConfig(['provider: { kind: replay, replay: { dir: cassettes, on_miss: fail } }'], collector.url, {
        record: false,
      }),
    );
    const replay = await startDaemon(root);
    const replayUrl = httpUrlOf(replay.readyLine);
    const replayed = await runFeatures(replayUrl, FEATURES, { sequential: false });
    const replayedSessions = await checkOutcomes(root, replayed);
    expect((await getJson(`${replayUrl}/v1/verify`)).body.ok).toBe(true);
    expect((await replay.stop()).code).toBe(0);
    await checkTraces(root, collector.spans, replayedSessions, { provider: 'replay' });
  }, 120_000);
});
