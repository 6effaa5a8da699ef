/**
 * Work many callers ask for and one run does (claiming, projecting, delivering results): a call
 * while a run is under way returns that run and asks it for one more pass. A failure ends the run;
 * with `onError` the run resolves after handing it the error (once per run), else it rejects.
 */
export function coalesced(pass: () => Promise<void>, onError?: (error: unknown) => void): () => Promise<void> {
  let running: Promise<void> | null = null;
  let again = false;
  return () => {
    if (running) {
      again = true;
      return running;
    }
    running = (async () => {
      try {
        do {
          again = false;
          await pass();
        } while (again);
      } catch (error) {
        if (!onError) throw error;
        onError(error);
      } finally {
        running = null;
      }
    })();
    return running;
  };
}

/**
 * Calls that each bring one item, run in groups (group commit): a call while a group runs waits
 * for the next, which takes every item waiting then (at most `max`); a lone call runs at once.
 * `run` answers each item of a group in order; when it throws, every call of that group rejects.
 */
export function grouped<T, R>(run: (items: T[]) => Promise<R[]>, max = 256): (item: T) => Promise<R> {
  const waiting: Array<{ item: T; resolve: (value: R) => void; reject: (error: unknown) => void }> = [];
  let running = false;
  const drain = async () => {
    running = true;
    while (waiting.length > 0) {
      const group = waiting.splice(0, max);
      try {
        const answers = await run(group.map((call) => call.item));
        group.forEach((call, index) => call.resolve(answers[index]!));
      } catch (error) {
        for (const call of group) call.reject(error);
      }
    }
    running = false;
  };
  return (item) =>
    new Promise<R>((resolve, reject) => {
      waiting.push({ item, resolve, reject });
      if (!running) void drain();
    });
}
