/**
 * `govflow verify --store`: checks the audit chain in Postgres (hashes, positions 1..N, the head
 * row), then this root's log files against it byte for byte. Files that end early are a
 * projection still catching up: a warning.
 */
import * as fs from 'node:fs';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import type pg from 'pg';
import { GENESIS_HASH, computeEntryHash } from '../audit/audit-entry-format.js';
import { listLogFiles } from '../audit/audit-log-reader.js';
import { splitEntryBlocks } from '../audit/audit-entry-parse.js';
import { listArchivedLogFiles, type DeletionRecord } from '../audit/log-retention.js';
import { archiveFolderOf } from '../store/atomic-file.js';
import { storeChainStart } from './store-deletion.js';
import type { CheckpointSource, DeletionLine } from '../audit/checkpoint-verify.js';
import { counted } from '../counted.js';
import { quoteIdentifier } from './postgres-connection.js';

export interface StoreVerifyResult {
  ok: boolean;
  entries: number;
  files: number;
  /** Entries of the chain the files hold. */
  projected: number;
  /** Entries retention deleted before the chain's first kept one (audit_deletions). */
  deleted: number;
  problem: string | null;
  warnings: string[];
}

const TRAILER = /\[ENTRY_HASH: ([0-9a-f]{64})\]\n---\n$/;
const BATCH = 2000;

/** The day files of the chain after the store's deletions: archived (keep_days), then in logs/. */
function logFiles(logsDir: string, deletedThrough: string): string[] {
  return [
    ...listArchivedLogFiles(logsDir, deletedThrough).map((name) => path.join(archiveFolderOf(logsDir), name)),
    ...listLogFiles(logsDir)
      .filter((name) => name.slice(0, 8) > deletedThrough)
      .map((name) => path.join(logsDir, name)),
  ];
}

/** Every entry of the log files in order, a torn tail included (as an entry the chain cannot match). */
function* fileEntries(files: string[]): Generator<{ file: string; line: number; text: string }> {
  for (const file of files) {
    const bytes = fs.readFileSync(file);
    const { blocks, torn } = splitEntryBlocks((file.endsWith('.gz') ? gunzipSync(bytes) : bytes).toString('utf8'));
    for (const block of blocks) yield { file, line: block.line, text: `${block.lines.join('\n')}\n---\n` };
    if (torn) yield { file, line: torn.line, text: torn.text };
  }
}

