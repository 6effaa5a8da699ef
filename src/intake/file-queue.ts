/** A FIFO of file names, each at most once, with O(1) `has` and `shift` (no quadratic `Array.shift`). */
export class FileQueue {
  private names: string[] = [];
  private head = 0;
  private readonly members = new Set<string>();

  get size(): number {
    return this.members.size;
  }

  has(name: string): boolean {
    return this.members.has(name);
  }

  /** Adds `name` at the back; false when it is already queued. */
  push(name: string): boolean {
    if (this.members.has(name)) return false;
    this.members.add(name);
    this.names.push(name);
    return true;
  }

  /** Takes `name` out of the queue (its place is skipped later); false when it was not queued. */
  remove(name: string): boolean {
    return this.members.delete(name);
  }

  /** Takes the oldest name, or undefined when empty. */
  shift(): string | undefined {
    let name: string | undefined;
    while (name === undefined && this.head < this.names.length) {
      const next = this.names[this.head++];
      if (this.members.delete(next)) name = next;
    }
    if (name === undefined) return undefined;
    // Drop the consumed prefix now and then, so memory follows the queue's length, not its history.
    if (this.head > 1024 && this.head * 2 > this.names.length) {
      this.names = this.names.slice(this.head);
      this.head = 0;
    }
    return name;
  }

  clear(): void {
    this.names = [];
    this.head = 0;
    this.members.clear();
  }
}
