/**
 * The JSON Schema a local model's answer is constrained by: the message schema with the agent's
 * `output_schema`, reduced to what node-llama-cpp's grammar supports (ajv still checks the rest).
 * Fields the orchestrator overwrites anyway are asked for as `null`: fewer tokens.
 */
import { isPlainObject, resolvePointer } from '../message/json-text.js';
import type { LlmRequest } from './provider.js';

type Schema = Record<string, unknown>;

/** What the grammar needs to know about the agent. */
type GrammarExpectation = Pick<NonNullable<LlmRequest['expectation']>, 'contentType' | 'next' | 'outputSchema'>;

const ORCHESTRATOR_FIELDS = ['message_id', 'timestamp', 'agent', 'input', 'metadata'];
const PRIMITIVE_TYPES = ['string', 'number', 'integer', 'boolean', 'null'];
const MAX_REF_DEPTH = 8;

/** Any JSON value, as the grammar can say it. */
const ANY_VALUE: Schema = {
  oneOf: [{ type: [...PRIMITIVE_TYPES] }, { type: 'object', additionalProperties: true }, { type: 'array' }],
};

function isPrimitive(value: unknown): boolean {
  return value === null || ['string', 'number', 'boolean'].includes(typeof value);
}

function convertType(type: string, schema: Schema, root: Schema, depth: number): Schema {
  switch (type) {
    case 'string': {
      const result: Schema = { type: 'string' };
      if (typeof schema.minLength === 'number') result.minLength = schema.minLength;
      if (typeof schema.maxLength === 'number') result.maxLength = schema.maxLength;
      if (schema.format === 'date-time' || schema.format === 'date' || schema.format === 'time')
        return { type: 'string', format: schema.format };
      return result;
    }
    case 'object': {
      const properties: Record<string, Schema> = {};
      for (const [key, value] of Object.entries(isPlainObject(schema.properties) ? schema.properties : {}))
        properties[key] = toGrammarSchema(value, root, depth);
      const result: Schema = { type: 'object', properties };
      const required = Array.isArray(schema.required)
        ? schema.required.filter((key): key is string => typeof key === 'string' && key in properties)
        : [];
      if (required.length > 0) result.required = required;
      if (isPlainObject(schema.additionalProperties))
        result.additionalProperties = toGrammarSchema(schema.additionalProperties, root, depth);
      else
        result.additionalProperties =
          schema.additionalProperties === true ||
          (schema.additionalProperties === undefined && Object.keys(properties).length === 0);
      return result;
    }
    case 'array': {
      const result: Schema = { type: 'array' };
      if (isPlainObject(schema.items)) result.items = toGrammarSchema(schema.items, root, depth);
      if (Array.isArray(schema.prefixItems))
        result.prefixItems = schema.prefixItems.map((item) => toGrammarSchema(item, root, depth));
      if (typeof schema.minItems === 'number') result.minItems = schema.minItems;
      if (typeof schema.maxItems === 'number') result.maxItems = schema.maxItems;
      return result;
    }
    default:
      return { type: PRIMITIVE_TYPES.includes(type) ? type : 'null' };
  }
}

/** One JSON Schema (draft-07 or 2020-12) → the grammar's subset. Never throws. */
export function toGrammarSchema(
  schema: unknown,
  root: Schema = isPlainObject(schema) ? schema : {},
  depth = 0,
): Schema {
  if (schema === true || !isPlainObject(schema)) return ANY_VALUE;
  if (typeof schema.$ref === 'string') {
    // A local reference (`#/definitions/x`, `#/$defs/x`, `#/properties/a/...`), resolved against `root`.
    const target =
      depth < MAX_REF_DEPTH && schema.$ref.startsWith('#')
        ? resolvePointer(root, decodeURIComponent(schema.$ref.slice(1)))
        : null;
    return isPlainObject(target) ? toGrammarSchema(target, root, depth + 1) : ANY_VALUE;
  }
  if ('const' in schema && isPrimitive(schema.const)) return { const: schema.const };
  if (Array.isArray(schema.enum) && schema.enum.every(isPrimitive)) return { enum: schema.enum };
  const alternatives = (
    Array.isArray(schema.oneOf) ? schema.oneOf : Array.isArray(schema.anyOf) ? schema.anyOf : null
  ) as unknown[] | null;
  if (alternatives && alternatives.length > 0)
    return { oneOf: alternatives.map((alternative) => toGrammarSchema(alternative, root, depth)) };
  const types = (
    Array.isArray(schema.type) ? schema.type : typeof schema.type === 'string' ? [schema.type] : []
  ) as string[];
  if (types.length === 0) {
    if (isPlainObject(schema.properties)) return convertType('object', schema, root, depth);
    if (isPlainObject(schema.items)) return convertType('array', schema, root, depth);
    return ANY_VALUE;
  }
  if (
    types.every((type) => PRIMITIVE_TYPES.includes(type)) &&
    !(
      types.includes('string') &&
      (schema.maxLength !== undefined || schema.minLength !== undefined || schema.format !== undefined) &&
      types.length > 1
    )
  ) {
    return types.length === 1 ? convertType(types[0], schema, root, depth) : { type: types };
  }
  const variants = types.map((type) => convertType(type, schema, root, depth));
  return variants.length === 1 ? variants[0] : { oneOf: variants };
}

/** The message schema with the agent's constraints in it, as the grammar's subset. */
export function messageGrammarSchema(messageSchema: Record<string, unknown>, expectation: GrammarExpectation): Schema {
  const message = toGrammarSchema(messageSchema);
  const properties = isPlainObject(message.properties) ? { ...(message.properties as Record<string, Schema>) } : {};
  for (const field of ORCHESTRATOR_FIELDS) if (field in properties) properties[field] = { type: 'null' };
  const output = properties.output;
  if (isPlainObject(output) && isPlainObject(output.properties)) {
    const outputProperties = { ...(output.properties as Record<string, Schema>) };
    if ('content_type' in outputProperties) outputProperties.content_type = { enum: [expectation.contentType, null] };
    if (expectation.outputSchema && 'content' in outputProperties) {
      outputProperties.content = { oneOf: [toGrammarSchema(expectation.outputSchema), { type: 'null' }] };
    }
    properties.output = { ...output, properties: outputProperties };
  }
  const next = properties.next_agent;
  if (isPlainObject(next) && isPlainObject(next.properties) && 'name' in (next.properties as Schema)) {
    properties.next_agent = {
      ...next,
      properties: { ...(next.properties as Schema), name: { enum: [...expectation.next, null] } },
    };
  }
  const error = properties.error;
  if (isPlainObject(error) && isPlainObject(error.properties) && 'retry_count' in (error.properties as Schema)) {
    properties.error = { ...error, properties: { ...(error.properties as Schema), retry_count: { type: 'null' } } };
  }
  return { ...message, properties };
}
