/** `govflow logs` and `govflow verify`: the auditor's commands over system/logs. */
import { logsCommand } from '../audit/logs-command.js';
import { verifyCommand } from '../audit/verify-command.js';
import { loadConfig } from '../config/config-loader.js';
import { systemPaths } from '../config/system-paths.js';
import { ConfigError } from '../errors.js';
import type { CommandDefinition } from './command-context.js';
import { describedAs } from './command-list.js';

export const logsCliCommand: CommandDefinition = {
  ...describedAs('logs'),
  options: {
    date: { type: 'string' },
    session: { type: 'string' },
    agent: { type: 'string' },
    status: { type: 'string' },
    json: { type: 'boolean' },
  },
  allowPositionals: false,
  run({ root, values, io }) {
    return logsCommand({
      logsDir: systemPaths(root).logs,
      date: values.date as string | undefined,
      session: values.session as string | undefined,
      agent: values.agent as string | undefined,
      status: values.status as string | undefined,
      json: values.json === true,
      write: io.stdout,
    });
  },
};

export const verifyCliCommand: CommandDefinition = {
  ...describedAs('verify'),
  options: { store: { type: 'boolean' } },
  allowPositionals: false,
  async run({ root, io, values }) {
    const paths = systemPaths(root);
    if (values.store !== true) return verifyCommand({ logsDir: paths.logs, stateDir: paths.state, write: io.stdout });
    // Cluster mode (SPEC §15): the chain in Postgres, and this root's log files against it.
    const config = loadConfig(root, io.env);
    if (config.store.kind !== 'postgres') throw new ConfigError('govflow verify --store checks the Postgres store of cluster mode, and this root uses the files store: run govflow verify without --store');
    const { openPool, storeSettings } = await import('../cluster/postgres-connection.js');
    const { describeStoreVerify, verifyStore } = await import('../cluster/store-verify.js');
    const settings = storeSettings(config);
    const pool = await openPool(settings);
    try {
      const result = await verifyStore(pool, settings.schema, paths.logs);
      io.stdout(describeStoreVerify(result));
      return result.ok ? 0 : 1;
    } finally {
      await pool.end();
    }
  },
};
