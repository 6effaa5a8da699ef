/** `govflow logs` (entries filtered by day, session, agent or status; as text or JSON) and `govflow verify`. */
import { formatEntryTrailer } from '../audit/audit-entry-format.js';
import { AuditLogFormatError } from '../audit/audit-errors.js';
import {
  type EntryFilter,
  type LoggedEntry,
  entryJson,
  filterEntries,
  isLogDate,
  readLogEntries,
} from '../audit/audit-log-reader.js';
import path from 'node:path';
import { reportCheckpoints, verifyCommand } from '../audit/verify-command.js';
import { folderSource, holdCheckpoints } from '../audit/checkpoint-verify.js';
import { readPublicKey } from '../audit/checkpoint-format.js';
import { loadConfig } from '../config/config-loader.js';
import { isGovflowRoot } from '../config/govflow-root.js';
import { systemPaths } from '../config/system-paths.js';
import { RootLock } from '../daemon/root-lock.js';
import { ConfigError, UsageError } from '../errors.js';
import type { CommandDefinition } from './command-context.js';

/** Exit 0 after printing (whole lines to `write`); 2 for a bad `--date`; 1 when a log file is malformed. */
export async function logsCommand(
  options: EntryFilter & { logsDir: string; json: boolean; write: (text: string) => void },
): Promise<number> {
  if (options.date !== undefined && !isLogDate(options.date)) {
    options.write(
      `govflow logs: --date must be a day written YYYYMMDD (for example 20260308), got "${options.date}"\n`,
    );
    return 2;
  }
  let entries: LoggedEntry[];
  try {
    entries = await readLogEntries(options.logsDir, options.date === undefined ? {} : { date: options.date });
  } catch (error) {
    if (!(error instanceof AuditLogFormatError)) throw error;
    options.write(
      `govflow logs: ${error.describe()}\nrun "govflow verify" to check whether the log was tampered with\n`,
    );
    return 1;
  }
  const selected = filterEntries(entries, options);
  if (options.json) {
    options.write(JSON.stringify(selected.map(entryJson), null, 2) + '\n');
    return 0;
  }
  if (selected.length === 0) {
    options.write('no audit entries match\n');
    return 0;
  }
  let currentFile = '';
  for (const entry of selected) {
    if (entry.file !== currentFile) {
      currentFile = entry.file;
      options.write(`# ${entry.file}\n`);
    }
    options.write(entry.body + formatEntryTrailer(entry.hash));
  }
  return 0;
}

export const logsCliCommand: CommandDefinition = {
  options: {
    date: { type: 'string' },
    session: { type: 'string' },
    agent: { type: 'string' },
    status: { type: 'string' },
    json: { type: 'boolean' },
  },
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

/** True for a cluster-mode root; plain `verify` never fails on a config it does not need. */
function isClusterRoot(root: string, env: NodeJS.ProcessEnv): boolean {
  try {
    return loadConfig(root, env).store.kind === 'postgres';
  } catch {
    return false;
  }
}

export const verifyCliCommand: CommandDefinition = {
  options: { store: { type: 'boolean' }, key: { type: 'string' }, witness: { type: 'string', multiple: true } },
  async run({ root, io, values }) {
    // An auditor pointing verify at the wrong folder must not get "intact: 0 entries" (SPEC §21).
    if (!isGovflowRoot(root))
      throw new UsageError(
        `${root} is not a govflow root (it has no system/, no govflow.config.yaml and no governance/): pass --root DIR naming the root whose ` +
          `audit log to verify, or run govflow verify in it`,
      );
    const paths = systemPaths(root);
    const witnesses = ((values.witness as unknown as string[] | undefined) ?? []).map((folder) => path.resolve(folder));
    if (witnesses.length > 0 && typeof values.key !== 'string')
      throw new UsageError(
        '--witness needs --key FILE.pub: a witness holds signed checkpoints, checked with the public key',
      );
    const signed =
      typeof values.key === 'string' ? { ...readPublicKey(path.resolve(values.key)), witnesses } : undefined;
    if (values.store !== true) {
      const live = RootLock.owner(paths.state)?.kind === 'daemon';
      return verifyCommand({
        logsDir: paths.logs,
        stateDir: paths.state,
        write: io.stdout,
        projection: isClusterRoot(root, io.env),
        live,
        ...(signed ? { signed } : {}),
      });
    }
    // Cluster mode (docs/cluster.md): the chain in Postgres, and this root's log files against it.
    const config = loadConfig(root, io.env);
    if (config.store.kind !== 'postgres')
      throw new ConfigError(
        'govflow verify --store checks the Postgres store of cluster mode, and this root uses the files store: run govflow verify without --store',
      );
    const { openPool, storeSettings } = await import('../cluster/postgres-connection.js');
    const { describeStoreVerify, storeCheckpointSource, storeDeletions, verifyStore } =
      await import('../cluster/store-verify.js');
    const settings = storeSettings(config);
    const pool = await openPool(settings);
    try {
      const hashes: string[] = [];
      const result = await verifyStore(pool, settings.schema, paths.logs, hashes);
      io.stdout(describeStoreVerify(result));
      if (signed === undefined) return result.ok ? 0 : 1;
      // The one stream of checkpoints of the chain (src/cluster/store-checkpoints.ts), then each witness's copy.
      const sources = [
        await storeCheckpointSource(pool, settings.schema),
        ...signed.witnesses.map((folder) => folderSource(folder, { witness: true })),
      ];
      const checkpointsHold = reportCheckpoints(
        holdCheckpoints({
          sources,
          publicKey: signed.publicKey,
          keyId: signed.keyId,
          hashes,
          chain: 'store',
          deletions: await storeDeletions(pool, settings.schema),
        }),
        io.stdout,
      );
      return result.ok && checkpointsHold ? 0 : 1;
    } finally {
      await pool.end();
    }
  },
};
