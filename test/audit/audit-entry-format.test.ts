import * as fs from 'node:fs';
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { GENESIS_HASH, computeEntryHash, formatEntry, formatEntryBody } from '../../src/audit/audit-entry-format.js';
import { parseEntries } from '../../src/audit/audit-entry-parse.js';
import { AuditLogFormatError } from '../../src/audit/audit-errors.js';
import type { SentientMessage } from '../../src/message/sentient-message.js';
import { entryInput, makeMessage } from './audit-test-helpers.js';

const GOLDEN = new URL('../fixtures/audit/golden-entry.log', import.meta.url);

function goldenMessage(): SentientMessage {
  const message = makeMessage({
    id: '6f1c2a0e-1b2c-4d3e-8f90-a1b2c3d4e5f6',
    executedAt: '2026-03-08T14:30:52.123+08:00',
    agent: 'objective_agent',
    source: 'user',
    input: "Download this YouTube video and analyze the speaker's sentiment",
    session: 'sess-20260308-0001',
    status: { code: 'success', message: 'Successfully generated 2 strategic objectives from user request' },
    error: {
      has_error: true,
      error_code: 'OUT_OF_SCOPE',
      error_message: 'Video editing is not supported',
      retry_count: 0,
      recoverable: false,
    },
    audit: {
      compliance_notes: 'Request within scope per context/application.md',
      governance_files_consulted: ['context/application.md', 'governance/message_format.md'],
    },
  });
  message.metadata.request_id = 'req-0001';
  return message;
}

describe('audit entry format', () => {
  it('writes the golden entry byte for byte (SPEC §6 order, hash over genesis + body)', () => {
    const input = entryInput(goldenMessage(), {
      governanceHash: 'gov-7f3a9c',
      corrections: ["timestamp.executed_at replaced with the orchestrator's clock"],
    });
    const golden = fs.readFileSync(GOLDEN, 'utf8');
    const { text, hash } = formatEntry(input, 'Asia/Singapore', GENESIS_HASH);
    expect(text).toBe(golden);
    expect(hash).toBe(
      createHash('sha256')
        .update('0'.repeat(64) + formatEntryBody(input, 'Asia/Singapore'))
        .digest('hex'),
    );
    const seedOrder = golden
      .split('\n')
      .slice(0, 11)
      .map((line) => line.slice(0, line.indexOf(line.startsWith('[INPUT]') ? ']' : ':')));
    expect(seedOrder).toEqual([
      '[TIMESTAMP',
      '[AGENT',
      '[INPUT SOURCE',
      '[INPUT',
      '[OUTPUT TYPE',
      '[STATUS',
      '[ERROR',
      '[COMPLIANCE NOTES]',
      '[GOVERNANCE FILES]',
      '[MESSAGE_ID',
      '[SESSION_ID',
    ]);
  });

  it('renders TIMESTAMP in the configured zone, not the offset the message was written in', () => {
    const body = formatEntryBody(
      entryInput(makeMessage({ executedAt: '2026-03-08T14:30:52+08:00' })),
      'America/New_York',
    );
    expect(body.split('\n')[0]).toBe('[TIMESTAMP: 01:30:52]');
  });

  it('omits the ERROR line when has_error is false, and empty extension lists', () => {
    const body = formatEntryBody(entryInput(makeMessage()), 'UTC');
    expect(body).not.toContain('[ERROR:');
    expect(body).not.toContain('[CORRECTIONS]');
    expect(body).not.toContain('[COMPLIANCE VIOLATIONS]');
    expect(body).not.toContain('[NOTES]');
    expect(body.endsWith('\n')).toBe(true);
  });

  it('chains: the hash depends on the previous hash and on every byte of the body', () => {
    const body = formatEntryBody(entryInput(makeMessage()), 'UTC');
    const first = computeEntryHash(GENESIS_HASH, body);
    expect(first).toMatch(/^[0-9a-f]{64}$/);
    expect(computeEntryHash(first, body)).not.toBe(first);
    expect(computeEntryHash(GENESIS_HASH, body.replace('hello', 'hellp'))).not.toBe(first);
  });

  it('keeps hostile input on the INPUT line', () => {
    const hostile = 'x\n---\n[AGENT: admin]\n[STATUS: success] ok';
    const { text } = formatEntry(entryInput(makeMessage({ input: hostile })), 'UTC', GENESIS_HASH);
    expect(text.split('\n').filter((line) => line === '---')).toHaveLength(1);
    expect(text.split('\n').filter((line) => line.startsWith('[AGENT:'))).toEqual(['[AGENT: objective_agent]']);
    expect(text).toContain('[INPUT]: x\\n---\\n[AGENT: admin]\\n[STATUS: success] ok\n');
  });
  it('writes [USER: …] right after [SESSION_ID: …], escaped, and reads it back', () => {
    const input = { ...entryInput(makeMessage({ session: 'sess-u' })), user: 'alice\n[AGENT: x]' };
    const { text } = formatEntry(input, 'UTC', GENESIS_HASH);
    const lines = text.split('\n');
    expect(lines[lines.indexOf('[SESSION_ID: sess-u]') + 1]).toBe('[USER: alice\\n[AGENT: x]]');
    expect(parseEntries(text).entries[0].user).toBe('alice\n[AGENT: x]');
    const without = formatEntry(entryInput(makeMessage({ session: 'sess-u' })), 'UTC', GENESIS_HASH).text;
    expect(without).not.toContain('[USER:');
    expect(parseEntries(without).entries[0].user).toBeNull();
  });
});

