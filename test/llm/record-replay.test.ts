/**
 * Record and replay (SPEC §13): cassettes written by the recording wrapper (our providers) and by
 * the AI SDK middleware (a loopback server in OpenAI's wire format), answered again by the replay
 * provider, streamed or not; misses name the agent, the changed governance file and show a diff.
 */
import { appendFileSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/config-loader.js';
import { ConfigError } from '../../src/errors.js';
import {
  CASSETTE_FORMAT,
  normalizeVolatile,
  parseCassette,
  promptFileHashes,
  promptKey,
  type Cassette,
} from '../../src/llm/cassette-format.js';
import { createProvider } from '../../src/llm/create-provider.js';
import type { LlmRequest } from '../../src/llm/provider.js';
import { captureSlots, type CaptureSlot } from '../../src/llm/capture-slots.js';
import { withRecording } from '../../src/llm/recording-middleware.js';
import { CassetteRecorder, recordingProvider } from '../../src/llm/recording-provider.js';
import { ReplayMissError } from '../../src/llm/replay-miss.js';
import { ReplayProvider } from '../../src/llm/replay-provider.js';
import { ScriptedProvider } from '../../src/llm/scripted-provider.js';
import { makeTempFolder, removeTempFolders } from '../support/temp-dirs.js';
import { createAiSdkProvider, startLoopbackLlmServer } from './loopback-llm-server.js';
import { runCli } from '../pipeline/pipeline-test-helpers.js';
import { REPOSITORY_ROOT, copyExampleAppInto } from '../support/example-app.js';

afterEach(() => removeTempFolders());

const RULE = '='.repeat(72);
const systemWith = (policy: string) =>
  `${RULE}\n[FILE: governance/policy.md]\n${RULE}\n${policy}\n\n${RULE}\n[FILE: governance/agents/writer.md]\n${RULE}\nWrite ` +
  `well.\n\n${RULE}\n[SYSTEM PROTOCOL: RESPONSE FORMAT]\n${RULE}\nAnswer in JSON.\n`;

function request(overrides: Partial<LlmRequest> = {}): LlmRequest {
  return {
    agent: 'writer',
    system: systemWith('Be brief.'),
    prompt: 'Input (JSON):\n{"message_id":"6f1c2a0e-1111-4222-8333-444455556666","at":"2026-11-23T17:01:02.123+08:00"}',
    model: 'gpt-4.1-mini',
    signal: new AbortController().signal,
    ...overrides,
  };
}

function readOnlyCassette(folder: string): Cassette {
  const files = readdirSync(folder);
  expect(files).toHaveLength(1);
  return parseCassette(readFileSync(path.join(folder, files[0]), 'utf8'), files[0]);
}

describe('cassette keys', () => {
  it('ignore per-run ids and timestamps but not the text around them', () => {
    const first = request();
    const second = request({
      prompt: first.prompt.replace('6f1c2a0e', '7a2b3c4d').replace('17:01:02.123', '09:00:00.000'),
    });
    expect(promptKey(first)).toBe(promptKey(second));
    expect(promptKey(request({ prompt: `${first.prompt} more` }))).not.toBe(promptKey(first));
    expect(normalizeVolatile('sess-20261123-170102-ab12cd34 req-20261123-170102-x1y2z3')).toBe('<session> <request>');
  });

  it('hash each [FILE: …] block of the system prompt separately', () => {
    const before = promptFileHashes(systemWith('Be brief.'));
    const after = promptFileHashes(systemWith('Be thorough.'));
    expect(Object.keys(before)).toEqual(['governance/policy.md', 'governance/agents/writer.md']);
    expect(after['governance/agents/writer.md']).toBe(before['governance/agents/writer.md']);
    expect(after['governance/policy.md']).not.toBe(before['governance/policy.md']);
  });
});

describe('recording our own providers and replaying them', () => {
  it('round-trips several answers per key in call order, streamed or not', async () => {
    const folder = makeTempFolder('govflow-cassette-');
    const scripted = new ScriptedProvider({
      responses: { writer: ['{"n":1}', { text: '{"n":2}', usage: { input_tokens: 7, output_tokens: 3 } }] },
    });
    const recorder = new CassetteRecorder(path.join(folder, 'run.cassette.json'));
    const recording = recordingProvider(scripted, recorder);
    expect((await recording.generate(request())).text).toBe('{"n":1}');
    expect((await recording.generate(request())).text).toBe('{"n":2}');
    const cassette = readOnlyCassette(folder);
    expect(cassette.format).toBe(CASSETTE_FORMAT);
    expect(cassette.calls.map((call) => [call.agent, call.provider, call.answer.text])).toEqual([
      ['writer', 'scripted', '{"n":1}'],
      ['writer', 'scripted', '{"n":2}'],
    ]);
    expect(Object.keys(cassette.systems)).toHaveLength(1);
    expect(cassette.calls[1].answer.usage).toEqual({ input_tokens: 7, output_tokens: 3, cached_input_tokens: 0 });

    const replay = ReplayProvider.fromTarget(folder);
    const chunks: string[] = [];
    // Another run: new ids and times in the prompt, same key.
    const again = request({
      prompt: request().prompt.replace('6f1c2a0e', '00000000'),
      onChunk: (chunk) => chunks.push(chunk),
    });
    expect((await replay.generate(again)).text).toBe('{"n":1}');
    const second = await replay.generate(request());
    expect(second).toMatchObject({ text: '{"n":2}', provider: 'replay', usage: { inputTokens: 7, outputTokens: 3 } });
    expect(chunks.join('')).toBe('{"n":1}');
    await expect(replay.generate(request())).rejects.toThrow(
      /made this call more often than recorded: the cassettes hold 2 answer/,
    );
  });

  it('a miss names the agent, the governance file whose text changed, and shows the diff', async () => {
    const folder = makeTempFolder('govflow-cassette-');
    const recording = recordingProvider(
      new ScriptedProvider({ responses: { writer: ['{}'] } }),
      new CassetteRecorder(path.join(folder, 'a.json')),
    );
    await recording.generate(request());
    const replay = ReplayProvider.fromTarget(folder);
    const error = await replay
      .generate(request({ system: systemWith('Be thorough.') }))
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ReplayMissError);
    const miss = error as ReplayMissError;
    expect(miss.retryable).toBe(false);
    expect(miss.details.governanceFileChanges).toEqual({ added: [], removed: [], changed: ['governance/policy.md'] });
    expect(miss.message).toContain('agent "writer"');
    expect(miss.message).toContain('governance files whose text changed since the recording: governance/policy.md');
    expect(miss.message).toContain('- Be brief.');
    expect(miss.message).toContain('+ Be thorough.');
    await expect(replay.generate(request({ agent: 'reviewer' }))).rejects.toThrow(
      'no recorded answer for agent "reviewer" (model call 2 of the session, its 1st): the cassettes hold no call of it (they hold writer)',
    );
  });

  it('rejects cassettes of another format version, naming the file', () => {
    const folder = makeTempFolder('govflow-cassette-');
    const file = path.join(folder, 'old.json');
    writeFileSync(file, JSON.stringify({ format: CASSETTE_FORMAT, version: 99, systems: {}, calls: [] }));
    expect(() => ReplayProvider.fromTarget(folder)).toThrow(ConfigError);
    try {
      ReplayProvider.fromTarget(file);
    } catch (error) {
      expect((error as ConfigError).describe()).toMatch(/old\.json: cassette format version 99 is not supported/);
    }
    writeFileSync(file, '{"not": "a cassette"');
    expect(() => ReplayProvider.fromTarget(file)).toThrow(/invalid JSON/);
    expect(() => ReplayProvider.fromTarget(path.join(folder, 'missing'))).toThrow(/does not exist/);
  });
});

