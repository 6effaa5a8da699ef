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
