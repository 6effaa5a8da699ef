/**
 * Projects the audit chain in Postgres onto this daemon's `system/logs/` (docs/cluster.md), byte
 * for byte as committed, so the files `verify` reads are the same on every daemon. Where it resumes
 * is read from the files themselves, never a separate marker: the newest file's last ENTRY_HASH,
 * looked up in the chain. Logs ending in an entry the chain lacks are not this store's: the daemon
 * refuses to start rather than mix two chains.
 */
import * as fs from 'node:fs';
import path from 'node:path';
import type pg from 'pg';
import { cutTornTail } from '../audit/audit-chain-tail.js';
import { listLogFiles } from '../audit/audit-log-reader.js';
import { fsyncDirectoryAsync } from '../store/append-only-file.js';
import { fdatasyncAsync } from '../store/atomic-file.js';
import { ConfigError } from '../errors.js';
import { prepared, quoteIdentifier } from './postgres-connection.js';
import { coalesced } from './coalesced-run.js';

const LAST_HASH = /\[ENTRY_HASH: ([0-9a-f]{64})\]\n---\n$/;
const BATCH = 500;

export class ChainProjection {
  private position = 0;
  private readonly table: string;
  private readonly batchStatement: { name: string; text: string };

  constructor(
    private readonly pool: pg.Pool,
    schema: string,
    private readonly logsDir: string,
    private readonly durable: boolean,
    /** Hears every entry once it is in the files (the daemon turns them into live events). */
    private readonly onEntries: (entries: Array<{ sessionId: string; entry: string; hash: string }>) => void = () => {},
  ) {
    this.table = `${quoteIdentifier(schema)}.audit_entries`;
    this.batchStatement = prepared(
      `select position, day, entry, session_id, hash from ${this.table} where position > $1 order by position limit ${BATCH}`,
    );
  }

  /** Finds where the files end in the chain (cutting a torn tail); throws ConfigError on foreign logs. */
  async open(): Promise<{ repaired: string | null }> {
    fs.mkdirSync(this.logsDir, { recursive: true });
    const files = listLogFiles(this.logsDir);
    const newest = files.at(-1);
    if (newest === undefined) return { repaired: null };
    const file = path.join(this.logsDir, newest);
    const repair = cutTornTail(file);
    const text = fs.readFileSync(file, 'utf8');
    if (text.length === 0) return { repaired: repair ? file : null };
    const hash = LAST_HASH.exec(text)?.[1];
    const found = hash
      ? await this.pool.query<{ position: string }>(`select position from ${this.table} where hash = $1`, [hash])
      : null;
    if (!found || found.rows.length === 0) {
      throw new ConfigError(
        `${file} ends with an audit entry the store's chain does not hold: these logs are not a projection of this store (a files-mode root, ` +
          `or another store); move system/logs/ aside and start again`,
      );
    }
    this.position = Number(found.rows[0].position);
    return { repaired: repair ? file : null };
  }

  /** Appends every committed entry past the projected position; concurrent calls share one run. */
  readonly catchUp = coalesced(async () => {
    while (await this.appendBatch());
  });

  /** Resolves true when there may be more. */
  private async appendBatch(): Promise<boolean> {
    const rows = await this.pool.query<{
      position: string;
      day: string;
      entry: string;
      session_id: string;
      hash: string;
    }>({ ...this.batchStatement, values: [this.position] });
    if (rows.rows.length === 0) return false;
    // Runs of consecutive entries of one day become one write each.
    let start = 0;
    while (start < rows.rows.length) {
      const day = rows.rows[start].day;
      let end = start;
      while (end < rows.rows.length && rows.rows[end].day === day) end++;
      await this.append(
        day,
        rows.rows
          .slice(start, end)
          .map((row) => row.entry)
          .join(''),
      );
      this.position = Number(rows.rows[end - 1].position);
      start = end;
    }
    this.onEntries(rows.rows.map((row) => ({ sessionId: row.session_id, entry: row.entry, hash: row.hash })));
    return rows.rows.length === BATCH;
  }

  /** The write is synchronous, so a reader in this process never sees half a batch; the syncs run on the thread pool. */
  private async append(day: string, text: string): Promise<void> {
    const file = path.join(this.logsDir, `${day}.log`);
    const created = !fs.existsSync(file);
    const fd = fs.openSync(file, 'a');
    try {
      const bytes = Buffer.from(text, 'utf8');
      for (let offset = 0; offset < bytes.length;) offset += fs.writeSync(fd, bytes, offset);
      if (this.durable) await fdatasyncAsync(fd);
    } finally {
      fs.closeSync(fd);
    }
    if (created && this.durable) await fsyncDirectoryAsync(this.logsDir);
  }
}
