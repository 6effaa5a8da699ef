/** `govflow status`: running, paused and recently finished sessions, with current agent and age. */
import { readConfigStatus } from '../daemon/config-status.js';
import { readDiskStatus, type DiskStatus } from '../store/status-file.js';
import { witnessLag, witnessLines } from '../audit/checkpoint-witnesses.js';
import { webhookLag, webhookLines } from '../notify/webhook-notifier.js';
import { readRecoveryStatus } from '../daemon/recovery-progress.js';
import { RootLock } from '../daemon/root-lock.js';
import { systemPaths, type SystemPaths } from '../config/system-paths.js';
import { countsLine, emptyCounts, manifestListingStatus } from '../store/session-listing.js';
import { RunClaims } from '../daemon/run-claims.js';
import { type SessionManifest } from '../store/session-journal.js';
import { SessionJournal } from '../store/journal-reader.js';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { CommandContext, CommandDefinition } from './command-context.js';

const RECENT = 10;

/** `disk: ALARM ...` and one `waiting: <errno> on <path>` line per write waiting for the disk. */
function diskLines(disk: DiskStatus | null): string[] {
  if (disk === null) return [];
  const lines: string[] = [];
  if (disk.alarm) {
    lines.push(
      `disk: ALARM since ${disk.alarm_since}: ${disk.free_bytes} bytes free, below intake.min_free_bytes ${disk.min_free_bytes}; new ` +
        `requests wait in the inbox`,
    );
  }
  for (const wait of disk.waiting)
    lines.push(`waiting: ${wait.errno} on ${wait.path} (since ${wait.since}, ${wait.attempts} attempts)`);
  return lines;
}

function age(fromIso: string, now: number): string {
  const seconds = Math.max(0, Math.round((now - Date.parse(fromIso)) / 1000));
  if (seconds < 120) return `${seconds}s`;
  if (seconds < 7200) return `${Math.round(seconds / 60)}m`;
  if (seconds < 172_800) return `${Math.round(seconds / 3600)}h`;
  return `${Math.round(seconds / 86_400)}d`;
}

/** Requests claimed whose session has not started; the config (for their session ids) is loaded only when there are claims. */
async function queuedCount(root: string, paths: SystemPaths, env: NodeJS.ProcessEnv): Promise<number> {
  if (!existsSync(paths.processing) || readdirSync(paths.processing).every((name) => name.startsWith('.'))) return 0;
  const { loadConfig } = await import('../config/config-loader.js');
  const { QueuedRequests } = await import('../intake/queued-requests.js');
  const config = loadConfig(root, env);
  const claims = new QueuedRequests(paths, config.timezone, config.intake.max_bytes);
  return (await claims.queued((sessionId) => SessionJournal.exists(paths.sessions, sessionId))).length;
}

/** True for a root in cluster mode; the config is loaded only when it can be (status stays light). */
async function usesPostgres(root: string, env: NodeJS.ProcessEnv): Promise<boolean> {
  const file = path.join(root, 'govflow.config.yaml');
  if (!env.GOVFLOW_STORE && !(existsSync(file) && readFileSync(file, 'utf8').includes('postgres'))) return false;
  const { loadConfig } = await import('../config/config-loader.js');
  return loadConfig(root, env).store.kind === 'postgres';
}

/** Cluster mode (docs/cluster.md): the whole cluster's sessions, from Postgres; this root's daemon's witnesses. */
async function clusterStatusCommand(root: string, json: boolean, io: CommandContext['io']): Promise<number> {
  const { loadConfig } = await import('../config/config-loader.js');
  const { openPool, storeSettings } = await import('../cluster/postgres-connection.js');
  const { clusterStatus } = await import('../cluster/cluster-status.js');
  const settings = storeSettings(loadConfig(root, io.env));
  const pool = await openPool(settings);
  try {
    const { state } = systemPaths(root);
    const owner = RootLock.owner(state)?.pid;
    const status = await clusterStatus(pool, settings.schema, witnessLag(state, owner), webhookLag(state, owner));
    io.stdout(json ? `${JSON.stringify(status.json, null, 2)}\n` : status.text);
  } finally {
    await pool.end();
  }
  return 0;
}

