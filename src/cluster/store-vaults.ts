/**
 * The PII vaults of cluster mode (docs/privacy.md "Where the originals are", docs/cluster.md): one
 * row per session in `pii_vaults` (migration 8), the vault's JSON sealed with AES-256-GCM under the
 * key from GOVFLOW_VAULT_KEY or `privacy.vault_key_file`, which never enters the database. Any
 * daemon that runs, resumes, retries or forks a session opens the same vault, so a value keeps its
 * placeholder wherever the session runs. The intake redacts requests and replies with it before
 * the store keeps them (the originals are nowhere else in the store), and the outbox result is
 * restored with it as it is written.
 */
import { readFileSync } from 'node:fs';
import type pg from 'pg';
import type { GovflowConfig } from '../config/config-loader.js';
import { GovflowError, errorMessage } from '../errors.js';
import type { PiiCounts } from '../privacy/pii-redactor.js';
import { PiiRedactor } from '../privacy/pii-redactor.js';
import type { SessionVault, VaultEntry } from '../privacy/pii-vault.js';
import { SessionPrivacy } from '../privacy/session-privacy.js';
import { chatOrderOf, redactChatOrder } from '../pipeline/chat-turn.js';
import { sealVault, unsealVault } from '../privacy/vault-cipher.js';
import { inTransaction, tablesOf } from './postgres-connection.js';
import { LeaseLostError, StoreUnavailableError } from './store-committer.js';

type Queryable = pg.Pool | pg.PoolClient;

/** A request or reply with its PII taken out, and the file redaction to apply once it is committed. */
export interface RedactedInput<T> {
  value: T;
  counts: PiiCounts;
  /** Rewrites the claimed file with the same placeholders (after the commit; the vault holds them already). */
  redactFile(file: string): void;
}

export class StoreVaults {
  private readonly vaults: string;
  private readonly sessions: string;
  /** Each session's vault writes in order; the first failure fails the session's next commit. */
  private readonly writes = new Map<string, { chain: Promise<void>; failure: Error | null }>();

  constructor(
    private readonly pool: pg.Pool,
    schema: string,
    private readonly key: Buffer,
    private readonly daemonId: string,
    private readonly config: GovflowConfig,
  ) {
    const table = tablesOf(schema);
    this.vaults = table('pii_vaults');
    this.sessions = table('sessions');
  }

  /** The `pii:` settings the intake redacts with. */
  get pii(): GovflowConfig['pii'] {
    return this.config.pii;
  }

  /** The session's entries (none before its first value was redacted). */
  async read(sessionId: string, db: Queryable = this.pool): Promise<VaultEntry[]> {
    const row = await db.query<{ sealed: Buffer }>(`select sealed from ${this.vaults} where session_id = $1`, [
      sessionId,
    ]);
    const sealed = row.rows[0]?.sealed;
    return sealed ? unsealVault(this.key, sessionId, sealed) : [];
  }

  /** Writes a vault in the caller's transaction (the intake, under the session row's lock). */
  async save(client: pg.PoolClient, sessionId: string, entries: readonly VaultEntry[]): Promise<void> {
    await client.query(
      `insert into ${this.vaults} (session_id, sealed) values ($1, $2) ` +
        'on conflict (session_id) do update set sealed = excluded.sealed, updated_at = now()',
      [sessionId, sealVault(this.key, sessionId, entries)],
    );
  }

  /**
   * The vault of a session this daemon runs; each write is fenced by the lease (`epochOf`), so a
   * daemon that lost the session cannot put back an older vault over the new holder's.
   */
  async open(sessionId: string, epochOf: () => number | undefined): Promise<SessionVault> {
    // A session of this process (a delegating parent) may have writes on their way: read after them.
    await this.writes.get(sessionId)?.chain;
    const entries = await this.read(sessionId);
    return { entries, write: (all) => this.queueWrite(sessionId, [...all], epochOf()) };
  }

  /** Resolves once every vault write of the session so far is in the store (before a journal write uses its placeholders). */
  async flushed(sessionId: string): Promise<void> {
    const pending = this.writes.get(sessionId);
    if (!pending) return;
    await pending.chain;
    if (pending.failure) throw pending.failure;
  }

  /** The session is no longer held here. */
  forget(sessionId: string): void {
    this.writes.delete(sessionId);
  }

  /**
   * A new session's request redacted for the store, its vault (a fork's starts from its original's,
   * a chat turn's from its previous turn's) written in `client`'s transaction by `commit`.
   */
  async redactRequest(
    sessionId: string,
    inheritsFrom: string | null,
    request: { text: string; metadata: Record<string, unknown> | null; chat?: Record<string, unknown> },
    file: string | null,
  ): Promise<
    RedactedInput<{ text: string; metadata: Record<string, unknown> | null; chat?: Record<string, unknown> }> & {
      commit(client: pg.PoolClient): Promise<void>;
    }
  > {
    const inherited = inheritsFrom === null ? [] : await this.read(inheritsFrom);
    const privacy = SessionPrivacy.forNewSession(this.config, { entries: [], write: () => undefined }, inherited, true);
    return this.redacting(sessionId, privacy, file, () => ({
      text: privacy.redactUserText(request.text),
      metadata: request.metadata ? privacy.redactUserValue(request.metadata) : null,
      // A chat turn's context and history, in the order the session redacts them (session-creation.ts).
      ...(request.chat ? { chat: redactedChat(request.chat, privacy) } : {}),
    }));
  }

