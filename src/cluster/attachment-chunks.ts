/**
 * A request's attachments in Postgres (cluster mode, docs/attachments.md): each file as rows of
 * `attachment_chunks`, 1 MiB each, written in the transaction that queues the request and read
 * back one chunk per query by whichever daemon runs the session. Neither side holds a whole file.
 */
import { createReadStream } from 'node:fs';
import path from 'node:path';
import type pg from 'pg';
import type { AttachmentInfo } from '../store/attachment-records.js';

/** Bytes per row: small enough to bound memory, large enough that 20 MB is 20 inserts. */
export const ATTACHMENT_CHUNK_BYTES = 1_048_576;

/** Inserts every file of `folder` named in `files`, in chunks, through `client` (inside the caller's transaction). */
export async function insertAttachmentChunks(
  client: pg.PoolClient,
  table: string,
  sessionId: string,
  folder: string,
  files: readonly AttachmentInfo[],
): Promise<void> {
  for (const file of files) {
    let seq = 0;
    const stream = createReadStream(path.join(folder, file.path), { highWaterMark: ATTACHMENT_CHUNK_BYTES });
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      await client.query(`insert into ${table} (session_id, path, seq, data) values ($1, $2, $3, $4)`, [
        sessionId,
        file.path,
        seq++,
        chunk,
      ]);
    }
    // An empty file still has its row, so a reader can tell it from a missing one.
    if (seq === 0)
      await client.query(`insert into ${table} (session_id, path, seq, data) values ($1, $2, 0, $3)`, [
        sessionId,
        file.path,
        Buffer.alloc(0),
      ]);
  }
}

/** The chunks of one attachment, in order; ends without any when the store has none for it. */
export async function* readAttachmentChunks(
  pool: pg.Pool,
  table: string,
  sessionId: string,
  file: string,
  signal: AbortSignal,
): AsyncGenerator<Uint8Array> {
  for (let seq = 0; ; seq++) {
    signal.throwIfAborted();
    const result = await pool.query<{ data: Buffer }>(
      `select data from ${table} where session_id = $1 and path = $2 and seq = $3`,
      [sessionId, file, seq],
    );
    const row = result.rows[0];
    if (!row) return;
    if (row.data.length > 0) yield row.data;
  }
}
