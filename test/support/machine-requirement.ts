/**
 * One rule for the tests that need something from the machine (a Postgres server, Debian's
 * Chromium, node-llama-cpp, a tmpfs it may mount). A person without it sees one printed line
 * saying what is missing and those tests skip. CI (`CI=true`), whose `.ci/run` installs and starts
 * all of them, fails instead: the test file does not load, so a missing service can never pass as
 * a green run.
 */

/** True when the tests must skip because `reason` says what is missing; null: nothing is. */
export function skipsFor(what: string, reason: string | null): boolean {
  if (reason === null) return false;
  if (process.env.CI === 'true') {
    throw new Error(
      `${what}: ${reason}. CI installs and starts what the tests need (.ci/run), so this is a failure, not a skip`,
    );
  }
  console.log(`${what} skipped: ${reason}`);
  return true;
}
