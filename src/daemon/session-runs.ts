/**
 * Which sessions a run is working on in this daemon, and the rule for a reply that arrives while
 * one is. A run journals a pause before it is done with it (the result file, the manifest, the
 * other tasks of a plan), and the HTTP API accepts a reply as soon as the journal shows the pause:
 * such a reply waits for the run to end and is then applied to that same pause. A reply to a
 * session that is running and waits for no one, or whose pause was answered meanwhile, is refused.
 */
import { SessionJournal } from '../store/session-journal.js';
import { foldRecords, pauseKeyOf } from '../pipeline/session-state.js';

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

  /**
   * Resolves once a reply to the session may be applied (null), or with why it may not: the
   * session runs and waits for no one, or the pause the reply answered was answered meanwhile.
   * `onWait` hears each wait for a run that is only finishing its pause.
   */
  async replyMayApply(sessionId: string, onWait: () => void): Promise<string | null> {
    let answered: string | null = null;
    for (;;) {
      const run = this.runs.get(sessionId);
      if (run === undefined && answered === null) return null;
      const pause = this.journaledPause(sessionId);
      if (answered !== null && pause !== answered) {
        return `session "${sessionId}" had the question this reply answers settled by another reply meanwhile; reply to the question its result asks now`;
      }
      if (run === undefined) return null;
      if (pause === null) return `session "${sessionId}" is running right now; send the reply once its result is pending`;
      answered = pause;
      onWait();
      await run;
    }
  }

  private journaledPause(sessionId: string): string | null {
    try {
      const { paused } = foldRecords(SessionJournal.read(SessionJournal.directoryOf(this.sessionsDir, sessionId)));
      return paused ? pauseKeyOf(paused) : null;
    } catch {
      return null;
    }
  }
}