describe('frozen cassettes of every version', () => {
  it('version 1 (test/fixtures/cassettes/cassette-v1.json, never regenerated) still replays', async () => {
    const fixture = path.join(REPOSITORY_ROOT, 'test', 'fixtures', 'cassettes', 'cassette-v1.json');
    const replay = ReplayProvider.fromTarget(fixture);
    const RULE_LINE = '='.repeat(72);
    const system =
      `${RULE_LINE}\n[FILE: governance/policy.md]\n${RULE_LINE}\nBe brief.\n\n${RULE_LINE}\n[SYSTEM PROTOCOL: RESPONSE ` +
      `FORMAT]\n${RULE_LINE}\nAnswer in JSON.\n`;
    const answer = await replay.generate({
      agent: 'writer',
      system,
      prompt: 'User request:\nWrite.',
      model: 'gpt-4.1-mini',
      signal: new AbortController().signal,
    });
    expect(answer).toMatchObject({
      text: '{"frozen":1}',
      usage: { inputTokens: 9, outputTokens: 4, cachedInputTokens: 0 },
    });
  });
});

describe('configuration', () => {
  it('llm.record wraps the configured provider and kind replay reads provider.replay.dir', async () => {
    const root = makeTempFolder('govflow-record-root-');
    writeFileSync(path.join(root, 'govflow.config.yaml'), 'llm: { record: cassettes }\n');
    const recorded = await createProvider(loadConfig(root, {}), {});
    expect(recorded.kind).toBe('dry-run');
    expect(recorded.synthetic).toBe(true);
    const expectation = {
      contentType: 'notes',
      next: [],
      agentType: 'operational',
      plan: false,
      executionalAgents: [],
      governanceFiles: [],
      outputSchema: null,
    };
    const answer = await recorded.generate(request({ expectation }));
    writeFileSync(
      path.join(root, 'govflow.config.yaml'),
      'provider:\n  kind: replay\n  replay: { dir: cassettes, on_miss: fail }\n',
    );
    const replay = await createProvider(loadConfig(root, {}), {});
    expect(replay.kind).toBe('replay');
    expect((await replay.generate(request({ expectation }))).text).toBe(answer.text);
    writeFileSync(
      path.join(root, 'govflow.config.yaml'),
      'provider:\n  kind: replay\n  replay: { dir: cassettes, on_miss: ignore }\n',
    );
    expect(() => loadConfig(root, {})).toThrow(/on_miss/);
    writeFileSync(path.join(root, 'govflow.config.yaml'), 'provider: { kind: replay }\n');
    await expect(createProvider(loadConfig(root, {}), {})).rejects.toThrow(/add provider.replay: \{ dir:/);
  });
});

describe('govflow run --record, then kind replay', () => {
  it('records a whole session and replays it to the same result, offline', async () => {
    const root = makeTempFolder('govflow-record-run-');
    copyExampleAppInto(root);
    writeFileSync(path.join(root, 'note.txt'), 'Summarize: Ana sends the budget by Friday.');
    const recorded = await runCli([
      'run',
      path.join(root, 'note.txt'),
      '--root',
      root,
      '--json',
      '--record',
      path.join(root, 'cassettes'),
    ]);
    expect(recorded.code).toBe(0);
    expect(recorded.stderr).toMatch(/^recorded 6 model call\(s\) to .*cassettes\/\d{8}-\d{6}-\d+\.cassette\.json$/m);
    writeFileSync(
      path.join(root, 'govflow.config.yaml'),
      'provider:\n  kind: replay\n  replay: { dir: cassettes, on_miss: fail }\n',
    );
    const replayed = await runCli(['run', path.join(root, 'note.txt'), '--root', root, '--json']);
    expect(replayed.code).toBe(0);
    const [first, second] = [JSON.parse(recorded.stdout), JSON.parse(replayed.stdout)];
    expect(second.output).toEqual(first.output);
    expect(second.messages).toBe(6);
    expect(second.usage.input_tokens).toBe(first.usage.input_tokens);
    const logs = await runCli(['logs', '--root', root, '--json']);
    // Replayed dry-run answers are still marked as made up by dry-run in the audit trail.
    expect(
      JSON.parse(logs.stdout).filter((entry: { complianceNotes: string | null }) =>
        String(entry.complianceNotes).includes('dry-run'),
      ).length,
    ).toBeGreaterThanOrEqual(12);
  });
});

describe('a replay miss, as the user sees it', () => {
  it(
    'leads with the first miss of the session — its agent, its call, why no recording matched, unescaped — not with the agent downstream ' +
      'that missed because of it',
    async () => {
      const root = makeTempFolder('govflow-replay-miss-');
      copyExampleAppInto(root);
      const note = path.join(root, 'note.txt');
      writeFileSync(
        note,
        'Summarize this meeting note and list its action items with owners: Ana sends the budget by Friday.',
      );
      const recorded = await runCli(['run', note, '--root', root, '--json', '--record', path.join(root, 'cassettes')]);
      expect(recorded.code).toBe(0);
      writeFileSync(
        path.join(root, 'govflow.config.yaml'),
        'provider:\n  kind: replay\n  replay: { dir: cassettes, on_miss: fail }\n',
      );
      appendFileSync(path.join(root, 'governance', 'agents', 'summarizer_agent.md'), '\nAlways answer in haiku.\n');

      const replayed = await runCli(['run', note, '--root', root, '--json']);
      expect(replayed.code).toBe(1);
      const result = JSON.parse(replayed.stdout) as {
        status: string;
        message: string;
        request_id: string;
        error: { error_message: string };
      };
      expect(result.status).toBe('failed');
      const outbox = JSON.parse(
        readFileSync(path.join(root, 'system', 'outbox', `${result.request_id}.json`), 'utf8'),
      ) as typeof result;
      for (const text of [result.message, result.error.error_message, outbox.message, outbox.error.error_message]) {
        expect(text).toMatch(
          /^replay: no recorded answer for agent "summarizer_agent" \(model call \d+ of the session, its 1st\)/,
        );
        expect(text).toContain(
          'governance files whose text changed since the recording: governance/agents/summarizer_agent.md',
        );
        expect(text).toContain('\n+ Always answer in haiku.');
        // The agent that missed because of it comes after, without its input's escaped JSON.
        expect(text).toMatch(
          /\n\nThen agent "final_output_agent" \(model call \d+ of the session, its 1st\) had no recorded answer either/,
        );
        expect(text).not.toContain('\\"');
      }
      const text = await runCli(['run', note, '--root', root]);
      expect(text.stdout).toMatch(/^message: replay: no recorded answer for agent "summarizer_agent"/m);
    },
  );
});

describe('the AI SDK recording middleware', () => {
  for (const stream of [true, false]) {
    it(`records the model's own answer and usage (${stream ? 'streamed' : 'whole'})`, async () => {
      const server = await startLoopbackLlmServer();
      try {
        const folder = makeTempFolder('govflow-cassette-');
        const provider = createAiSdkProvider({
          kind: 'openai-compatible',
          model: 'local-model',
          baseUrl: `${server.url}/v1`,
          apiKey: null,
          maxAttempts: 1,
          timeoutMs: 5_000,
          stream,
          wrapModel: withRecording,
        });
        const recorder = new CassetteRecorder(path.join(folder, 'ai.json'));
        server.reply({
          kind: 'text',
          text: '{"ok":true}',
          usage: { inputTokens: 12, outputTokens: 4, cachedInputTokens: 2 },
          model: 'served-model',
        });
        const response = await recordingProvider(provider, recorder).generate(request({ model: 'local-model' }));
        expect(response.text).toBe('{"ok":true}');
        const [call] = readOnlyCassette(folder).calls;
        expect(call).toMatchObject({ agent: 'writer', provider: 'openai-compatible', model: 'local-model' });
        expect(call.answer).toMatchObject({
          text: '{"ok":true}',
          model: 'served-model',
          tool_calls: [],
          usage: { input_tokens: 12, output_tokens: 4, cached_input_tokens: 2 },
        });
        expect(call.answer.finish_reason).toBe('stop');
        // The capture slot is filled by the middleware itself, at the model layer.
        const slot: CaptureSlot = { answer: null };
        server.reply({ kind: 'text', text: '{"slot":1}', usage: { inputTokens: 5, outputTokens: 1 } });
        await captureSlots.run(slot, () => provider.generate(request({ model: 'local-model' })));
        expect(slot.answer).toMatchObject({ text: '{"slot":1}', usage: { input_tokens: 5, output_tokens: 1 } });
        // Outside a recording the middleware passes answers through untouched.
        server.reply({ kind: 'text', text: '{"plain":1}' });
        expect((await provider.generate(request({ model: 'local-model' }))).text).toBe('{"plain":1}');
        expect(recorder.callCount).toBe(1);
      } finally {
        await server.close();
      }
    });
  }
});

describe('tool calls', () => {
  it('are recorded with the answer and replayed with their govflow names and parsed inputs', async () => {
    const folder = makeTempFolder('govflow-cassette-tools-');
    const scripted = new ScriptedProvider({
      responses: {
        writer: [
          { tool_calls: [{ id: 'c1', name: 'write_file', input: { path: 'a.md', content: '# A' } }] },
          '{"done":true}',
        ],
      },
    });
    const recording = recordingProvider(scripted, new CassetteRecorder(path.join(folder, 'tools.cassette.json')));
    const offer = { name: 'write_file', description: 'Writes a file.', inputSchema: { type: 'object' } };
    const first = await recording.generate(request({ tools: [offer] }));
    expect(first.toolCalls).toEqual([{ id: 'c1', name: 'write_file', input: { path: 'a.md', content: '# A' } }]);
    await recording.generate(request({ tools: [offer], prompt: `${request().prompt}\nagain` }));
    const cassette = readOnlyCassette(folder);
    expect(cassette.calls[0].answer.tool_calls).toEqual([
      { id: 'c1', name: 'write_file', input: '{"path":"a.md","content":"# A"}' },
    ]);

    const replay = ReplayProvider.fromTarget(folder);
    const replayed = await replay.generate(request({ tools: [offer] }));
    expect(replayed.toolCalls).toEqual([{ id: 'c1', name: 'write_file', input: { path: 'a.md', content: '# A' } }]);
    expect(
      (await replay.generate(request({ tools: [offer], prompt: `${request().prompt}\nagain` }))).toolCalls,
    ).toBeUndefined();
  });
});
