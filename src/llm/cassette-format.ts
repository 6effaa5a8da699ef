/**
 * Cassettes: recorded model calls, one JSON file per recording run, found again by agent and a
 * hash of the prompt with its per-run values (ids, timestamps) replaced by placeholders. Several
 * answers under one key are kept in call order. `format` and `version` are checked on every read.
 */
import { readFileSync } from 'node:fs';
import { ConfigError } from '../errors.js';
import { sha256Hex } from '../sha256-hex.js';
import { isPlainObject } from '../message/json-text.js';

export const CASSETTE_FORMAT = 'govflow-cassette' as const;
/** Versions this build reads; it writes the last one. */
export const SUPPORTED_CASSETTE_VERSIONS = [1] as const;
export const CASSETTE_VERSION = 1 as const;

/** One tool call the model asked for, as recorded from the model layer. */
export interface RecordedToolCall {
  id: string;
  name: string;
  /** The tool input as the model wrote it (JSON text). */
  input: string;
}

/** What the model answered to one call. */
export interface RecordedAnswer {
  text: string;
  tool_calls: RecordedToolCall[];
  usage: { input_tokens: number; output_tokens: number; cached_input_tokens: number };
  /** The model that answered (may differ from the one asked for). */
  model: string;
  finish_reason: string | null;
}

/** One recorded model call. */
export interface RecordedCall {
  agent: string;
  /** Lookup key: sha256 of the normalized system + history + prompt. */
  key: string;
  provider: string;
  /** The model asked for. */
  model: string;
  /** Key into the cassette's `systems` table (system prompts are shared by many calls). */
  system_sha256: string;
  history: Array<{ role: 'user' | 'assistant'; content: string }>;
  prompt: string;
  /** sha256 of the text of every governance/context file in the system prompt, by path. */
  governance_files: Record<string, string>;
  answer: RecordedAnswer;
}

export interface Cassette {
  format: typeof CASSETTE_FORMAT;
  version: number;
  recorded_at: string;
  /** System prompts by their sha256 (after redaction: exactly what the provider got). */
  systems: Record<string, string>;
  calls: RecordedCall[];
  /** sha256 of every governance file the recording ran under, by path: names files added or removed since. Absent in older cassettes. */
  governance_tree?: Record<string, string>;
}

/** The parts of a model request that make up its key. */
export interface PromptParts {
  system: string;
  prompt: string;
  history?: ReadonlyArray<{ role: 'user' | 'assistant'; content: string }>;
}

const VOLATILE_VALUES: Array<[RegExp, string]> = [
  [/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi, '<uuid>'],
  [/\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:Z|[+-]\d{2}:\d{2})?/g, '<time>'],
  [/sess-\d{8}-\d{6}-[0-9a-z]+/g, '<session>'],
  [/req-\d{8}-\d{6}-[0-9a-z]{6}/g, '<request>'],
];

/** The text with every per-run value (ids, timestamps) replaced by a placeholder. */
export function normalizeVolatile(text: string): string {
  let result = text;
  for (const [pattern, placeholder] of VOLATILE_VALUES) result = result.replace(pattern, placeholder);
  return result;
}

/** The whole prompt as one text, in the order the model reads it. */
export function promptText(parts: PromptParts): string {
  const turns = (parts.history ?? []).map((turn) => `[${turn.role}]\n${turn.content}`);
  return [`[system]\n${parts.system}`, ...turns, `[user]\n${parts.prompt}`].join('\n');
}

/** The lookup key of a call: sha256 of its normalized prompt (the agent is kept beside it). */
export function promptKey(parts: PromptParts): string {
  return sha256Hex(normalizeVolatile(promptText(parts)));
}

const FILE_MARKER = /^\[FILE: (.+)\]$/;
const RULE = '='.repeat(72);

/** A block header: a rule, one `[...]` line, a rule (files, the protocol block, others). */
function isBlockStart(lines: string[], index: number): boolean {
  return lines[index] === RULE && /^\[.*\]$/.test(lines[index + 1] ?? '') && lines[index + 2] === RULE;
}

/** Each `[FILE: path]` block's text in a system prompt built by prompt-builder.ts, by path. */
export function promptFiles(system: string): Record<string, string> {
  const files: Record<string, string> = {};
  const lines = system.split('\n');
  for (let index = 0; index < lines.length; index++) {
    const match = FILE_MARKER.exec(lines[index]);
    if (!match || lines[index - 1] !== RULE || lines[index + 1] !== RULE) continue;
    const body: string[] = [];
    let cursor = index + 2;
    while (cursor < lines.length && !isBlockStart(lines, cursor)) {
      body.push(lines[cursor]);
      cursor++;
    }
    files[match[1]] = body.join('\n').trimEnd();
    index = cursor - 1;
  }
  return files;
}

