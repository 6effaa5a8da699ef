/** The tool lines of an audit entry name each call once, whatever the loop journaled (issue 32). */
import { describe, expect, it } from 'vitest';
import { formatToolAuditLines } from '../../src/audit/tool-audit-lines.js';

describe('formatToolAuditLines', () => {
  it('writes each section once, in order, and each call once on it', () => {
    const approval = {
      call_id: 'c1',
      tool: 'write_file',
      approve: true,
      user: 'ana',
      at: '2026-01-01T00:00:00.000Z',
      reason: null,
    };
    const lines = formatToolAuditLines({
      toolCalls: [
        { id: 'c1', name: 'write_file', is_error: false, ms: 4 },
        { id: 'c2', name: 'read_file', is_error: true, ms: 0 },
        { id: 'c1', name: 'write_file', is_error: false, ms: 0 },
      ],
      violations: [{ kind: 'tool_not_allowed', detail: 'read_file' }],
      approvals: [approval, { ...approval, at: '2026-01-01T00:00:01.000Z' }],
    });
    expect(lines).toEqual([
      '[TOOL_CALLS]: [{"id":"c1","name":"write_file","is_error":false,"ms":4},{"id":"c2","name":"read_file","is_error":true,"ms":0}]',
      '[VIOLATIONS]: [{"kind":"tool_not_allowed","detail":"read_file"}]',
      '[APPROVALS]: [{"call_id":"c1","tool":"write_file","approve":true,"user":"ana","at":"2026-01-01T00:00:00.000Z","reason":null}]',
    ]);
  });
});
