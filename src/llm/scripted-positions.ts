/**
 * Where the scripted provider is in each agent's list of responses. One process hands the entries
 * out in order, as the calls come (across sessions). A session this process did not serve from its
 * start — resumed by a restarted daemon, or answered by a reply through `govflow run` in a new
 * process — made calls in an earlier process, which used the first entries; its journal counts
 * them (`LlmRequest.journaledCalls`), and the list goes on after them. So a resumed session
 * continues where it was instead of hearing its first answers (and running their tool calls) again.
 */

/**
 * Sessions remembered per agent before the least recently used is forgotten: enough for any
 * test or benchmark daemon, and a bound on what a long-running one keeps.
 */
const REMEMBERED_SESSIONS = 100_000;

export class ScriptPositions {
  /** The next entry per agent. */
  private readonly next = new Map<string, number>();
  /** Calls this process answered (or accounted for) per session and agent, least recently used first. */
  private readonly answered = new Map<string, number>();

  /**
   * The entry for this call (it may lie past the list's end), skipping the entries that calls of
   * an earlier process used: those the journal shows for this session and agent beyond the ones
   * answered here. The position moves past it only with `advance`.
   */
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
