import { configDefaults, defineConfig } from 'vitest/config';

/**
 * Slow end-to-end files that test govflow's own behaviour (cluster mode on Postgres, crash storms,
 * a load run, the npm package, the deploy files, disks) rather than anything the Node runtime does:
 * `.ci/run` runs them once, on the machine's Node, and leaves them out of the runs on Node 22 and
 * 24 (GOVFLOW_TEST_SCOPE=runtime). `npm test` runs everything.
 */
export const onceOnlyFiles = [
  'test/deploy/**',
  'test/cluster/**',
  'test/cli/npm-package.test.ts',
  'test/daemon/daemon-stop-crash.test.ts',
  'test/daemon/daemon-load.test.ts',
  'test/daemon/daemon-disk.test.ts',
  'test/daemon/daemon-small-disk.test.ts',
  'test/daemon/root-owner.test.ts',
];

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    exclude:
      process.env.GOVFLOW_TEST_SCOPE === 'runtime'
        ? [...configDefaults.exclude, ...onceOnlyFiles]
        : configDefaults.exclude,
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