/** `hashes` receives the chain's ENTRY_HASHes for the checkpoints: a file that differs stops the comparison of files, not the walk of the chain. */
export async function verifyStore(
  pool: pg.Pool,
  schema: string,
  logsDir: string,
  hashes: string[] = [],
): Promise<StoreVerifyResult> {
  const quoted = quoteIdentifier(schema);
  const warnings: string[] = [];
  // Retention deleted the chain up to its newest deletion record: the walk starts at its count and hash.
  const start = await storeChainStart(pool, schema);
  const dayFiles = fs.existsSync(logsDir) ? logFiles(logsDir, start?.day ?? '') : [];
  const files = fileEntries(dayFiles);
  const fileCount = dayFiles.length;
  let previous = start?.hash ?? GENESIS_HASH;
  let position = start?.entries ?? 0;
  const deleted = position;
  let projected = 0;
  let filesEnded = false;
  let fileFailure: StoreVerifyResult | null = null;
  const fail = (problem: string): StoreVerifyResult =>
    fileFailure ?? { ok: false, entries: position, files: fileCount, projected, deleted, problem, warnings };
  for (;;) {
    const rows = await pool.query<{ position: string; message_id: string; entry: string; hash: string }>(
      `select position, message_id, entry, hash from ${quoted}.audit_entries where position > $1 order by position limit ${BATCH}`,
      [position],
    );
    for (const row of rows.rows) {
      const at = Number(row.position);
      if (at !== position + 1)
        return fail(
          `store chain broken at position ${position + 1}: the next entry is at ${at} (entries were deleted)`,
        );
      const stated = TRAILER.exec(row.entry);
      const body = stated ? row.entry.slice(0, stated.index) : row.entry;
      const hash = computeEntryHash(previous, body);
      if (!stated || stated[1] !== row.hash || hash !== row.hash) {
        return fail(
          `store chain broken at position ${at} (message_id ${row.message_id}): hash mismatch: the entry does not hash to its ENTRY_HASH ` +
            `after the entry before it (edited, reordered or deleted entries)`,
        );
      }
      hashes.push(hash);
      previous = hash;
      position = at;
      if (filesEnded) continue;
      const next = files.next();
      if (next.done) {
        filesEnded = true;
        continue;
      }
      if (next.value.text !== row.entry) {
        fileFailure = fail(
          `log file differs from the store at ${next.value.file}:${next.value.line}: expected the entry of message_id ${row.message_id} ` +
            `(chain position ${at}) byte for byte`,
        );
        filesEnded = true;
        continue;
      }
      projected++;
    }
    if (rows.rows.length < BATCH) break;
  }
  if (fileFailure) return fileFailure;
  const head = await pool.query<{ position: string; hash: string }>(
    `select position, hash from ${quoted}.audit_head where id = 1`,
  );
  if (Number(head.rows[0]?.position) !== position || head.rows[0]?.hash !== previous) {
    return fail(
      `store chain ends at position ${position}, but its head row names position ${head.rows[0]?.position} (entries were deleted from the end)`,
    );
  }
  if (!filesEnded) {
    const extra = files.next();
    if (!extra.done)
      return fail(`log file holds an entry the store's chain does not: ${extra.value.file}:${extra.value.line}`);
  }
  if (projected < position - deleted)
    warnings.push(
      `the log files hold ${projected} of the chain's ${position - deleted} entries: the projection is behind (a daemon catches up while it runs)`,
    );
  return { ok: true, entries: position, files: fileCount, projected, deleted, problem: null, warnings };
}

/** The store's deletion records (audit_deletions), oldest first. */
export async function storeDeletions(pool: pg.Pool, schema: string): Promise<DeletionLine[]> {
  const rows = await pool.query<{ entries: string; line: string }>(
    `select entries, line from ${quoteIdentifier(schema)}.audit_deletions order by entries`,
  );
  return rows.rows.map((row) => ({
    where: `${schema}.audit_deletions (row of ${row.entries} entries)`,
    line: row.line,
    record: JSON.parse(row.line) as DeletionRecord,
  }));
}

/** The checkpoints kept in Postgres (cluster mode), in the order of the entries they cover. */
export async function storeCheckpointSource(pool: pg.Pool, schema: string): Promise<CheckpointSource> {
  const table = `${quoteIdentifier(schema)}.audit_checkpoints`;
  const rows = await pool.query<{ entries: string; line: string }>(
    `select entries, line from ${table} order by entries`,
  );
  return {
    name: `${schema}.audit_checkpoints`,
    missing: null,
    *lines() {
      for (const row of rows.rows)
        yield {
          where: `${schema}.audit_checkpoints (row of ${row.entries} entries)`,
          line: row.line,
          mayBeTorn: false,
        };
    },
  };
}

export function describeStoreVerify(result: StoreVerifyResult): string {
  const lines = result.ok
    ? [
        `store audit chain intact: ${counted(result.entries, 'entry', 'entries')}` +
          (result.deleted > 0 ? ` (the first ${result.deleted} deleted by audit retention)` : '') +
          `; log files match ` +
          `it: ${counted(result.projected, 'entry', 'entries')} in ${counted(result.files, 'file')}`,
      ]
    : [
        result.problem ?? 'store audit chain broken',
        `${counted(result.entries, 'entry', 'entries')} before it ${result.entries === 1 ? 'is' : 'are'} intact`,
      ];
  for (const warning of result.warnings) lines.push(`warning: ${warning}`);
  return lines.join('\n') + '\n';
}
