/**
 * The CLI as `bin/govflow.js` loads it: dist/ (tsc's output) linked by rolldown into dist/bundle/,
 * govflow and the dependencies it imports in a few files instead of ~600 modules. Node resolves,
 * reads and links each module it loads, so bundled a `govflow start` to ready and back costs 0.6–0.75×
 * the CPU on Node 20 and 22 and 0.86× on Node 24, `govflow validate` 0.7× (bench/cli-startup.mjs).
 * Each command still loads only its own chunks (the dynamic imports of src/cli/command-list.ts).
 *
 * Left outside the bundle, loaded from node_modules when used: what loads native code or its own
 * files by path (node-llama-cpp, playwright-core, pg and its optional pg-native).
 */
import { defineConfig } from 'rolldown';

const EXTERNAL = ['node-llama-cpp', 'playwright-core', 'pg', 'pg-native'];

export default defineConfig({
  input: { main: 'dist/cli/main.js', 'daemon-node-flags': 'dist/cli/daemon-node-flags.js' },
  platform: 'node',
  external: (id) => EXTERNAL.some((name) => id === name || id.startsWith(`${name}/`)),
  // dist/bundle/ is two folders below the package root, as dist/cli/ is: the modules that find
  // package.json, schemas/ and the example app from import.meta.url find them from here too.
  output: {
    dir: 'dist/bundle',
    format: 'esm',
    entryFileNames: '[name].js',
    chunkFileNames: '[name]-[hash].js',
    cleanDir: true,
  },
});
