import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
    // Most tests wait on child processes, disks and sockets rather than the CPU: two files at a
    // time on the 2-core CI machine (vitest's default there is one) brings the run under 10 minutes.
    maxWorkers: 2,
  },
});