  /** A reply redacted with its session's vault; call in the transaction that holds the session row's lock. */
  async redactReply(
    client: pg.PoolClient,
    sessionId: string,
    text: string,
    file: string | null,
  ): Promise<RedactedInput<string> & { commit(client: pg.PoolClient): Promise<void> }> {
    const privacy = SessionPrivacy.forSession(this.config, {
      entries: await this.read(sessionId, client),
      write: () => undefined,
    });
    return this.redacting(sessionId, privacy, file, () => privacy.redactUserText(text));
  }

  /** Put back the originals of a result document (the outbox's copy, with pii.restore_in_result). */
  async restoreResult(sessionId: string, json: string): Promise<string> {
    const entries = await this.read(sessionId);
    if (entries.length === 0) return json;
    return `${JSON.stringify(new PiiRedactor([], entries).restoreValue(JSON.parse(json)), null, 2)}\n`;
  }

  private redacting<T>(
    sessionId: string,
    privacy: SessionPrivacy,
    file: string | null,
    redact: () => T,
  ): RedactedInput<T> & { commit(client: pg.PoolClient): Promise<void> } {
    const value = redact();
    const counts = privacy.takeUserInputCounts();
    // The claimed file's placeholders go into the vault with the request's (the user field of a JSON file, say).
    if (file !== null) privacy.redactFileText(readText(file));
    return {
      value,
      counts,
      commit: async (client) => {
        if (privacy.vaultEntries().length > 0) await this.save(client, sessionId, privacy.vaultEntries());
      },
      redactFile: (target) => privacy.redactFile(target),
    };
  }

  private queueWrite(sessionId: string, entries: VaultEntry[], epoch: number | undefined): void {
    let pending = this.writes.get(sessionId);
    if (!pending) {
      pending = { chain: Promise.resolve(), failure: null };
      this.writes.set(sessionId, pending);
    }
    const state = pending;
    state.chain = state.chain.then(async () => {
      if (state.failure) return;
      try {
        if (epoch === undefined)
          throw new LeaseLostError(`session ${sessionId} is not leased to this daemon`, { sessionId });
        const written = await this.pool.query(
          `insert into ${this.vaults} (session_id, sealed) select $1, $2 where exists (select 1 from ${this.sessions} ` +
            'where session_id = $1 and owner = $3 and epoch = $4 for share) ' +
            'on conflict (session_id) do update set sealed = excluded.sealed, updated_at = now()',
          [sessionId, sealVault(this.key, sessionId, entries), this.daemonId, epoch],
        );
        if (written.rowCount === 0)
          throw new LeaseLostError(`session ${sessionId}: another daemon holds it now; its PII vault was not written`, {
            sessionId,
          });
      } catch (error) {
        state.failure =
          error instanceof GovflowError
            ? error
            : new StoreUnavailableError(
                `session ${sessionId}: its PII vault could not be written: ${errorMessage(error)}`,
                {
                  sessionId,
                  cause: error,
                },
              );
      }
    });
  }
}

/** A chat order's context and history redacted; a damaged order (claimed-run.ts leaves it out) redacted whole. */
function redactedChat(chat: Record<string, unknown>, privacy: SessionPrivacy): Record<string, unknown> {
  const order = chatOrderOf(chat);
  return typeof order === 'string'
    ? privacy.redactUserValue(chat)
    : (redactChatOrder(order, privacy) as unknown as Record<string, unknown>);
}

function readText(file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return ''; // gone already (a retried item): nothing of it to redact
  }
}

/**
 * Key rotation (docs/privacy.md "Rotating the vault key"): every vault sealed under `previous` is
 * sealed again under `next`, in one transaction (a vault already under `next` is left as it is);
 * one that opens with neither key stops it, naming the session, and nothing changes.
 */
export async function resealVaults(
  pool: pg.Pool,
  schema: string,
  keys: { previous: Buffer; next: Buffer },
): Promise<{ resealed: number; current: number }> {
  const vaults = tablesOf(schema)('pii_vaults');
  return inTransaction(pool, async (client) => {
    const rows = await client.query<{ session_id: string; sealed: Buffer }>(
      `select session_id, sealed from ${vaults} order by session_id for update`,
    );
    let resealed = 0;
    for (const { session_id: sessionId, sealed } of rows.rows) {
      try {
        unsealVault(keys.next, sessionId, sealed);
        continue; // sealed under the new key already
      } catch {
        // under the previous key, or neither (unsealVault below names it)
      }
      const entries = unsealVault(keys.previous, sessionId, sealed);
      await client.query(`update ${vaults} set sealed = $2, updated_at = now() where session_id = $1`, [
        sessionId,
        sealVault(keys.next, sessionId, entries),
      ]);
      resealed += 1;
    }
    return { resealed, current: rows.rows.length - resealed };
  });
}
