/** Shared builders for the audit tests: a complete message and temp folders that are removed. */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as zlib from 'node:zlib';
import { onTestFinished } from 'vitest';
import type { AuditEntryInput } from '../../src/store/session-store.js';
import type { SentientMessage } from '../../src/message/sentient-message.js';

export function makeMessage(
  overrides: {
    id?: string;
    executedAt?: string;
    agent?: string;
    input?: unknown;
    source?: string;
    session?: string;
    status?: SentientMessage['status'];
    error?: SentientMessage['error'];
    audit?: SentientMessage['audit'];
    sequence?: number;
    parent?: string | null;
  } = {},
): SentientMessage {
  return {
    message_id: overrides.id ?? 'msg-1',
    timestamp: { executed_at: overrides.executedAt ?? '2026-03-08T14:30:52.000+08:00', timezone: 'Asia/Singapore' },
    agent: { name: overrides.agent ?? 'objective_agent', type: 'governance' },
    input: { source: overrides.source ?? 'user', content: overrides.input ?? 'hello' },
    output: { content: { objectives: ['a'] }, content_type: 'objectives' },
    next_agent: { name: null, reason: null },
    status: overrides.status ?? { code: 'success', message: 'done' },
    error: overrides.error ?? {
      has_error: false,
      error_code: null,
      error_message: null,
      retry_count: 0,
      recoverable: false,
    },
    metadata: {
      session_id: overrides.session ?? 'sess-1',
      request_id: 'req-1',
      sequence_number: overrides.sequence ?? 1,
      parent_message_id: overrides.parent === undefined ? null : overrides.parent,
    },
    audit: overrides.audit ?? {
      compliance_notes: 'within scope',
      governance_files_consulted: ['governance/audit.md'],
    },
  };
}

export function entryInput(
  message: SentientMessage,
  extra: Partial<Omit<AuditEntryInput, 'message'>> = {},
): AuditEntryInput {
  return {
    message,
    governanceHash: extra.governanceHash ?? 'gov-hash-1',
    corrections: extra.corrections ?? [],
    complianceViolations: extra.complianceViolations ?? [],
    notes: extra.notes ?? [],
  };
}

/**
 * A fresh `{ root, logsDir, stateDir }` under the OS temp folder, removed when the test that made it
 * has finished (a hook of the test itself: test files share this module, vitest.config.ts `isolate`).
 */
export function tempRoot(): { root: string; logsDir: string; stateDir: string } {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'govflow-audit-'));
  onTestFinished(() => fs.rmSync(root, { recursive: true, force: true }));
  return { root, logsDir: path.join(root, 'system', 'logs'), stateDir: path.join(root, 'system', 'state') };
}

/** Every file under `folder` with its text, gzip files unpacked: to prove a text is gone from a root. */
export function allTexts(folder: string): Array<{ file: string; text: string }> {
  return fs
    .readdirSync(folder, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => {
      const file = path.join(entry.parentPath, entry.name);
      const bytes = fs.readFileSync(file);
      return { file, text: (file.endsWith('.gz') ? zlib.gunzipSync(bytes) : bytes).toString('utf8') };
    });
}