/** sha256 of each file in the system prompt, by path. */
export function promptFileHashes(system: string): Record<string, string> {
  return fileHashes(promptFiles(system));
}

/** How two file-hash tables differ, recorded → now, each list sorted. */
export interface FileChanges {
  added: string[];
  removed: string[];
  /** In both, with other text. */
  changed: string[];
}

export function fileChanges(recorded: Record<string, string>, current: Record<string, string>): FileChanges {
  const changes: FileChanges = { added: [], removed: [], changed: [] };
  const paths = [...new Set([...Object.keys(recorded), ...Object.keys(current)])].sort();
  for (const file of paths.filter((path) => recorded[path] !== current[path])) {
    if (!(file in recorded)) changes.added.push(file);
    else if (!(file in current)) changes.removed.push(file);
    else changes.changed.push(file);
  }
  return changes;
}

export function noFileChanges(changes: FileChanges): boolean {
  return changes.added.length === 0 && changes.removed.length === 0 && changes.changed.length === 0;
}

/** sha256 of each file's text, by path (a governance snapshot's `files`, a prompt's). */
export function fileHashes(files: Readonly<Record<string, string>>): Record<string, string> {
  return Object.fromEntries(Object.entries(files).map(([file, text]) => [file, sha256Hex(text)]));
}

export function emptyCassette(now: Date = new Date()): Cassette {
  return { format: CASSETTE_FORMAT, version: CASSETTE_VERSION, recorded_at: now.toISOString(), systems: {}, calls: [] };
}

function checkCall(call: unknown, index: number, file: string): RecordedCall {
  const problem = (what: string) =>
    new ConfigError(`cassette call #${index + 1}: ${what}; re-record it (govflow test --update, or llm.record)`, file);
  if (!isPlainObject(call)) throw problem('is not an object');
  for (const field of ['agent', 'key', 'system_sha256', 'prompt'] as const) {
    if (typeof call[field] !== 'string') throw problem(`"${field}" must be a string`);
  }
  if (!Array.isArray(call.history)) throw problem('"history" must be a list');
  const answer = call.answer;
  if (!isPlainObject(answer) || typeof answer.text !== 'string' || !isPlainObject(answer.usage))
    throw problem('"answer" needs "text" and "usage"');
  return {
    ...(call as unknown as RecordedCall),
    governance_files: isPlainObject(call.governance_files) ? (call.governance_files as Record<string, string>) : {},
    answer: {
      ...(answer as unknown as RecordedAnswer),
      tool_calls: Array.isArray(answer.tool_calls) ? (answer.tool_calls as RecordedToolCall[]) : [],
    },
  };
}

/** Parses and checks a cassette's text. Throws ConfigError naming `file` and what is wrong. */
export function parseCassette(text: string, file: string): Cassette {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new ConfigError(
      `not a cassette: invalid JSON (${error instanceof Error ? error.message : String(error)})`,
      file,
    );
  }
  if (!isPlainObject(value) || value.format !== CASSETTE_FORMAT) {
    throw new ConfigError(`not a govflow cassette (expected "format": "${CASSETTE_FORMAT}")`, file);
  }
  if (!(SUPPORTED_CASSETTE_VERSIONS as readonly unknown[]).includes(value.version)) {
    throw new ConfigError(
      `cassette format version ${JSON.stringify(value.version)} is not supported (this govflow reads ` +
        `version ${SUPPORTED_CASSETTE_VERSIONS.join(', ')}); record it again with this version`,
      file,
    );
  }
  if (!isPlainObject(value.systems) || !Array.isArray(value.calls))
    throw new ConfigError('a cassette needs "systems" and "calls"', file);
  const calls = value.calls.map((call, index) => checkCall(call, index, file));
  for (const [index, call] of calls.entries()) {
    if (typeof value.systems[call.system_sha256] !== 'string') {
      throw new ConfigError(
        `cassette call #${index + 1} names system prompt ${call.system_sha256.slice(0, 12)}… which is not in "systems"`,
        file,
      );
    }
  }
  const tree = value.governance_tree;
  const governanceTree =
    isPlainObject(tree) && Object.values(tree).every((hash) => typeof hash === 'string')
      ? { governance_tree: tree as Record<string, string> }
      : {};
  return {
    format: CASSETTE_FORMAT,
    version: value.version as number,
    recorded_at: String(value.recorded_at ?? ''),
    systems: value.systems as Record<string, string>,
    calls,
    ...governanceTree,
  };
}

export function readCassette(file: string): Cassette {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw new ConfigError(`cannot read the cassette: ${error instanceof Error ? error.message : String(error)}`, file);
  }
  return parseCassette(text, file);
}
