/**
 * The CLI as `bin/govflow.js` loads it: dist/ (tsc's output) linked by rolldown into dist/bundle/,
 * govflow and the dependencies it imports in a few files instead of ~600 modules. Node resolves,
 * reads and links each module it loads, so bundled a `govflow start` to ready and back costs 0.6–0.75×
 * the CPU on Node 20 and 22 and 0.86× on Node 24, `govflow validate` 0.7× (bench/cli-startup.mjs).
 * Each command still loads only its own chunks (the dynamic imports of src/cli/command-list.ts).
 *
 * Left outside the bundle, loaded from node_modules when used: what loads native code or its own
 * files by path (node-llama-cpp, playwright-core, pg and its optional pg-native).
 *
 * Every chunk is ASCII: V8 keeps a module's source text in the heap for as long as its functions
 * live, one byte per character when the text is all Latin-1 and two when one character is not
 * (docs/deploy.md: a daemon's memory). Strings and regular expressions are escaped (`charset`),
 * doc comments dropped, and the licence comments kept are escaped too; the build fails on a chunk
 * that is not ASCII.
 */
import { defineConfig } from 'rolldown';

const EXTERNAL = ['node-llama-cpp', 'playwright-core', 'pg', 'pg-native'];

/** Any character above U+007F. */
const NON_ASCII = /[\u0080-\uffff]/g;

/** Escapes what `charset: 'ascii'` leaves: characters in the block comments kept (licences). */
const asciiChunks = {
  name: 'ascii-chunks',
  renderChunk(code) {
    return code.replace(/\/\*[\s\S]*?\*\//g, (comment) =>
      comment.replace(NON_ASCII, (character) => `\\u${character.charCodeAt(0).toString(16).padStart(4, '0')}`),
    );
  },
  generateBundle(_options, bundle) {
    for (const chunk of Object.values(bundle)) {
      const at = chunk.type === 'chunk' ? chunk.code.search(NON_ASCII) : -1;
      if (at >= 0) throw new Error(`${chunk.fileName} is not ASCII at ${at}: ${chunk.code.slice(at - 60, at + 20)}`);
    }
  },
};

export default defineConfig({
  input: { main: 'dist/cli/main.js', 'daemon-node-flags': 'dist/cli/daemon-node-flags.js' },
  platform: 'node',
  external: (id) => EXTERNAL.some((name) => id === name || id.startsWith(`${name}/`)),
  plugins: [asciiChunks],
  // dist/bundle/ is two folders below the package root, as dist/cli/ is: the modules that find
  // package.json, schemas/ and the example app from import.meta.url find them from here too.
  output: {
    dir: 'dist/bundle',
    format: 'esm',
    entryFileNames: '[name].js',
    chunkFileNames: '[name]-[hash].js',
    cleanDir: true,
    charset: 'ascii',
    comments: { legal: true, annotation: false, jsdoc: false },
  },
});
