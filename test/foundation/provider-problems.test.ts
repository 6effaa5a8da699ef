/**
 * A provider that cannot work is said so before the first call (issue #32): an `api_key_env`
 * naming a variable that is not set would silently send no key — validate reports it and start
 * exits 2; `kind: local` with its model file and node-llama-cpp both missing is two validate errors,
 * not OK; an agent with tools on `kind: local` (which cannot call tools) is refused by validate and
 * start, naming the agent's file and its tools: line.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { buildDistOnce } from '../daemon/build-once.js';
import { cleanupAll, makeRoot, runCli, startDaemon } from '../daemon/daemon-helpers.js';

beforeAll(buildDistOnce, 180_000);
afterEach(cleanupAll);
afterAll(cleanupAll);

const UNSET_KEY =
  'timezone: UTC\nprovider: { kind: openai-compatible, model: m, base_url: "http://127.0.0.1:9/v1", api_key_env: GATEWAY_KEY_NOT_SET }\n';

describe('provider problems found before any call', () => {
  it('an api_key_env naming an unset variable: validate exits 1 and start exits 2, both naming the variable', async () => {
    const root = makeRoot(UNSET_KEY);
    const checked = await runCli(['validate', '--root', root]);
    expect(checked.code).toBe(1);
    expect(checked.stderr).toMatch(
      /provider\.api_key_env names GATEWAY_KEY_NOT_SET, which is not set in the environment/,
    );
    const started = await startDaemon(root).then(
      () => null,
      (error: unknown) => String(error),
    );
    expect(started).toMatch(/GATEWAY_KEY_NOT_SET/);
    // With the variable set, both pass.
    expect((await runCli(['validate', '--root', root], { env: { GATEWAY_KEY_NOT_SET: 'k' } })).code).toBe(0);
  }, 60_000);

  it('kind local with no model file and no node-llama-cpp: validate names both', async () => {
    const root = makeRoot('timezone: UTC\nprovider: { kind: local, model: models/missing.gguf }\n');
    const checked = await runCli(['validate', '--root', root], { env: { GOVFLOW_NODE_LLAMA_CPP_DIR: root } });
    expect(checked.code).toBe(1);
    expect(checked.stderr).toMatch(/model file .*missing\.gguf does not exist/);
    expect(checked.stderr).toMatch(/npm i node-llama-cpp@3/);
  }, 60_000);

  it('kind local with an agent that has tools: validate and start refuse, naming the agent and its tools: line', async () => {
    // The example's summarizer_agent has `tools: [write_file, list_files]` on line 7.
    const root = makeRoot('timezone: UTC\nprovider: { kind: local, model: models/missing.gguf }\n');
    const checked = await runCli(['validate', '--root', root], { env: { GOVFLOW_NODE_LLAMA_CPP_DIR: root } });
    expect(checked.code).toBe(1);
    expect(checked.stderr).toMatch(
      /summarizer_agent\.md:7.*agent "summarizer_agent": tools: provider\.kind local cannot offer tools/,
    );
    const started = await startDaemon(root, { env: { GOVFLOW_NODE_LLAMA_CPP_DIR: root } }).then(
      () => null,
      (error: unknown) => String(error),
    );
    expect(started).toMatch(/provider\.kind local cannot offer tools/);
  }, 60_000);
});
