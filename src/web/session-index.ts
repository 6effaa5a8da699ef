/**
 * The sessions page's index, in memory so a page stays fast with 100,000 sessions: one scan on
 * first use, then the sessions the live events name are re-read at the next query.
 */
import type { SystemPaths } from '../config/system-paths.js';
import type { SessionEvents } from '../pipeline/session-events.js';
import { SessionJournal } from '../store/session-journal.js';
import {
  compareRows,
  indexRowText,
  querySessions,
  readSessionRow,
  type SessionPage,
  type SessionQuery,
} from './session-list.js';
import type { SessionRow } from '../store/session-reads.js';

const SCAN_SLICE = 500;

export class SessionIndex {
  private rows: Map<string, SessionRow> | null = null;
  /** The rows in page order; null after a session was added (re-sorted at the next query). */
  private ordered: SessionRow[] | null = null;
  private readonly dirty = new Set<string>();
  /** Agents seen answering, per session, since this process started. */
  private readonly seenAgents = new Map<string, Set<string>>();
  private readonly unsubscribers: Array<() => void> = [];

  constructor(
    private readonly paths: SystemPaths,
    events: SessionEvents,
  ) {
    const touch = (sessionId: string) => this.dirty.add(sessionId);
    this.unsubscribers.push(
      events.on('session_started', (event) => touch(event.sessionId)),
      events.on('step_started', (event) => touch(event.sessionId)),
      events.on('message', (event) => {
        touch(event.sessionId);
        this.seenAgents.set(
          event.sessionId,
          (this.seenAgents.get(event.sessionId) ?? new Set<string>()).add(event.agent),
        );
      }),
      events.on('pending', (event) => touch(event.sessionId)),
      events.on('session_finished', (event) => touch(event.sessionId)),
    );
  }

  close(): void {
    for (const unsubscribe of this.unsubscribers.splice(0)) unsubscribe();
  }

  private building: Promise<void> | null = null;

  /** The first scan, yielding to the event loop between slices: 100,000 sessions take seconds, and running sessions must not stall. */
  private build(): Promise<void> {
    this.building ??= (async () => {
      const rows = new Map<string, SessionRow>();
      this.rows = rows;
      const ids = SessionJournal.list(this.paths.sessions);
      for (let start = 0; start < ids.length; start += SCAN_SLICE) {
        for (const sessionId of ids.slice(start, start + SCAN_SLICE)) this.refresh(sessionId);
        await new Promise((resolve) => setImmediate(resolve));
      }
    })();
    return this.building;
  }

  /** Rows known right now (scans the root on first use, then re-reads only changed sessions). */
  private async current(): Promise<Map<string, SessionRow>> {
    await this.build();
    for (const sessionId of [...this.dirty]) if (this.refresh(sessionId)) this.dirty.delete(sessionId);
    return this.rows!;
  }

  /** False when the session has no manifest yet (it is written once its first step is under way). */
  private refresh(sessionId: string): boolean {
    const row = readSessionRow(this.paths, sessionId);
    if (!row) return false;
    const seen = this.seenAgents.get(sessionId);
    if (seen) row.agents = [...new Set([...row.agents, ...seen])];
    indexRowText(row);
    const known = this.rows!.get(sessionId);
    if (known) Object.assign(known, row);
    else {
      this.rows!.set(sessionId, row);
      this.ordered = null;
    }
    return true;
  }

  async query(query: SessionQuery): Promise<SessionPage> {
    const rows = await this.current();
    this.ordered ??= [...rows.values()].sort(compareRows);
    return querySessions(this.ordered, query);
  }
}
