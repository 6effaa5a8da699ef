/**
 * Where the scripted provider is in each agent's list of responses, handed out in order across
 * sessions. A session resumed in another process skips the entries its journal shows an earlier
 * process used (`LlmRequest.journaledCalls`), instead of hearing its first answers again.
 */

/** Sessions remembered before the least recently used is forgotten: a bound for a long-running daemon. */
const REMEMBERED_SESSIONS = 100_000;

export class ScriptPositions {
  /** The next entry per agent. */
  private readonly next = new Map<string, number>();
  /** Calls this process answered (or accounted for) per session and agent, least recently used first. */
  private readonly answered = new Map<string, number>();

  /** The entry for this call (maybe past the list's end), after those an earlier process used; `advance` moves on. */
  take(agent: string, sessionId: string | undefined, journaledCalls: number | undefined): number {
    const position = this.next.get(agent) ?? 0;
    if (sessionId === undefined || journaledCalls === undefined) return position;
    const key = `${sessionId}\u0000${agent}`;
    const answered = this.answered.get(key) ?? 0;
    // Re-inserted so the map's order stays least recently used first.
    this.answered.delete(key);
    this.answered.set(key, Math.max(answered, journaledCalls) + 1);
    if (this.answered.size > REMEMBERED_SESSIONS) this.answered.delete(this.answered.keys().next().value!);
    return position + Math.max(0, journaledCalls - answered);
  }

  /** The entry at `position` was answered: the agent's next call gets the one after it. */
  advance(agent: string, position: number): void {
    this.next.set(agent, position + 1);
  }

  /** Entries of `agent` used so far (by this process, or skipped for an earlier one). */
  used(agent: string): number {
    return this.next.get(agent) ?? 0;
  }
}
