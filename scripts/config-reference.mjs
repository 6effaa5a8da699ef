/**
 * Writes docs/configuration.md, the reference of every govflow.config.yaml key, from the code
 * itself so it cannot drift: the keys and types from the config schema (dist/config/config-schema.js),
 * the defaults from dist/config/config-defaults.js, and each key's meaning from the comment above
 * it in src/config/config-defaults.ts. A test fails when the committed file differs from what this
 * writes (`npm run docs` rewrites it).
 *
 *   node scripts/config-reference.mjs            # rewrite docs/configuration.md
 *   node scripts/config-reference.mjs --check    # exit 1 when it is out of date
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { writeOrCheck } from './generated-file.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const { CONFIG_SCHEMA } = await import(path.join(ROOT, 'dist/config/config-schema.js'));
const { CONFIG_DEFAULTS } = await import(path.join(ROOT, 'dist/config/config-defaults.js'));
const TARGET = path.join(ROOT, 'docs', 'configuration.md');

/** Comments above each key of config-defaults.ts, by dotted path (`llm.max_attempts`). */
function commentsByKey() {
  const lines = readFileSync(path.join(ROOT, 'src/config/config-defaults.ts'), 'utf8').split('\n');
  const start = lines.findIndex((line) => line.startsWith('export const CONFIG_DEFAULTS'));
  const comments = new Map();
  const stack = [];
  let pending = [];
  let inComment = false;
  for (const line of lines.slice(start + 1)) {
    const trimmed = line.trim();
    if (line.startsWith('}')) break;
    if (trimmed.startsWith('/**')) {
      inComment = !trimmed.endsWith('*/');
      pending = [trimmed.replace(/^\/\*\*\s?/, '').replace(/\s?\*\/$/, '')];
      continue;
    }
    if (inComment) {
      if (trimmed.endsWith('*/')) inComment = false;
      pending.push(trimmed.replace(/^\*\/?\s?/, '').replace(/\s?\*\/$/, ''));
      continue;
    }
    const depth = (line.length - line.trimStart().length) / 2 - 1;
    stack.length = Math.max(0, depth);
    const key = /^([a-z_]+):/.exec(trimmed)?.[1];
    if (key === undefined) continue;
    const dotted = [...stack, key].join('.');
    const text = pending.join(' ').replace(/\s+/g, ' ').trim();
    if (text !== '') comments.set(dotted, text);
    pending = [];
    if (/:\s*\{\s*$/.test(trimmed)) stack.push(key);
  }
  // The one key without a default in the table: the system's zone is read at load time.
  comments.set(
    'timezone',
    "IANA zone of the audit log's days and times (GOVFLOW_TIMEZONE); default: the system's zone.",
  );
  return comments;
}

function typeOf(schema) {
  if (schema.enum) return schema.enum.map((value) => JSON.stringify(value)).join(' \\| ');
  const types = [schema.type].flat().filter(Boolean);
  if (types.includes('array')) return `list of ${schema.items ? typeOf(schema.items) : 'values'}`;
  return types.join(' or ') || 'object';
}

function valueAt(object, keys) {
  return keys.reduce((value, key) => (value === undefined || value === null ? undefined : value[key]), object);
}

function render() {
  const comments = commentsByKey();
  const rows = [];
  const walk = (schema, keys) => {
    for (const [key, child] of Object.entries(schema.properties ?? {})) {
      const here = [...keys, key];
      const dotted = here.join('.');
      const isSection = child.type === 'object' && child.properties && Object.keys(child.properties).length > 0;
      const fallback = valueAt(CONFIG_DEFAULTS, here);
      const shown = fallback === undefined ? '—' : `\`${JSON.stringify(fallback)}\``;
      if (isSection && here.length === 1)
        rows.push(`| **\`${dotted}\`** | section | | ${comments.get(dotted) ?? ''} |`);
      else
        rows.push(
          `| \`${dotted}\` | ${typeOf(child)} | ${isSection ? '' : shown} | ${(comments.get(dotted) ?? '').replace(/\|/g, '\\|')} |`,
        );
      if (isSection) walk(child, here);
    }
  };
  walk(CONFIG_SCHEMA, []);
  return [
    '# Configuration reference (`govflow.config.yaml`)',
    '',
    'Generated from the code by `npm run docs` (scripts/config-reference.mjs): the keys and types from',
    'the config schema, the defaults and their meaning from src/config/config-defaults.ts. Every key',
    'is optional; environment variables (`GOVFLOW_*`) win over the file. Unknown keys are errors that',
    'name the file and line. Relative paths resolve against the root.',
    '',
    'A running daemon watches this file: an edit of `http.tokens` applies at once (so `govflow token add`',
    "needs no restart); any other changed key is named in one warning in the daemon's log and in",
    '`govflow status` as needing a restart; an edit that does not validate is logged as an error with',
    "file and line, and the daemon keeps the config it has. The governance hash (audit entries'",
    '`GOVERNANCE_VERSION`) covers every key except `http`, `daemon`, `intake`, `telemetry`, `store`,',
    '`cluster` and `audit`, which say how govflow runs and is reached, not what agents are told or may do.',
    '',
    '| key | type | default | meaning |',
    '|---|---|---|---|',
    ...rows,
    '',
  ].join('\n');
}

writeOrCheck(ROOT, TARGET, render(), { what: 'the config schema and defaults', rewrite: 'npm run docs' });
