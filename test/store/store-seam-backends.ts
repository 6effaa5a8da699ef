/**
 * The backends of the store seam, opened the same way for the contract test
 * (session-store-contract.test.ts): a write seam (SessionStore), the read seam over the same data
 * (SessionReads), and the few things only a backend can do from outside — hand a paused session
 * back for writing the way its daemon would, damage a journal, look up a kept prompt.
 */
import { appendFileSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { AuditLogWriter } from '../../src/audit/audit-log-writer.js';
import { LoggedMessagesIndex } from '../../src/audit/logged-messages-index.js';
import { ClusterReads } from '../../src/cluster/cluster-reads.js';
import { PostgresSessionStore } from '../../src/cluster/postgres-session-store.js';
import { SessionLeases } from '../../src/cluster/session-leases.js';
import { StoreCommitter } from '../../src/cluster/store-committer.js';
import { migrate } from '../../src/cluster/schema-migrate.js';
import { FilesSessionStore } from '../../src/store/files-session-store.js';
import { PromptStore } from '../../src/store/prompt-store.js';
import { FilesSessionReads, type SessionReads } from '../../src/store/session-reads.js';
import type { SessionStore } from '../../src/store/session-store.js';
import { makeTempFolder } from '../support/temp-dirs.js';
import type { PgTestSchema } from '../support/postgres.js';

/** One backend, opened for one test. */
export interface SeamBackend {
  store: SessionStore;
  reads: SessionReads;
  /** Makes a paused session writable again the way its daemon does when a reply comes. */
  resume(sessionId: string): Promise<void>;
  /** Adds one raw journal line after the session's records (damage, or another govflow version). */
  appendRawRecord(sessionId: string, line: string): Promise<void>;
  /** The prompt kept under `sha256`, or null. */
  keptPrompt(sha256: string): Promise<string | null>;
  close(): Promise<void>;
}

/** The files backend: a fresh temp root per test (system/sessions, outbox, logs, snapshots). */
export async function openFilesBackend(): Promise<SeamBackend> {
  const root = makeTempFolder('govflow-seam-');
  const paths = {
    sessions: path.join(root, 'sessions'),
    outbox: path.join(root, 'outbox'),
    logs: path.join(root, 'logs'),
    snapshots: path.join(root, 'snapshots'),
  };
  mkdirSync(paths.outbox, { recursive: true });
  const writer = await AuditLogWriter.open({
    logsDir: paths.logs,
    stateDir: path.join(root, 'state'),
    timezone: 'UTC',
  });
  const store = new FilesSessionStore({
    sessionsDir: paths.sessions,
    outboxDir: paths.outbox,
    snapshotsDir: paths.snapshots,
    durable: true,
    audit: writer,
    auditedMessages: (sessionId) => new LoggedMessagesIndex(paths.logs).messagesOf(sessionId),
  });
  return {
    store,
    reads: new FilesSessionReads(paths),
    resume: async () => {},
    appendRawRecord: async (sessionId, line) =>
      appendFileSync(path.join(paths.sessions, sessionId, 'journal.jsonl'), `${line}\n`),
    keptPrompt: async (sha256) => {
      try {
        return PromptStore.read(paths.snapshots, sha256);
      } catch {
        return null;
      }
    },
    close: () => writer.close(),
  };
}

/** The Postgres side shared by a file's tests: one migrated schema, one pool. */
export interface PostgresSeam {
  pool: pg.Pool;
  schema: string;
  close(): Promise<void>;
}

export async function openPostgresSeam(schema: PgTestSchema): Promise<PostgresSeam> {
  const pool = new pg.Pool({ connectionString: schema.url, max: 4 });
  pool.on('error', () => {});
  await migrate(pool, schema.schema);
  return { pool, schema: schema.schema, close: () => pool.end() };
}

const DAEMON = 'seam-daemon';
const LEASE_MS = 60_000;

/**
 * The Postgres backend: a store of its own per test (its own leases) on the file's schema. Its read
 * seam falls back to the files of an empty root, so whatever it reads came from Postgres.
 */
export function openPostgresBackend(shared: PostgresSeam): SeamBackend {
  const { pool, schema } = shared;
  const committer = new StoreCommitter({ pool, schema, daemonId: DAEMON, timezone: 'UTC' });
  const store = new PostgresSessionStore({
    pool,
    schema,
    daemonId: DAEMON,
    committer,
    leaseMs: LEASE_MS,
    vaults: null,
  });
  const leases = new SessionLeases(pool, schema, DAEMON, LEASE_MS, null);
  const root = makeTempFolder('govflow-seam-pg-');
  const reads = new ClusterReads(
    pool,
    schema,
    leases,
    { sessions: path.join(root, 'sessions'), outbox: path.join(root, 'outbox'), logs: path.join(root, 'logs') },
    'UTC',
  );
  const table = (name: string) => `"${schema}".${name}`;
  return {
    store,
    reads,
    // A reply queued for the paused session, then claimed: a new lease at the next epoch.
    async resume(sessionId) {
      const refused = await leases.enqueueReply(sessionId, { text: 'go on', source_file: 'reply.json' });
      if (refused !== null) throw new Error(refused);
      const claimed = await leases.claimNext();
      if (claimed?.sessionId !== sessionId)
        throw new Error(`claimed ${claimed?.sessionId ?? 'nothing'} instead of ${sessionId}`);
      store.hold(sessionId, claimed.epoch);
    },
    async appendRawRecord(sessionId, line) {
      await pool.query(
        `insert into ${table('journal')} (session_id, seq, record) select $1, coalesce(max(seq), 0) + 1, $2 from ${table('journal')} where session_id = $1`,
        [sessionId, line],
      );
    },
    async keptPrompt(sha256) {
      const rows = await pool.query<{ text: string }>(`select text from ${table('prompts')} where sha256 = $1`, [
        sha256,
      ]);
      return rows.rows[0]?.text ?? null;
    },
    close: async () => {},
  };
}
