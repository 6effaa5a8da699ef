/**
 * Writes src/message/builtin-validators.ts: the validators of govflow's own JSON Schemas (the
 * config file, agent declarations, test cases, the Sentient message), compiled ahead of time by
 * ajv's standalone code generator with the options src/message/schema-compiler.ts uses
 * (AJV_OPTIONS). Every command then validates its config without loading ajv, which costs about
 * 150 ms of CPU at each start when it compiles the config schema there. A test fails when the committed file differs
 * from what this writes (`npm run validators` rewrites it after `npm run build`).
 *
 *   node scripts/builtin-validators.mjs            # rewrite src/message/builtin-validators.ts
 *   node scripts/builtin-validators.mjs --check    # exit 1 when it is out of date
 */
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import * as prettier from 'prettier';
import { writeOrCheck } from './generated-file.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);
const { Ajv } = require('ajv');
const standaloneCode = require('ajv/dist/standalone').default;
const addFormats = require('ajv-formats');
const { CONFIG_SCHEMA } = await import(path.join(ROOT, 'dist/config/config-schema.js'));
const { AGENT_DECLARATION_SCHEMA } = await import(path.join(ROOT, 'dist/config/agent-declaration-schema.js'));
const { CASE_SCHEMA } = await import(path.join(ROOT, 'dist/testing/test-case-file.js'));
const { SENTIENT_MESSAGE_SCHEMA } = await import(path.join(ROOT, 'dist/message/sentient-message.js'));
const { AJV_OPTIONS } = await import(path.join(ROOT, 'dist/message/schema-compiler.js'));
const TARGET = path.join(ROOT, 'src', 'message', 'builtin-validators.ts');

/** Export name → schema; the names are what schema-compiler.ts's `builtinValidator` takes. */
const SCHEMAS = {
  config: CONFIG_SCHEMA,
  agentDeclaration: AGENT_DECLARATION_SCHEMA,
  testCase: CASE_SCHEMA,
  sentientMessage: SENTIENT_MESSAGE_SCHEMA,
};

/** ajv's code, laid out by the project's pinned prettier (ajv writes each validator on one line). */
async function render() {
  const ajv = new Ajv({ ...AJV_OPTIONS, code: { source: true, esm: true } });
  addFormats(ajv);
  const refs = {};
  for (const [name, schema] of Object.entries(SCHEMAS)) {
    refs[name] = schema.$id ?? name;
    ajv.addSchema(schema, schema.$id ? undefined : name);
  }
  const code = [
    '// @ts-nocheck',
    '// Written by scripts/builtin-validators.mjs (npm run validators) from the built-in JSON Schemas: do not edit.',
    // ajv's ESM output still loads its runtime helpers and ajv-formats' formats with require().
    "import { createRequire } from 'node:module';",
    'const require = createRequire(import.meta.url);',
    // A module is strict already: ajv's leading directive would stand after the imports as a bare string.
    standaloneCode(ajv, refs).replace(/^"use strict";/, ''),
    '',
  ].join('\n');
  const options = await prettier.resolveConfig(TARGET);
  return prettier.format(code, { ...options, filepath: TARGET });
}

writeOrCheck(ROOT, TARGET, await render(), { what: 'the built-in schemas', rewrite: 'npm run validators' });
