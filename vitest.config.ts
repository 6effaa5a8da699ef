import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
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