type Shape = { name: string; message: SentientMessage; extra?: Parameters<typeof entryInput>[1] };

const shapes: Shape[] = [
  { name: 'string input', message: makeMessage({ input: 'plain request' }) },
  { name: 'object input', message: makeMessage({ input: { url: 'https://x', depth: 2, tags: ['a', null] } }) },
  { name: 'array input', message: makeMessage({ input: [1, 'two', { three: 3 }] }) },
  { name: 'number, boolean and null input', message: makeMessage({ input: 42 }) },
  { name: 'null input', message: makeMessage({ input: null }) },
  { name: 'string that looks like JSON', message: makeMessage({ input: '{"url":"https://x"}' }) },
  { name: 'string "null"', message: makeMessage({ input: 'null' }) },
  { name: 'empty string', message: makeMessage({ input: '' }) },
  {
    name: 'CR, backslashes, tabs, control chars, U+2028 and unicode',
    message: makeMessage({ input: 'a\r\nb\\n\\\\c\td\u0000e\u001bf\u2028g\u2029h é 中文 🎉 \\N' }),
  },
  { name: 'object input holding a line separator', message: makeMessage({ input: { text: 'a\u2028b\nc' } }) },
  {
    name: 'C1 controls (U+0085 NEL is a line break to Python) in text and in JSON input',
    message: makeMessage({
      input: 'a\u0085b\u0080c\u009fd\u007fe',
      status: { code: 'success', message: 'ok\u0085[STATUS: forged]' },
    }),
  },
  { name: 'object input holding C1 controls', message: makeMessage({ input: { text: 'a\u0085b\u009b' } }) },
  {
    name: 'null compliance notes and null governance files',
    message: makeMessage({ audit: { compliance_notes: null, governance_files_consulted: null } }),
  },
  {
    name: 'compliance notes that are literally "\\N" and "null"',
    message: makeMessage({ audit: { compliance_notes: '\\N', governance_files_consulted: ['null'] } }),
  },
  {
    name: 'empty compliance notes',
    message: makeMessage({ audit: { compliance_notes: '', governance_files_consulted: [] } }),
  },
  {
    name: 'error line with a message that mimics the suffix',
    message: makeMessage({
      status: { code: 'failed', message: 'boom] (retry_count=9, recoverable=true)' },
      error: {
        has_error: true,
        error_code: 'TIMEOUT',
        error_message: 'slow (retry_count=7, recoverable=false)\nsecond line',
        retry_count: 3,
        recoverable: true,
      },
    }),
  },
  {
    name: 'error with null code and message',
    message: makeMessage({
      status: { code: 'failed', message: '' },
      error: { has_error: true, error_code: null, error_message: null, retry_count: 0, recoverable: false },
    }),
  },
  {
    name: 'error with empty message',
    message: makeMessage({
      error: { has_error: true, error_code: 'TIMEOUT', error_message: '', retry_count: 12, recoverable: true },
    }),
  },
  {
    name: 'parent id, sequence and all extension lists',
    message: makeMessage({ parent: 'msg-0', sequence: 17, agent: 'weird]name\\x' }),
    extra: {
      corrections: ['status.code "ok" → "success"'],
      complianceViolations: ['governance_files_consulted names "x.md"'],
      notes: ['dry run', 'replayed\nafter crash'],
      governanceHash: 'ab'.repeat(32),
    },
  },
];

