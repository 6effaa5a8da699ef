/**
 * Preloaded into a daemon by bench/cluster.mjs (`node --import`): times every query the `pg`
 * driver sends, by statement (its text, whitespace collapsed, schema names blanked, first 70
 * characters), and writes the totals as JSON to BENCH_QUERY_TIMING_FILE when the process exits.
 * A query's time runs from its call to its answer, so it includes waiting for a lock (the chain
 * head's) and for the connection's earlier queries.
 */
import { writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const require = createRequire(path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'package.json'));
const pg = require('pg');
/** statement → { calls, ms } */
const totals = {};

function statementOf(text) {
  return text
    .replace(/\s+/g, ' ')
    .replace(/"[^"]+"\./g, '')
    .trim()
    .slice(0, 70);
}

const original = pg.Client.prototype.query;
pg.Client.prototype.query = function timedQuery(config, values, callback) {
  const text = typeof config === 'string' ? config : (config?.text ?? '');
  const key = statementOf(text);
  const bucket = (totals[key] ??= { calls: 0, ms: 0 });
  const started = performance.now();
  const done = () => {
    bucket.calls += 1;
    bucket.ms += performance.now() - started;
  };
  if (typeof callback === 'function')
    return original.call(this, config, values, (...args) => (done(), callback(...args)));
  if (typeof values === 'function') return original.call(this, config, (...args) => (done(), values(...args)));
  const result = original.call(this, config, values);
  if (result && typeof result.then === 'function') result.then(done, done);
  return result;
};

process.on('exit', () => {
  if (process.env.BENCH_QUERY_TIMING_FILE) writeFileSync(process.env.BENCH_QUERY_TIMING_FILE, JSON.stringify(totals));
});
