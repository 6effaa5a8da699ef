/**
 * JSON Schemas (draft-07 or 2020-12) into ajv validators, and ajv errors into sentences to act on.
 * govflow's own schemas are compiled ahead of time (builtin-validators.ts); ajv itself is loaded
 * only when a root's schema is compiled (an agent's output_schema, a custom message schema).
 */
import type { Ajv, ErrorObject, ValidateFunction } from 'ajv';
import type { Ajv2020 } from 'ajv/dist/2020.js';
import { createRequire } from 'node:module';
import { isDeepStrictEqual } from 'node:util';
import * as builtin from './builtin-validators.js';
import { pointerSegments } from './json-text.js';

/** The validator of one of govflow's own schemas, as ajv compiles it (scripts/builtin-validators.mjs). */
export function builtinValidator(name: keyof typeof builtin): ValidateFunction {
  return builtin[name] as unknown as ValidateFunction;
}

// ajv and ajv-formats ship CommonJS: loaded on first use, synchronously.
const load = createRequire(import.meta.url);
/** Every problem, not the first; unknown keywords allowed. scripts/builtin-validators.mjs compiles with these too. */
export const AJV_OPTIONS = Object.freeze({ allErrors: true, strict: false });

let draft07: Ajv | undefined;
let draft2020: Ajv2020 | undefined;

function withFormats<T extends Ajv | Ajv2020>(ajv: T): T {
  (load('ajv-formats') as (ajv: T) => void)(ajv);
  return ajv;
}

function ajvFor(schema: Record<string, unknown>): Ajv | Ajv2020 {
  const dialect = typeof schema.$schema === 'string' ? schema.$schema : '';
  if (dialect.includes('2020-12') || dialect.includes('2019-09')) {
    draft2020 ??= withFormats(new (load('ajv/dist/2020.js') as typeof import('ajv/dist/2020.js')).Ajv2020(AJV_OPTIONS));
    return draft2020;
  }
  draft07 ??= withFormats(new (load('ajv') as typeof import('ajv')).Ajv(AJV_OPTIONS));
  return draft07;
}

/** Compiles a schema; throws ajv's own error (with the bad keyword) when the schema is invalid. */
export function compileSchema(schema: Record<string, unknown>): ValidateFunction {
  const ajv = ajvFor(schema);
  // An $id can be added once per ajv: reuse the same schema, replace an edited one (hot reload).
  if (typeof schema.$id === 'string') {
    const existing = ajv.getSchema(schema.$id);
    if (existing && isDeepStrictEqual(existing.schema, schema)) return existing;
    if (existing) ajv.removeSchema(schema.$id);
  }
  return ajv.compile(schema);
}

/** `/output/content_type must be string`, one line per problem, with the offending key named. */
export function describeSchemaErrors(errors: ErrorObject[] | null | undefined, prefix = ''): string[] {
  if (!errors) return [];
  const lines = errors
    .filter((error) => !['if', 'anyOf'].includes(error.keyword) || errors.length === 1)
    .map((error) => {
      const path = `${prefix}${error.instancePath}` || '(root)';
      if (error.keyword === 'additionalProperties')
        return `${path}: unknown key "${String(error.params.additionalProperty)}"`;
      if (error.keyword === 'required')
        return `${path}: missing required key "${String(error.params.missingProperty)}"`;
      if (error.keyword === 'enum') {
        const allowed = (error.params.allowedValues as unknown[]).map((value) => JSON.stringify(value));
        return `${path}: must be one of ${allowed.join(', ')}`;
      }
      return `${path}: ${error.message ?? error.keyword}`;
    });
  return [...new Set(lines)];
}

/** The key path of an ajv error, for finding its line in a YAML source. */
export function errorKeyPath(error: ErrorObject): string[] {
  const segments = pointerSegments(error.instancePath);
  if (error.keyword === 'additionalProperties') segments.push(String(error.params.additionalProperty));
  return segments;
}
