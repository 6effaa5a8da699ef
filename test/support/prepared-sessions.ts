/**
 * Thousands of ended sessions in a root, cheaply: each a manifest and a two-line journal (its
 * session record and its end), as the runner leaves them — what the listing reads, with no model run. Users,
 * states and start times vary in a fixed cycle so tests know how many match each filter.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';

export interface PreparedSession {
  sessionId: string;
  requestId: string;
  user: string;
  /** The manifest state (upper case, as the runner writes it). */
  state: string;
  createdAt: string;
}

export const PREPARED_USERS = ['alice', 'bob', 'carol'] as const;
/** Five states against three users: every user has sessions in every state. */
export const PREPARED_STATES = ['SUCCESS', 'FAILED', 'PARTIAL', 'CANCELLED', 'HALTED_COST'] as const;

/** Writes `count` sessions, one a second from `baseMs` on (oldest first); returns them. */
export function writePreparedSessions(
  root: string,
  count: number,
  baseMs = Date.parse('2026-01-01T00:00:00Z'),
): PreparedSession[] {
  const folder = path.join(root, 'system', 'sessions');
  mkdirSync(folder, { recursive: true });
  const sessions: PreparedSession[] = [];
  for (let index = 0; index < count; index++) {
    const session: PreparedSession = {
      sessionId: `sess-prepared-${String(index).padStart(6, '0')}`,
      requestId: `prepared-${index}`,
      user: PREPARED_USERS[index % PREPARED_USERS.length],
      state: PREPARED_STATES[index % PREPARED_STATES.length],
      createdAt: new Date(baseMs + index * 1000).toISOString(),
    };
    const directory = path.join(folder, session.sessionId);
    mkdirSync(directory);
    const record = {
      v: 1,
      type: 'session',
      session_id: session.sessionId,
      request_id: session.requestId,
      request: { text: `Prepared request number ${index}.`, user: session.user, metadata: null },
      source_file: `${session.requestId}.txt`,
      claimed_path: null,
      created_at: session.createdAt,
      entry_agent: 'objective_agent',
    };
    const finished = { v: 1, type: 'finished', status: preparedStatus(session.state), at: session.createdAt };
    writeFileSync(path.join(directory, 'journal.jsonl'), `${JSON.stringify(record)}\n${JSON.stringify(finished)}\n`);
    const manifest = {
      v: 1,
      session_id: session.sessionId,
      request_id: session.requestId,
      state: session.state,
      current_agent: 'final_output_agent',
      source_file: `${session.requestId}.txt`,
      created_at: session.createdAt,
      updated_at: new Date(baseMs + index * 1000 + 500).toISOString(),
      messages: 6,
      usage: { input_tokens: 100, output_tokens: 20, cached_input_tokens: 0, cost_usd: 0 },
      elapsed_ms: 500,
      model_time_ms: 400,
      governance_hash: null,
      question: null,
    };
    writeFileSync(path.join(directory, 'manifest.json'), JSON.stringify(manifest));
    sessions.push(session);
  }
  return sessions;
}

/** The listing status of a prepared state. */
export function preparedStatus(state: string): string {
  return state === 'HALTED_COST' ? 'failed' : state.toLowerCase();
}
