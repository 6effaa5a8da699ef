/**
 * New requests into the `sessions` table as `queued` rows, a burst at a time (an inbox flood, many
 * POSTs): the requests that arrive while one insert runs share the next statement and its commit,
 * instead of one transaction each (Postgres's CPU per session, issue 55; a lone request goes at
 * once). Requests with a vault, attachments, a queue cap or a chat turn are inserted by
 * SessionLeases in their own transaction.
 */
import type pg from 'pg';
import { grouped } from './coalesced-run.js';
import { errorCode } from '../errors.js';
import { prepared, UNIQUE_VIOLATION } from './postgres-connection.js';

/** A plain request as inserted: its request document as JSON text. */
export interface QueuedRow {
  sessionId: string;
  requestId: string;
  document: string;
  user: string | null;
}

export class QueuedInserts {
  private readonly statement: { name: string; text: string };

  constructor(
    private readonly pool: pg.Pool,
    sessionsTable: string,
    private readonly daemonId: string,
    private readonly workChannel: string,
  ) {
    // Rows in arrival order, each created at its own clock_timestamp(), so claims (oldest first) stay
    // first in, first out; a row whose request or session id is taken inserts nothing.
    this.statement = prepared(
      `with inserted as (insert into ${sessionsTable} (session_id, request_id, state, request, user_name, intake_daemon, created_at)
         select session_id, request_id, 'queued', request::jsonb, user_name, $5, clock_timestamp()
         from unnest($1::text[], $2::text[], $3::text[], $4::text[]) with ordinality as queued(session_id, request_id, request, user_name, n)
         order by n
         on conflict do nothing
         returning session_id)
       select session_id, pg_notify($6, session_id) from inserted`,
    );
  }

  /**
   * Resolves true once the row is committed (its NOTIFY sent), false when its request or session id
   * was taken. A deleted request's id is refused by a trigger (store-migrations.ts), which fails the
   * whole statement: that group's rows then go one by one.
   */
  readonly queue: (row: QueuedRow) => Promise<boolean> = grouped(async (rows: QueuedRow[]) => {
    try {
      return await this.insert(rows);
    } catch (error) {
      if (errorCode(error) !== UNIQUE_VIOLATION) throw error;
      if (rows.length === 1) return [false];
      const alone: boolean[] = [];
      for (const row of rows) alone.push(await this.insertAlone(row));
      return alone;
    }
  });

  private async insertAlone(row: QueuedRow): Promise<boolean> {
    try {
      return (await this.insert([row]))[0]!;
    } catch (error) {
      if (errorCode(error) !== UNIQUE_VIOLATION) throw error;
      return false;
    }
  }

  private async insert(rows: QueuedRow[]): Promise<boolean[]> {
    const result = await this.pool.query<{ session_id: string }>({
      ...this.statement,
      values: [
        rows.map((row) => row.sessionId),
        rows.map((row) => row.requestId),
        rows.map((row) => row.document),
        rows.map((row) => row.user),
        this.daemonId,
        this.workChannel,
      ],
    });
    const inserted = new Set(result.rows.map((row) => row.session_id));
    return rows.map((row) => inserted.has(row.sessionId));
  }
}
