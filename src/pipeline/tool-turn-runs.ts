/**
 * The calls of one model turn in flight (docs/tools.md "The loop", "Delegation"): `delegate` calls
 * run at the same time, at most `limits.max_fan_out` at once (the others wait for a slot), while
 * each call's result is journaled in the order of the calls, whatever order they finish in.
 */
import type { OrchestratorFailure } from '../message/orchestrator-messages.js';

/** One call that ran (or was refused): what its result's guardrails decided, and the journaling of its result. */
export interface ToolRun {
  intervene: OrchestratorFailure | null;
  record(): void;
}

/** A counting semaphore: at most `size` works at once; the others wait, first come first served. */
export class Slots {
  private free: number;
  private readonly waiting: Array<() => void> = [];

  constructor(size: number) {
    this.free = size;
  }

  /** Runs `work` once a slot is free (at once when one is: `work` starts before this returns). */
  async run<T>(work: () => Promise<T>): Promise<T> {
    if (this.free > 0) this.free -= 1;
    else await new Promise<void>((resolve) => this.waiting.push(resolve));
    try {
      return await work();
    } finally {
      const next = this.waiting.shift();
      if (next) next();
      else this.free += 1;
    }
  }
}

/** The runs of one turn, their results journaled in call order. */
export class TurnRuns {
  private readonly runs: Array<Promise<ToolRun>> = [];
  private tail: Promise<void> = Promise.resolve();
  /** Set as soon as a run's result asks to end the step: no further call starts. */
  stopped = false;

  /** Adds the next call's run; its result is journaled once every earlier call's is. Resolves null when the run threw. */
  add(run: Promise<ToolRun>): Promise<ToolRun | null> {
    this.runs.push(run);
    const settled = run.then(
      (done) => {
        if (done.intervene) this.stopped = true;
        return done;
      },
      () => {
        this.stopped = true;
        return null;
      },
    );
    this.tail = this.tail.then(async () => (await run).record());
    // Handled here so that a failed run is not an unhandled rejection before settle() rethrows it.
    this.tail.catch(() => undefined);
    return settled;
  }

  /** Waits until no call of the turn runs, journals the results, and returns the first intervene in call order; rethrows a run's error. */
  async settle(): Promise<OrchestratorFailure | null> {
    await Promise.allSettled(this.runs);
    await this.tail;
    for (const run of this.runs) {
      const { intervene } = await run;
      if (intervene) return intervene;
    }
    return null;
  }
}