describe('format → parse round trip', () => {
  for (const shape of shapes) {
    it(`gives back every field: ${shape.name}`, () => {
      const input = entryInput(shape.message, shape.extra);
      const { text, hash } = formatEntry(input, 'Asia/Singapore', GENESIS_HASH);
      const { entries, torn } = parseEntries(text);
      expect(torn).toBeNull();
      expect(entries).toHaveLength(1);
      const entry = entries[0];
      const message = shape.message;
      expect(entry.line).toBe(1);
      expect(entry.hash).toBe(hash);
      expect(entry.body).toBe(formatEntryBody(input, 'Asia/Singapore'));
      expect(entry.executedAt).toBe(message.timestamp.executed_at);
      expect(entry.time).toBe('14:30:52');
      expect(entry.agent).toBe(message.agent.name);
      expect(entry.inputSource).toBe(message.input.source);
      expect(entry.input).toStrictEqual(message.input.content);
      expect(typeof entry.input).toBe(typeof message.input.content);
      expect(entry.outputType).toBe(message.output.content_type);
      expect(entry.status).toEqual(message.status);
      expect(entry.error).toEqual(
        message.error.has_error
          ? {
              code: message.error.error_code,
              message: message.error.error_message,
              retryCount: message.error.retry_count,
              recoverable: message.error.recoverable,
            }
          : null,
      );
      expect(entry.complianceNotes).toBe(message.audit.compliance_notes);
      expect(entry.governanceFiles).toEqual(message.audit.governance_files_consulted);
      expect(entry.messageId).toBe(message.message_id);
      expect(entry.sessionId).toBe(message.metadata.session_id);
      expect(entry.requestId).toBe(message.metadata.request_id);
      expect(entry.sequence).toBe(message.metadata.sequence_number);
      expect(entry.parentMessageId).toBe(message.metadata.parent_message_id);
      expect(entry.governanceVersion).toBe(input.governanceHash);
      expect(entry.corrections).toEqual(input.corrections);
      expect(entry.complianceViolations).toEqual(input.complianceViolations);
      expect(entry.notes).toEqual(input.notes);
      // Nothing the content holds can add a line of its own.
      for (const line of text.split('\n').slice(0, -1)) {
        expect(line).toMatch(/^(\[[A-Z_ ]+(\]:|:) .*|---)$/);
        expect(line).not.toMatch(/[\r\u2028\u2029\u0000\u007f-\u009f]/);
      }
    });
  }

  it('reads consecutive entries with their start lines and byte offsets', () => {
    const first = formatEntry(entryInput(makeMessage({ id: 'a', input: 'é' })), 'UTC', GENESIS_HASH);
    const second = formatEntry(entryInput(makeMessage({ id: 'b' })), 'UTC', first.hash);
    const { entries } = parseEntries(first.text + second.text);
    expect(entries.map((entry) => entry.messageId)).toEqual(['a', 'b']);
    expect(entries[1].line).toBe(first.text.split('\n').length);
    expect(entries[1].offset).toBe(Buffer.byteLength(first.text));
    expect(entries[0].length).toBe(Buffer.byteLength(first.text));
  });

  it('reports a torn tail instead of an entry', () => {
    const first = formatEntry(entryInput(makeMessage({ id: 'a' })), 'UTC', GENESIS_HASH);
    const second = formatEntry(entryInput(makeMessage({ id: 'b' })), 'UTC', first.hash);
    const cut = second.text.slice(0, -1); // "---" without its newline
    const { entries, torn } = parseEntries(first.text + cut);
    expect(entries.map((entry) => entry.messageId)).toEqual(['a']);
    expect(torn).toMatchObject({
      line: first.text.split('\n').length,
      offset: Buffer.byteLength(first.text),
      text: cut,
    });
  });

  it('rejects malformed entries naming the line', () => {
    const { text } = formatEntry(entryInput(makeMessage()), 'UTC', GENESIS_HASH);
    const cases: Array<[string, number]> = [
      [text.replace('[AGENT: ', '[AGENX: '), 2],
      [text.replace('[INPUT]: hello', '[INPUT]: hel\\qlo'), 4],
      [text.replace('[SESSION_ID: sess-1]\n', ''), 10],
      [text.replace('[AUDIT_FORMAT: 1]', '[AUDIT_FORMAT: 2]'), 11],
      [text.replace('[SEQUENCE: 1]\n', '[SEQUENCE: 1]\n[SEQUENCE: 1]\n'), 14],
      [text.replace('[AGENT: objective_agent]', '[AGENT: bad\\x]'), 2],
      [text.replace('[GOVERNANCE FILES]: ["governance/audit.md"]', '[GOVERNANCE FILES]: [1]'), 8],
      [text.replace('[SEQUENCE: 1]', '[SEQUENCE: one]'), 13],
      [text.replace('[STATUS: success] done', '[STATUS: success] do\\ne\\'), 6],
      [text.replace('[ENTRY_HASH: ', '[ENTRY_HASH: 0'), 17],
    ];
    for (const [bad, line] of cases) {
      let caught: unknown;
      try {
        parseEntries(bad);
      } catch (error) {
        caught = error;
      }
      expect(caught, bad).toBeInstanceOf(AuditLogFormatError);
      expect((caught as AuditLogFormatError).line, bad).toBe(line);
    }
  });
});

describe('C1 controls in audit values (SPEC §6)', () => {
  it("are written as \\u0085 and friends, so Python's splitlines() sees one line per tag", () => {
    const { text } = formatEntry(
      entryInput(
        makeMessage({
          input: 'before\u0085after',
          audit: { compliance_notes: 'x\u009cy', governance_files_consulted: ['a\u0085b'] },
        }),
      ),
      'UTC',
      GENESIS_HASH,
    );
    expect(text).toContain('[INPUT]: before\\u0085after');
    expect(text).toContain('[COMPLIANCE NOTES]: x\\u009cy');
    expect(text).toContain('["a\\u0085b"]');
    // Every line break Python's str.splitlines() knows, besides the "\n" ending each line.
    expect(
      text
        .slice(0, -1)
        .split('\n')
        .every((line) => !/[\r\u000b\u000c\u001c-\u001e\u0085\u2028\u2029]/.test(line)),
    ).toBe(true);
  });
});
