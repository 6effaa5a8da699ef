/** What crash recovery asks a session's journal about a claimed file: how far it got. */
import { rmSync } from 'node:fs';
import { SessionJournal } from '../store/journal-reader.js';

/**
 * True when the session's journal was started for this claimed file. One a crash left without its
 * first record holds nothing: it is removed, so the request starts over under the same session id.
 */
export async function sessionStartedByClaim(
  sessionsDir: string,
  sessionId: string,
  claimedPath: string,
): Promise<boolean> {
  if (!(await SessionJournal.existsOffLoop(sessionsDir, sessionId))) return false;
  const directory = SessionJournal.directoryOf(sessionsDir, sessionId);
  const [first] = SessionJournal.read(directory);
  if (!first) {
    rmSync(directory, { recursive: true, force: true });
    return false;
  }
  return first.type === 'session' && first.claimed_path === claimedPath;
}

/** True when the session's journal holds the reply (or approval) of this claimed file. */
export function replyApplied(sessionsDir: string, sessionId: string, claimedPath: string): boolean {
  if (!SessionJournal.exists(sessionsDir, sessionId)) return false;
  return SessionJournal.read(SessionJournal.directoryOf(sessionsDir, sessionId)).some(
    (record) => (record.type === 'reply' || record.type === 'approval') && record.claimed_path === claimedPath,
  );
}
