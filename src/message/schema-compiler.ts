/** JSON Schemas (draft-07 or 2020-12) into ajv validators, and ajv errors into sentences to act on. */
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { isDeepStrictEqual } from 'node:util';
import { pointerSegments } from './json-text.js';

// ajv-formats ships CommonJS whose default export is the function itself.
const addFormats = addFormatsModule as unknown as (ajv: Ajv | Ajv2020) => void;

let draft07: Ajv | undefined;
let draft2020: Ajv2020 | undefined;

function ajvFor(schema: Record<string, unknown>): Ajv | Ajv2020 {
  const dialect = typeof schema.$schema === 'string' ? schema.$schema : '';
  if (dialect.includes('2020-12') || dialect.includes('2019-09')) {
    if (!draft2020) {
      draft2020 = new Ajv2020({ allErrors: true, strict: false });
      addFormats(draft2020);
    }
    return draft2020;
  }
  if (!draft07) {
    draft07 = new Ajv({ allErrors: true, strict: false });
    addFormats(draft07);
  }
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
