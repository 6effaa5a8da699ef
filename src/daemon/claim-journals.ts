/**
 * What crash recovery asks a session's journal about a claimed file in system/processing/: did
 * this claim start the session, and was this reply already applied? The claimed files are the
 * truth of what was accepted; the journals say how far each got.
 */
import { rmSync } from 'node:fs';
import { SessionJournal } from '../store/session-journal.js';

/**
 * True when the session's journal was started for exactly this claimed file. A journal a crash
 * left without even its first record holds nothing committed: it is removed, so the request
 * starts over under the same session id.
 */
export function sessionStartedByClaim(sessionsDir: string, sessionId: string, claimedPath: string): boolean {
  if (!SessionJournal.exists(sessionsDir, sessionId)) return false;
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
