/**
 * Inbox names left waiting while http.max_queued requests wait (inbox-claimer.ts): the names
 * parked now, and those already told to the operator (an info line naming the file), so each file
 * is logged once however often the queue fills and drains before it is claimed.
 */
import type { IntakeLog } from './inbox-claimer.js';

export class ParkedNames {
  private readonly parked = new Set<string>();
  private readonly told = new Set<string>();

  constructor(private readonly log: IntakeLog) {}

  get size(): number {
    return this.parked.size;
  }

  has(name: string): boolean {
    return this.parked.has(name);
  }

  /** Parks a name; the first time this file waits, says so: the daemon found it and leaves it in the inbox. */
  park(name: string): void {
    this.parked.add(name);
    if (this.told.has(name)) return;
    this.told.add(name);
    this.log('info', `intake: request "${name}" waits in the inbox: the queue is full (http.max_queued)`, {
      file: name,
    });
  }

  /** The parked names, to look at again; they stay told until `forget`. */
  release(): string[] {
    const names = [...this.parked];
    this.parked.clear();
    return names;
  }

  /** The file left the inbox (claimed or removed): a new file under its name is told again. */
  forget(name: string): void {
    this.told.delete(name);
  }

  clear(): void {
    this.parked.clear();
    this.told.clear();
  }
}
