/**
 * The smallest value that satisfies a JSON Schema, for the common keywords (type, required,
 * properties, items/minItems, enum/const, minLength, minimum, anyOf/oneOf). Dry-run uses it to
 * answer agents that declare an output_schema.
 */
import { isPlainObject, resolvePointer } from '../message/json-text.js';

type Schema = Record<string, unknown>;

/** Follows a local `$ref` (`#/$defs/x`, `#/definitions/x`) against the root schema. */
function resolveReference(node: Schema, root: Schema): Schema {
  const reference = node.$ref;
  if (typeof reference !== 'string' || !reference.startsWith('#/')) return node;
  const target = resolvePointer(root, reference.slice(1));
  return typeof target === 'object' && target !== null ? (target as Schema) : node;
}

export function minimalInstance(schema: unknown, depth = 0, root: Schema = schema as Schema): unknown {
  if (typeof schema !== 'object' || schema === null || depth > 16) return null;
  const node = resolveReference(schema as Schema, root);
  if ('const' in node) return node.const;
  if (Array.isArray(node.enum) && node.enum.length > 0) return node.enum[0];
  const choices = (node.anyOf ?? node.oneOf) as unknown[] | undefined;
  if (Array.isArray(choices) && choices.length > 0) return minimalInstance(choices[0], depth + 1, root);
  if (Array.isArray(node.allOf) && node.allOf.length > 0) {
    return Object.assign({}, ...node.allOf.map((part) => minimalInstance(part, depth + 1, root) as object));
  }
  const types = Array.isArray(node.type) ? (node.type as string[]) : node.type ? [node.type as string] : [];
  const type = types.find((candidate) => candidate !== 'null') ?? types[0] ?? (node.properties ? 'object' : undefined);
  switch (type) {
    case 'object': {
      const result: Record<string, unknown> = {};
      const properties = (node.properties ?? {}) as Record<string, unknown>;
      for (const key of (node.required as string[] | undefined) ?? []) {
        result[key] = minimalInstance(properties[key] ?? {}, depth + 1, root);
      }
      return result;
    }
    case 'array': {
      const count = typeof node.minItems === 'number' ? node.minItems : 0;
      return Array.from({ length: count }, () => minimalInstance(node.items ?? {}, depth + 1, root));
    }
    case 'string':
      return 'x'.repeat(typeof node.minLength === 'number' ? node.minLength : 0) || 'dry-run';
    case 'integer':
    case 'number':
      return typeof node.minimum === 'number' ? node.minimum : 0;
    case 'boolean':
      return false;
    default:
      return null;
  }
}

/** `overlay` on top of `base`, merging nested objects (arrays and scalars of `overlay` win). */
export function deepMerge(base: unknown, overlay: unknown): unknown {
  if (!isPlainObject(base) || !isPlainObject(overlay)) return overlay === undefined ? base : overlay;
  const result: Record<string, unknown> = { ...base };
  for (const [key, value] of Object.entries(overlay)) result[key] = deepMerge(base[key], value);
  return result;
}
