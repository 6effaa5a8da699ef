/**
 * JSON helpers every layer shares, and a `JSON.stringify` that cannot overflow the stack: V8's is
 * recursive, so data a few thousand levels deep is written with an explicit stack instead.
 * Ordinary values take the native path, byte for byte.
 */

type Task =
  | { kind: 'value'; value: unknown; key: string; level: number }
  | { kind: 'text'; text: string }
  | { kind: 'leave'; container: object };

/** True for a JSON object: not null, not an array. */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A value's JSON type as a sentence names it: `null`, `an array`, `a string`, … */
export function describeType(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return `a ${typeof value}`;
}

/** A JSON pointer's segments, unescaped: `/a~1b/c` → ['a/b', 'c']. */
export function pointerSegments(pointer: string): string[] {
  return pointer === ''
    ? []
    : pointer
        .slice(1)
        .split('/')
        .map((segment) => segment.replace(/~1/g, '/').replace(/~0/g, '~'));
}

/** RFC 6901: the value at `pointer` in `document`, or `undefined` when there is none. */
export function resolvePointer(document: unknown, pointer: string): unknown {
  let current: unknown = document;
  for (const segment of pointerSegments(pointer)) {
    if (Array.isArray(current) && /^(0|[1-9]\d*)$/.test(segment)) current = current[Number(segment)];
    else if (typeof current === 'object' && current !== null && Object.hasOwn(current, segment))
      current = (current as Record<string, unknown>)[segment];
    else return undefined;
  }
  return current;
}

/** `value` with `change` applied to every string in it, and to object keys too with `keys`. */
export function mapJsonStrings(value: unknown, change: (text: string) => string, keys = false): unknown {
  if (typeof value === 'string') return change(value);
  if (Array.isArray(value)) return value.map((item) => mapJsonStrings(item, change, keys));
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value).map(([key, item]) => [keys ? change(key) : key, mapJsonStrings(item, change, keys)]),
    );
  }
  return value;
}

/** True for the error V8 throws when recursion runs out of stack. */
export function isStackOverflow(error: unknown): boolean {
  return error instanceof RangeError && /call stack/i.test(error.message);
}

/** `JSON.stringify(value, null, indent)` for JSON data at any depth. */
export function stringifyJson(value: unknown, indent = 0): string | undefined {
  try {
    return JSON.stringify(value, null, indent);
  } catch (error) {
    if (!isStackOverflow(error)) throw error;
    return stringifyIteratively(value, indent);
  }
}

/** What JSON.stringify writes for `value` under `key`, after `toJSON`; undefined = leave out. */
function prepared(value: unknown, key: string): unknown {
  if (typeof value === 'object' && value !== null && typeof (value as { toJSON?: unknown }).toJSON === 'function') {
    return (value as { toJSON(key: string): unknown }).toJSON(key);
  }
  if (value instanceof Number || value instanceof String || value instanceof Boolean) return value.valueOf();
  return value;
}

function isOmitted(value: unknown): boolean {
  return value === undefined || typeof value === 'function' || typeof value === 'symbol';
}

function scalarText(value: unknown): string {
  if (value === null) return 'null';
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : 'null';
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  if (typeof value === 'string') return JSON.stringify(value);
  if (typeof value === 'bigint') throw new TypeError('Do not know how to serialize a BigInt');
  return 'null';
}

/** The explicit-stack writer; exported for tests that compare it with JSON.stringify. */
export function stringifyIteratively(value: unknown, indent = 0): string | undefined {
  const root = prepared(value, '');
  if (isOmitted(root)) return undefined;
  const gap = ' '.repeat(Math.min(10, Math.max(0, Math.floor(indent))));
  const parts: string[] = [];
  const open = new Set<object>();
  const tasks: Task[] = [{ kind: 'value', value: root, key: '', level: 0 }];
  const newline = (level: number) => (gap === '' ? '' : `\n${gap.repeat(level)}`);
  while (tasks.length > 0) {
    const task = tasks.pop()!;
    if (task.kind === 'text') {
      parts.push(task.text);
      continue;
    }
    if (task.kind === 'leave') {
      open.delete(task.container);
      continue;
    }
    const current = task.value;
    if (typeof current !== 'object' || current === null) {
      parts.push(scalarText(current));
      continue;
    }
    if (open.has(current)) throw new TypeError('Converting circular structure to JSON');
    const inner = task.level + 1;
    const entries: Array<{ key: string | null; value: unknown }> = [];
    if (Array.isArray(current)) {
      for (let index = 0; index < current.length; index++) {
        const item = prepared(current[index], String(index));
        entries.push({ key: null, value: isOmitted(item) ? null : item });
      }
    } else {
      for (const key of Object.keys(current)) {
        const item = prepared((current as Record<string, unknown>)[key], key);
        if (!isOmitted(item)) entries.push({ key, value: item });
      }
    }
    const [opening, closing] = Array.isArray(current) ? ['[', ']'] : ['{', '}'];
    if (entries.length === 0) {
      parts.push(opening + closing);
      continue;
    }
    open.add(current);
    parts.push(opening);
    // Pushed in reverse: the stack hands them back in order.
    tasks.push({ kind: 'leave', container: current }, { kind: 'text', text: newline(task.level) + closing });
    for (let index = entries.length - 1; index >= 0; index--) {
      const entry = entries[index];
      tasks.push({ kind: 'value', value: entry.value, key: entry.key ?? String(index), level: inner });
      const label = entry.key === null ? '' : `${JSON.stringify(entry.key)}:${gap === '' ? '' : ' '}`;
      tasks.push({ kind: 'text', text: (index === 0 ? '' : ',') + newline(inner) + label });
    }
  }
  return parts.join('');
}
