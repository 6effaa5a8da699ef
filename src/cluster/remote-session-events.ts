/**
 * Live events of sessions that run on other daemons: this daemon's runner feeds the HTTP streams'
 * bus directly, and this feeds it the rest from Postgres: a `message` per projected audit entry,
 * then `pending` or `session_finished` from the result notices. Model text streams only where the
 * session runs.
 */
import { parseEntries } from '../audit/audit-entry-parse.js';
import type { SessionEvents } from '../pipeline/session-events.js';
import type { ResultNotice } from './store-committer.js';

/** How long after a session ran here its events are still taken to come from our own runner. */
const LOCAL_ECHO_MS = 10_000;

export class RemoteSessionEvents {
  /** When sessions that ran here lately ended. */
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
      // An operator's entry (docs/run-control.md) is not a message: no `message` event.
      if (!parsed || parsed.sequence === null) continue;
      const { sequence, agent, status, outputType, messageId } = parsed;
      this.events.emit('message', {
        sessionId,
        sequence,
        agent,
        status: status.code,
        outputType: outputType || null,
        messageId,
        entryHash: hash,
      });
    }
  }

  /** A session paused or finished; call once the projection has its last entries. */
  result(notice: ResultNotice): void {
    if (this.local(notice.session)) return;
    // The notice does not say which pause (no key): a stream that replayed it may show pending twice.
    if (notice.state === 'paused')
      this.events.emit('pending', {
        sessionId: notice.session,
        question: notice.message ?? '',
        awaiting: 'reply',
        pause: '',
      });
    else
      this.events.emit('session_finished', {
        sessionId: notice.session,
        requestId: notice.request,
        status: notice.status,
      });
  }
}
