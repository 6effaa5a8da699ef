import { configDefaults, defineConfig } from 'vitest/config';

/**
 * Slow end-to-end files that test govflow's own behaviour rather than anything the Node runtime
 * does: `npm test` leaves them out (a newcomer's run, and CI's runs on Node 22 and 24), `npm run
 * test:all` (GOVFLOW_TEST_SCOPE=all) runs them too, as CI does once on the machine's Node. What
 * depends on the runtime stays in `npm test`: every provider's wire format through the AI SDK
 * (conformance-*), the HTTP server and its streams, commands in bubblewrap and their process
 * groups, MCP servers, file watching (config reload), the local model, the crypto of the vault.
 */
export const slowEndToEndFiles = [
  // Cluster mode on Postgres, crash storms, the load run, disks, the npm package, the deploy files.
  'test/deploy/**',
  'test/cluster/**',
  'test/cli/npm-package.test.ts',
  'test/daemon/daemon-stop-crash.test.ts',
  'test/daemon/daemon-load.test.ts',
  'test/daemon/daemon-disk.test.ts',
  'test/daemon/daemon-small-disk.test.ts',
  'test/daemon/root-owner.test.ts',
  // Crashes and restarts of the daemon (kill -9, then recovery).
  'test/daemon/daemon-tool-recovery.test.ts',
  'test/daemon/daemon-recovery-status.test.ts',
  'test/daemon/run-killed.test.ts',
  'test/daemon/attachments-crash.test.ts',
  'test/daemon/restart-log-reads.test.ts',
  'test/notify/webhook-restart.test.ts',
  // Whole daemons through a feature's scenarios: the CLI, documentation snippets, the web view in
  // Chromium, retention, run control, signed checkpoints, listings, reasoning, PII, rate limits,
  // MCP forwarding, every provider's `govflow run`.
  'test/cli/readme-snippets.test.ts',
  'test/cli/cli-behaviour.test.ts',
  'test/cli/exit-codes.test.ts',
  'test/cli/run-reply-resume.test.ts',
  'test/foundation/validate-process.test.ts',
  'test/web/web-actions.test.ts',
  'test/web/web-ui.test.ts',
  'test/web/web-approval.test.ts',
  'test/audit/retention.test.ts',
  'test/audit/retention-fork.test.ts',
  'test/audit/retention-attachments.test.ts',
  'test/audit/signed-checkpoints.test.ts',
  'test/control/control-cli.test.ts',
  'test/control/deadline-halt-in-flight.test.ts',
  'test/control/steward-daemon.test.ts',
  'test/control/halt-daemon.test.ts',
  'test/control/cancel-daemon.test.ts',
  'test/http/chat-pii.test.ts',
  'test/http/http-rate-limits.test.ts',
  'test/http/http-forward-authorization.test.ts',
  'test/privacy/privacy-daemon.test.ts',
  'test/daemon/daemon-sessions.test.ts',
  'test/daemon/daemon-claude-code.test.ts',
  'test/http/sessions-listing.test.ts',
  'test/routing/reasoning-daemon.test.ts',
  'test/providers/govflow-run-providers.test.ts',
  // Whole daemons through Part IV–V features (delegation, budgets and limits, fork, operator
  // entries, data mapping, free text), a live verify, and recovery from journals cut at every step.
  'test/daemon/daemon-attachments.test.ts',
  'test/daemon/daemon-delegation-envelope.test.ts',
  'test/daemon/delegation-checklist.test.ts',
  'test/daemon/user-daily-budgets.test.ts',
  'test/daemon/daemon-damaged-journal.test.ts',
  'test/control/operator-audit.test.ts',
  'test/control/fork-daemon.test.ts',
  'test/control/control-bounds.test.ts',
  'test/control/request-limits.test.ts',
  'test/routing/input-templates-daemon.test.ts',
  'test/routing/free-text-daemon.test.ts',
  'test/audit/verify-live-root.test.ts',
  'test/pipeline/session-recovery.test.ts',
];

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    exclude:
      process.env.GOVFLOW_TEST_SCOPE === 'all'
        ? configDefaults.exclude
        : [...configDefaults.exclude, ...slowEndToEndFiles],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
    // Most tests wait on child processes, disks and sockets rather than the CPU: three files at a
    // time on the 2-core CI machine (vitest's default there is one) keeps both cores busy
    // (2 workers: 481 s on Node 24; 4 workers under load: 412 s).
    maxWorkers: 3,
    // Files share their worker's module cache instead of each starting a fresh process: most of
    // them import a good part of src/ (the config schema compiled by ajv, the AI SDK), which costs
    // about a second of CPU per file when every file pays it again (test/pipeline: 53 s of CPU
    // isolated, 26 s shared). Every file stops what it starts (daemons, servers, injected disk
    // faults) in its own after-hooks, so nothing leaks into the next file of the worker.
    isolate: false,
  },
});
