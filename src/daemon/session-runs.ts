/**
 * The sessions this daemon is running, and replies that arrive meanwhile: a run journals a pause
 * before it is done with it, and the HTTP API accepts a reply once the journal shows the pause, so
 * the reply waits for the run to end. One to a session that waits for no one is refused.
 */
import { SessionJournal } from '../store/journal-reader.js';
import { foldRecords, pauseKeyOf } from '../pipeline/session-state.js';

/** Not a pause key: a cancelled session's reply goes on to be refused for what it is, not for a run. */
const CANCELLED = '\0cancelled';

export class SessionRuns {
  private readonly runs = new Map<string, Promise<void>>();

  constructor(private readonly sessionsDir: string) {}

  /** Marks the session as worked on; call the returned function when the run ends. */
  begin(sessionId: string): () => void {
    let end = () => {};
    this.runs.set(sessionId, new Promise<void>((resolve) => (end = resolve)));
    return () => {
      this.runs.delete(sessionId);
      end();
    };
  }

  /** True while a run, reply or control of this process works on the session. */
  busy(sessionId: string): boolean {
    return this.runs.has(sessionId);
  }

  /** Resolves once the work on the session now ends (another may begin right after: check `busy` again). */
  async ended(sessionId: string): Promise<void> {
    await this.runs.get(sessionId);
  }

  /** Null once a reply may be applied, or why not (waits for no one, or answered meanwhile); `onWait` hears each wait. */
  async replyMayApply(sessionId: string, onWait: () => void): Promise<string | null> {
    let answered: string | null = null;
    for (;;) {
      const run = this.runs.get(sessionId);
      if (run === undefined && answered === null) return null;
      const pause = this.journaledPause(sessionId);
      if (pause === CANCELLED) {
        // The reply goes on to be refused for the cancel once the control's own work on the session ends.
        if (run === undefined) return null;
        await run;
        continue;
      }
      if (answered !== null && pause !== answered) {
        return `session "${sessionId}" had the question this reply answers settled by another reply meanwhile; reply to the question its result asks now`;
      }
      if (run === undefined) return null;
      if (pause === null)
        return `session "${sessionId}" is running right now; send the reply once its result is pending`;
      answered = pause;
      onWait();
      await run;
    }
  }

  /** The journaled pause's key, CANCELLED once a cancel ended the session (the reply's refusal says so), or null. */
  private journaledPause(sessionId: string): string | null {
    try {
      const state = foldRecords(SessionJournal.read(SessionJournal.directoryOf(this.sessionsDir, sessionId)));
      if (state.cancelled) return CANCELLED;
      return state.paused ? pauseKeyOf(state.paused) : null;
    } catch {
      return null;
    }
  }
}
