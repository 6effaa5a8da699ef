/**
 * The smallest value that satisfies a JSON Schema, for the common keywords (type, required,
 * properties, items/minItems, enum/const, minLength, minimum, anyOf/oneOf). Dry-run uses it to
 * answer agents that declare an output_schema.
 */
type Schema = Record<string, unknown>;

export function minimalInstance(schema: unknown, depth = 0): unknown {
  if (typeof schema !== 'object' || schema === null || depth > 16) return null;
  const node = schema as Schema;
  if ('const' in node) return node.const;
  if (Array.isArray(node.enum) && node.enum.length > 0) return node.enum[0];
  const choices = (node.anyOf ?? node.oneOf) as unknown[] | undefined;
  if (Array.isArray(choices) && choices.length > 0) return minimalInstance(choices[0], depth + 1);
  if (Array.isArray(node.allOf) && node.allOf.length > 0) {
    return Object.assign({}, ...node.allOf.map((part) => minimalInstance(part, depth + 1) as object));
  }
  const types = Array.isArray(node.type) ? (node.type as string[]) : node.type ? [node.type as string] : [];
  const type = types.find((candidate) => candidate !== 'null') ?? types[0] ?? (node.properties ? 'object' : undefined);
  switch (type) {
    case 'object': {
      const result: Record<string, unknown> = {};
      const properties = (node.properties ?? {}) as Record<string, unknown>;
      for (const key of (node.required as string[] | undefined) ?? []) {
        result[key] = minimalInstance(properties[key] ?? {}, depth + 1);
      }
      return result;
    }
    case 'array': {
      const count = typeof node.minItems === 'number' ? node.minItems : 0;
      return Array.from({ length: count }, () => minimalInstance(node.items ?? {}, depth + 1));
    }
    case 'string':
      return 'x'.repeat(typeof node.minLength === 'number' ? node.minLength : 0) || 'dry-run';
    case 'integer':
    case 'number':
      return typeof node.minimum === 'number' ? node.minimum : 0;
    case 'boolean':
      return false;
    case 'null':
      return null;
    default:
      return null;
  }
}