export const statusCommand: CommandDefinition = {
  options: { json: { type: 'boolean' } },
  async run({ root, values, io }) {
    if (await usesPostgres(root, io.env)) return clusterStatusCommand(root, values.json === true, io);
    const paths = systemPaths(root);
    const now = Date.now();
    const owner = RootLock.owner(paths.state);
    const daemons = owner?.kind === 'daemon' ? [owner.pid] : [];
    // The status files count only as the running daemon wrote them.
    const diskStatus = readDiskStatus(paths);
    const disk = diskStatus !== null && diskStatus.pid === owner?.pid ? diskStatus : null;
    const witnesses = witnessLag(paths.state, owner?.pid);
    const webhooks = webhookLag(paths.state, owner?.pid);
    const recoveryStatus = readRecoveryStatus(paths);
    const recovery =
      recoveryStatus !== null && recoveryStatus.pid === owner?.pid && recoveryStatus.done < recoveryStatus.total
        ? recoveryStatus
        : null;
    const configStatus = owner?.kind === 'daemon' ? readConfigStatus(paths.state, owner.pid) : null;
    const config = configStatus === null ? null : { restart_needed: configStatus.restart_needed };
    // Manifests (written at each step and at the end) alone tell running, paused and finished apart.
    const all = SessionJournal.list(paths.sessions)
      .map((id) => SessionJournal.readManifestOrJournal(paths.sessions, id))
      .filter((manifest): manifest is SessionManifest => manifest !== null);
    // Running with no live owner, or not among a one-shot owner's runs: interrupted (the next
    // start or run resumes it).
    const runClaims = new Set(new RunClaims(paths.state).list());
    const ownerDead = (manifest: SessionManifest) =>
      owner === null || (owner.kind === 'run' && !runClaims.has(manifest.session_id));
    const unfinished = all.filter((manifest) => manifest.state === 'RUNNING' || manifest.state === 'PENDING');
    const interrupted = unfinished.filter(ownerDead);
    const running = unfinished.filter((manifest) => !ownerDead(manifest));
    const paused = all.filter((manifest) => manifest.state === 'PAUSED');
    const recent = all
      .filter((manifest) => !['RUNNING', 'PENDING', 'PAUSED'].includes(manifest.state))
      .sort((a, b) => b.updated_at.localeCompare(a.updated_at))
      .slice(0, RECENT);
    const byStatus = emptyCounts();
    for (const manifest of all) byStatus[manifestListingStatus(manifest)] += 1;
    byStatus.queued = await queuedCount(root, paths, io.env);
    if (values.json) {
      const report = { daemons, config, disk, witnesses, webhooks, recovery, sessions_by_status: byStatus };
      io.stdout(`${JSON.stringify({ ...report, running, interrupted, paused, recent }, null, 2)}\n`);
      return 0;
    }
    // A running or paused session names the agent at work; a finished one the agent it ended on.
    const line = (manifest: SessionManifest) =>
      `  ${manifest.session_id}  ${manifest.state.padEnd(11)} agent=${manifest.current_agent ?? manifest.last_agent ?? '-'}  ` +
      `messages=${manifest.messages}  age=${age(manifest.created_at, now)}  request=${manifest.request_id}`;
    const lines = [
      `daemon: ${daemons.length > 0 ? `running (pid ${daemons.join(', ')})` : 'not running'}  root: ${root}`,
      ...(config !== null && config.restart_needed.length > 0
        ? [
            `config: restart needed: govflow.config.yaml changed ${config.restart_needed.join(', ')} since the daemon started`,
          ]
        : []),
      ...diskLines(disk),
      ...(recovery
        ? [
            `recovering: ${recovery.total - recovery.done} of ${recovery.total} requests left by an earlier run still ` +
              `waiting, ${recovery.per_second}/s (new requests are taken meanwhile)`,
          ]
        : []),
      ...witnessLines(witnesses),
      ...webhookLines(webhooks),
      countsLine(byStatus),
      `running (${running.length}):`,
      ...running.map(line),
      ...(interrupted.length > 0
        ? [
            `interrupted (${interrupted.length}; its process died — the next \`govflow start\` or \`govflow run\` resumes it):`,
            ...interrupted.map(line),
          ]
        : []),
      `paused (${paused.length}):`,
      ...paused.map((manifest) => `${line(manifest)}\n      question: ${manifest.question ?? ''}`),
      `recently finished (${recent.length}):`,
      ...recent.map(line),
    ];
    io.stdout(`${lines.join('\n')}\n`);
    return 0;
  },
};
