/**
 * Provider `kind: local` (SPEC §13) for real: a tiny GGUF model written at test time, run by
 * node-llama-cpp (installed once into a cached temp folder, see node-llama-cpp-cache.ts), with
 * answers constrained by the grammar from the message schema and the agent's output_schema.
 * Bad input — corrupt or incomplete GGUF files, a model outside the root, a missing
 * node-llama-cpp — gives clear errors and never reaches llama.cpp.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/config-loader.js';
import { ConfigError, ProviderError } from '../../src/errors.js';
import { createProvider } from '../../src/llm/create-provider.js';
import { readGgufHeader } from '../../src/llm/gguf-header.js';
import { messageGrammarSchema, toGrammarSchema } from '../../src/llm/grammar-schema.js';
import { INSTALL_HINT, LocalProvider, checkModelFile } from '../../src/llm/local-provider.js';
import type { LlmRequest } from '../../src/llm/provider.js';
import { compileSchema } from '../../src/message/schema-compiler.js';
import { SENTIENT_MESSAGE_SCHEMA } from '../../src/message/sentient-message.js';
import { ensureNodeLlamaCpp } from '../support/node-llama-cpp-cache.js';
import { skipsFor } from '../support/machine-requirement.js';
import { runCli } from '../pipeline/pipeline-test-helpers.js';
import { REPOSITORY_ROOT, buildDistOnce } from '../daemon/build-once.js';
import { copyExampleAppInto } from '../support/example-app.js';
import { makeTempFolder, removeTempFolders } from '../support/temp-dirs.js';
import { tinyGguf, writeTinyGguf } from '../support/tiny-gguf-model.js';

afterAll(() => removeTempFolders());

const OUTPUT_SCHEMA = {
  type: 'object',
  additionalProperties: false,
  required: ['summary', 'items'],
  properties: {
    summary: { type: 'string', maxLength: 40 },
    items: { type: 'array', maxItems: 2, items: { type: 'string', pattern: '^[a-z]+$' } },
  },
};
const MESSAGE_SCHEMA = SENTIENT_MESSAGE_SCHEMA as unknown as Record<string, unknown>;

function request(overrides: Partial<LlmRequest> = {}): LlmRequest {
  return {
    agent: 'summarizer_agent',
    system: 'Answer with one JSON message.',
    prompt: 'User request:\nSummarize.',
    model: '',
    temperature: 0,
    maxTokens: 600,
    jsonSchema: MESSAGE_SCHEMA,
    expectation: {
      contentType: 'summary',
      next: ['final_output_agent'],
      agentType: 'executional',
      plan: false,
      executionalAgents: [],
      governanceFiles: [],
      outputSchema: OUTPUT_SCHEMA,
    },
    signal: new AbortController().signal,
    ...overrides,
  };
}

describe('the grammar schema', () => {
  it('keeps what the grammar supports, drops the rest, and pins what the orchestrator owns', () => {
    expect(toGrammarSchema({ type: ['string', 'null'], pattern: 'x' })).toEqual({ type: ['string', 'null'] });
    expect(toGrammarSchema({ anyOf: [{ type: 'integer', minimum: 3 }, { const: 'x' }] })).toEqual({
      oneOf: [{ type: 'integer' }, { const: 'x' }],
    });
    expect(toGrammarSchema({ $ref: '#/definitions/a', definitions: { a: { enum: ['p', 'q'] } } })).toEqual({
      enum: ['p', 'q'],
    });
    expect(
      toGrammarSchema({
        type: ['object', 'null'],
        properties: { a: { type: 'string', maxLength: 3 } },
        required: ['a'],
        additionalProperties: false,
      }),
    ).toEqual({
      oneOf: [
        {
          type: 'object',
          properties: { a: { type: 'string', maxLength: 3 } },
          required: ['a'],
          additionalProperties: false,
        },
        { type: 'null' },
      ],
    });
    const grammar = messageGrammarSchema(MESSAGE_SCHEMA, request().expectation!) as { properties: Record<string, any> };
    expect(grammar.properties.message_id).toEqual({ type: 'null' });
    expect(grammar.properties.metadata).toEqual({ type: 'null' });
    expect(grammar.properties.next_agent.properties.name).toEqual({ enum: ['final_output_agent', null] });
    expect(grammar.properties.output.properties.content_type).toEqual({ enum: ['summary', null] });
    expect(grammar.properties.output.properties.content.oneOf[0].properties.items).toEqual({
      type: 'array',
      maxItems: 2,
      items: { type: 'string' },
    });
  });
});

describe('model files', () => {
  it('refuse corrupt, truncated, incomplete and outside-the-root files with the reason', () => {
    const root = makeTempFolder('govflow-local-root-');
    const outside = makeTempFolder('govflow-local-outside-');
    writeFileSync(path.join(root, 'garbage.gguf'), 'this is not a model');
    expect(() => checkModelFile(root, 'garbage.gguf', false)).toThrow(
      /not a GGUF model file \(it does not start with "GGUF"\)/,
    );
    writeFileSync(path.join(root, 'cut.gguf'), tinyGguf().subarray(0, 3000));
    expect(() => checkModelFile(root, 'cut.gguf', false)).toThrow(/the file ends inside its header/);
    writeTinyGguf(path.join(root, 'no-types.gguf'), {
      omitKeys: ['tokenizer.ggml.token_type', 'llama.feed_forward_length'],
    });
    expect(() => checkModelFile(root, 'no-types.gguf', false)).toThrow(
      /its metadata lacks llama.feed_forward_length, tokenizer.ggml.token_type/,
    );
    expect(() => checkModelFile(root, 'missing.gguf', false)).toThrow(/does not exist/);
    writeTinyGguf(path.join(outside, 'tiny.gguf'));
    symlinkSync(path.join(outside, 'tiny.gguf'), path.join(root, 'linked.gguf'));
    expect(() => checkModelFile(root, path.join(outside, 'tiny.gguf'), false)).toThrow(
      /is outside the root .*allow_outside_root: true/,
    );
    expect(() => checkModelFile(root, 'linked.gguf', false)).toThrow(/is outside the root/);
    expect(checkModelFile(root, 'linked.gguf', true)).toBe(path.join(outside, 'tiny.gguf'));
    const header = readGgufHeader(path.join(outside, 'tiny.gguf'));
    expect(header).toMatchObject({ version: 3, architecture: 'llama' });
  });

  it('say in one line how to install node-llama-cpp when it is missing', async () => {
    const root = makeTempFolder('govflow-local-root-');
    writeTinyGguf(path.join(root, 'tiny.gguf'));
    writeFileSync(path.join(root, 'govflow.config.yaml'), 'provider: { kind: local, model: tiny.gguf }\n');
    const config = loadConfig(root, {});
    const empty = makeTempFolder('govflow-no-llama-');
    let error: unknown;
    try {
      await createProvider(config, { GOVFLOW_NODE_LLAMA_CPP_DIR: empty });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as Error).message.split('\n')).toHaveLength(1);
    expect((error as Error).message).toContain('npm i node-llama-cpp@3');
    expect(INSTALL_HINT).toContain('npm i node-llama-cpp@3');
  });
});

describe('govflow start without node-llama-cpp', () => {
  it('exits 2 at start with one line saying npm i node-llama-cpp@3', async () => {
    await buildDistOnce();
    const root = makeTempFolder('govflow-local-start-');
    copyExampleAppInto(root);
    // A local model cannot call tools: the example's tool-using agent goes without them here.
    const summarizer = path.join(root, 'governance', 'agents', 'summarizer_agent.md');
    writeFileSync(summarizer, readFileSync(summarizer, 'utf8').replace(/^tools:.*\n/m, ''));
    writeTinyGguf(path.join(root, 'tiny.gguf'));
    writeFileSync(path.join(root, 'govflow.config.yaml'), 'provider: { kind: local, model: tiny.gguf }\n');
    const child = spawnSync(
      process.execPath,
      [path.join(REPOSITORY_ROOT, 'bin', 'govflow.js'), 'start', '--root', root],
      { encoding: 'utf8', timeout: 60_000, env: { PATH: process.env.PATH } },
    );
    expect(child.status).toBe(2);
    const lines = child.stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain('npm i node-llama-cpp@3');
  }, 200_000);
});

const installed = ensureNodeLlamaCpp();
const moduleDir = 'dir' in installed ? installed.dir : null;
// bench/local-model.mjs times this model, from beside the module.
if (moduleDir) writeTinyGguf(path.join(moduleDir, 'tiny.gguf'));
const skipped = skipsFor('local provider: real-model tests', 'reason' in installed ? installed.reason : null);

describe.skipIf(skipped)('a real tiny model through node-llama-cpp', () => {
  let root: string;
  let provider: LocalProvider;

  beforeAll(async () => {
    root = makeTempFolder('govflow-local-model-');
    mkdirSync(path.join(root, 'models'));
    writeTinyGguf(path.join(root, 'models', 'tiny.gguf'));
    writeFileSync(
      path.join(root, 'govflow.config.yaml'),
      'provider:\n  kind: local\n  model: models/tiny.gguf\n  local: { threads: 1, context_size: 512 }\n',
    );
    provider = (await createProvider(loadConfig(root, {}), {
      GOVFLOW_NODE_LLAMA_CPP_DIR: moduleDir!,
    })) as LocalProvider;
    expect(provider.kind).toBe('local');
  });

  it('answers with a message the grammar constrained, output_schema included, streamed', async () => {
    const chunks: string[] = [];
    const response = await provider.generate(request({ onChunk: (chunk) => chunks.push(chunk) }));
    const message = JSON.parse(response.text);
    const grammarValid = compileSchema(messageGrammarSchema(MESSAGE_SCHEMA, request().expectation!));
    expect(grammarValid(message), JSON.stringify(grammarValid.errors)).toBe(true);
    expect(message.output.content).toEqual({ summary: '', items: [''] });
    // The grammar cannot say `pattern`: ajv still checks it, as for every provider.
    const outputValid = compileSchema(OUTPUT_SCHEMA);
    expect(outputValid(message.output.content)).toBe(false);
    expect(outputValid.errors?.[0]).toMatchObject({ instancePath: '/items/0', keyword: 'pattern' });
    expect(message.message_id).toBeNull();
    expect(['final_output_agent', null]).toContain(message.next_agent.name);
    expect(chunks.join('')).toBe(response.text);
    expect(response).toMatchObject({ provider: 'local', model: 'tiny.gguf' });
    expect(response.usage.outputTokens).toBeGreaterThan(0);
    // Greedy decoding of this model is deterministic.
    expect((await provider.generate(request())).text).toBe(response.text);
  }, 120_000);

  it('builds a grammar from custom message schemas too (draft-07 and 2020-12 fixtures)', async () => {
    for (const name of ['message-schema-draft07.json', 'message-schema-2020-12.json']) {
      const schema = JSON.parse(
        readFileSync(path.join(REPOSITORY_ROOT, 'test', 'fixtures', 'foundation', name), 'utf8'),
      );
      const response = await provider.generate(request({ jsonSchema: schema }));
      const message = JSON.parse(response.text);
      const grammarValid = compileSchema(messageGrammarSchema(schema, request().expectation!));
      expect(grammarValid(message), `${name}: ${JSON.stringify(grammarValid.errors)}`).toBe(true);
    }
  }, 120_000);

  it('runs a whole session through govflow run, validated and audited like any provider', async () => {
    const appRoot = makeTempFolder('govflow-local-app-');
    mkdirSync(path.join(appRoot, 'models'));
    writeTinyGguf(path.join(appRoot, 'models', 'tiny.gguf'));
    writeFileSync(
      path.join(appRoot, 'govflow.config.yaml'),
      [
        'timezone: UTC',
        'provider: { kind: local, model: models/tiny.gguf, local: { threads: 1, context_size: 4096 } }',
        'prompt: { include: [] }',
        'agents:',
        '  solo_agent: { type: operational, description: Answers the request in one message., entry: true, content_type: answer }',
      ].join('\n'),
    );
    writeFileSync(path.join(appRoot, 'request.txt'), 'Say hello.');
    const run = await runCli(['run', path.join(appRoot, 'request.txt'), '--root', appRoot, '--json'], {
      env: { GOVFLOW_NODE_LLAMA_CPP_DIR: moduleDir! },
    });
    expect(run.stderr).toBe('');
    const result = JSON.parse(run.stdout);
    expect(result).toMatchObject({ status: 'success', messages: 1, output: '' });
    expect(result.usage.output_tokens).toBeGreaterThan(0);
    expect(run.code).toBe(0);
    const verify = await runCli(['verify', '--root', appRoot]);
    expect(verify.code).toBe(0);
  }, 180_000);

  it("refuses an agent's model override outside the root or corrupt, and keeps working", async () => {
    const outside = makeTempFolder('govflow-local-outside-');
    writeTinyGguf(path.join(outside, 'other.gguf'));
    const outsideCall = await provider
      .generate(request({ model: path.join(outside, 'other.gguf') }))
      .catch((error: unknown) => error);
    expect(outsideCall).toBeInstanceOf(ProviderError);
    expect((outsideCall as Error).message).toMatch(/is outside the root/);
    writeFileSync(
      path.join(root, 'models', 'broken.gguf'),
      Buffer.concat([Buffer.from('GGUF'), Buffer.alloc(4, 0xff)]),
    );
    await expect(provider.generate(request({ model: 'models/broken.gguf' }))).rejects.toThrow(
      /GGUF version 4294967295 is not supported/,
    );
    const again = await provider.generate(request({ jsonSchema: undefined, expectation: undefined, maxTokens: 5 }));
    expect(typeof again.text).toBe('string');
  }, 120_000);
});
