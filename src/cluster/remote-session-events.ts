/**
 * Live events of sessions that run on other daemons (docs/cluster.md: the event stream read from
 * the database on any daemon). The HTTP streams listen on one bus; this daemon's own runner
 * feeds it directly, and this feeds it what Postgres says about everyone else's sessions: a
 * `message` per audit entry once the projection wrote it, then `pending` or `session_finished`
 * from the result notices. Model text (`content_chunk`) streams only where the session runs.
 */
import { parseEntries } from '../audit/audit-entry-parse.js';
import type { SessionEvents } from '../pipeline/session-events.js';
import type { ResultNotice } from './store-committer.js';

/** How long after a session ran here its events are still taken to come from our own runner. */
const LOCAL_ECHO_MS = 10_000;

export class RemoteSessionEvents {
  /** Sessions that ran here lately (id → when they ended). */
  private readonly ranHere = new Map<string, number>();

  constructor(
    private readonly events: SessionEvents,
    /** True while a session runs on this daemon. */
    private readonly runningHere: (sessionId: string) => boolean,
  ) {}

  /** A session run here ended: its events were emitted by our runner already. */
  ended(sessionId: string): void {
    this.ranHere.set(sessionId, Date.now());
    for (const [id, at] of this.ranHere) if (Date.now() - at > LOCAL_ECHO_MS) this.ranHere.delete(id);
  }

  private local(sessionId: string): boolean {
    return this.runningHere(sessionId) || this.ranHere.has(sessionId);
  }

  /** Entries the projection just wrote. */
  entries(entries: Array<{ sessionId: string; entry: string; hash: string }>): void {
    for (const { sessionId, entry, hash } of entries) {
      if (this.local(sessionId)) continue;
      // The entry as committed, read by the log's own parser (an entry it cannot read has no live event).
      let parsed;
      try {
        parsed = parseEntries(entry).entries[0];
      } catch {
        continue;
      }
      if (!parsed) continue;
      this.events.emit('message', {
        sessionId,
        sequence: parsed.sequence,
        agent: parsed.agent,
        status: parsed.status.code,
        outputType: parsed.outputType || null,
        messageId: parsed.messageId,
        entryHash: hash,
      });
    }
  }

  /** A session paused or finished; call once the projection has its last entries. */
  result(notice: ResultNotice): void {
    if (this.local(notice.session)) return;
    // The notice does not say which pause (no key): a stream that replayed it may show pending twice.
    if (notice.state === 'paused') this.events.emit('pending', { sessionId: notice.session, question: notice.message ?? '', awaiting: 'reply', pause: '' });
    else this.events.emit('session_finished', { sessionId: notice.session, requestId: notice.request, status: notice.status });
  }
}
