#!/usr/bin/env node
import { existsSync } from 'node:fs';
import module from 'node:module';
import { fileURLToPath } from 'node:url';

// dist/bundle/: dist/ linked into a few files by rolldown (rolldown.config.mjs), which starts faster.
const main = new URL('../dist/bundle/main.js', import.meta.url);
if (!existsSync(main)) {
  // A clone of the repository before its first build (the package ships dist/bundle/).
  console.error(`govflow: ${fileURLToPath(main)} is missing: build govflow first (npm run build in its folder)`);
  process.exit(2);
}
// Node 22.1+ keeps the compiled code of govflow and its dependencies between runs (each CLI command
// and daemon start compiles less); Node 20 has no such cache and starts as before.
module.enableCompileCache?.();
// `govflow start` sets the Node flags the daemon runs with itself (SPEC §21, src/cli/daemon-node-flags.ts):
// the process replaces itself before the CLI is loaded, so nothing of the first run is left.
if (process.argv[2] === 'start') (await import('../dist/bundle/daemon-node-flags.js')).execWithDaemonNodeFlags();
const cli = await import(main.href);

cli.main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error) => {
    console.error(error instanceof Error ? (error.stack ?? error.message) : String(error));
    process.exitCode = 2;
  },
);
