/**
 * Assembles the concrete parts one process needs to run sessions: configuration, governance,
 * provider, audit writer and the session runner. Used by `govflow run` and `govflow start`.
 */
import { AuditLogWriter } from '../audit/audit-log-writer.js';
import { loggedSessionMessages } from '../audit/audit-log-reader.js';
import { complianceViolations } from '../message/compliance-violations.js';
import { loadConfig, type GovflowConfig } from '../config/config-loader.js';
import { costCalculator, createProvider } from '../llm/create-provider.js';
import { limitAnswerSize } from '../llm/answer-size-limit.js';
import type { LlmProvider } from '../llm/provider.js';
import { SessionRunner, type OperationalLog } from '../pipeline/session-runner.js';
import { SessionEvents } from '../pipeline/session-events.js';
import { compactInTimeZone } from '../message/zoned-time.js';
import { GovernanceSource } from './governance-source.js';
import type { GovernanceSnapshot } from '../governance/governance-loader.js';
import { RootLock, type RootOwnerKind } from './root-lock.js';
import { FilesSessionStore } from '../store/files-session-store.js';
import type { SessionStore } from '../store/session-store.js';
import { ToolBox } from '../tools/tool-box.js';
import { startTelemetry, type Telemetry } from '../telemetry/telemetry.js';

export interface Runtime {
  config: GovflowConfig;
  governance: GovernanceSource;
  provider: LlmProvider;
  /** The files store's audit writer; null when another store keeps the audit trail (cluster mode). */
  audit: AuditLogWriter | null;
  runner: SessionRunner;
  /** Built-in and MCP tools (closing the runtime stops the MCP servers). */
  tools: ToolBox;
  /** Live session events (HTTP stream, tracing, metrics subscribe here). */
  events: SessionEvents;
  /** OpenTelemetry export, or null when tracing is off (SPEC §14). Flushed by close(). */
  telemetry: Telemetry | null;
  warnings: string[];
  close(): Promise<void>;
}

export interface RuntimeOptions {
  env?: NodeJS.ProcessEnv;
  log?: OperationalLog;
  /** Replaces the configured provider (tests, benchmarks). */
  provider?: LlmProvider;
  now?: () => Date;
  /**
   * Take the root lock as this kind of owner before opening the audit log (the daemon and a
   * one-shot `govflow run`); throws RootLockedError when another live process owns the root.
   * Without it (tests, benchmarks) the caller promises that nothing else writes to the root.
   */
  owner?: RootOwnerKind;
  /**
   * The store sessions live in, when not the files store (cluster mode, src/cluster/): the root's
   * audit writer is then not opened, since that store keeps the audit trail.
   */
  store?: SessionStore;
  /** The governance a session runs on, when not always the current one (cluster mode pins versions). */
  governanceFor?: (sessionId: string | undefined, current: GovernanceSource) => GovernanceSnapshot;
}

/** Throws ConfigError / GovernanceInvalidError when the root cannot run. */
export async function openRuntime(root: string, options: RuntimeOptions = {}): Promise<Runtime> {
  const env = options.env ?? process.env;
  const config = loadConfig(root, env);
  const { source: governance, warnings } = GovernanceSource.load(config);
  // Bare: the runner puts it inside the retry wrapper (src/pipeline/step-attempts.ts).
  const provider = options.provider ?? createProvider(config, env);
  const lock = options.owner === undefined ? null : await RootLock.acquire(config.paths.state, options.owner);
  let audit: AuditLogWriter | null = null;
  try {
    if (!options.store) audit = await AuditLogWriter.open({ logsDir: config.paths.logs, stateDir: config.paths.state, timezone: config.timezone, durable: config.daemon.fsync, log: (message, fields) => options.log?.error(message, fields) });
  } catch (error) {
    lock?.release();
    throw error;
  }
  for (const repair of audit?.repairs ?? []) options.log?.warn('audit log: cut a torn entry left by a crash', { ...repair });
  const events = new SessionEvents();
  // Tools agents may be offered (SPEC §10). MCP servers a killed daemon left running go first.
  const tools = new ToolBox(config, { env, log: options.log });
  tools.reapOrphans();
  let telemetry: Telemetry | null;
  try {
    telemetry = await startTelemetry(config, events, env, options.log);
  } catch (error) {
    await audit?.close();
    lock?.release();
    throw error;
  }
  // The daemon keeps new session folders made ahead; a one-shot run makes its one when needed.
  const filesStore = options.store
    ? null
    : new FilesSessionStore({
        sessionsDir: config.paths.sessions,
        outboxDir: config.paths.outbox,
        snapshotsDir: config.paths.snapshots,
        durable: config.daemon.fsync,
        audit: audit!,
        auditedMessages: (sessionId, sinceIso) =>
          loggedSessionMessages(config.paths.logs, sessionId, compactInTimeZone(new Date(Date.parse(sinceIso) - 86_400_000), config.timezone)),
        spareFolders: options.owner === 'daemon',
      });
  const runner = new SessionRunner({
    config,
    governance: (sessionId) => (options.governanceFor ? options.governanceFor(sessionId, governance) : governance.current()),
    // Every provider's answers obey llm.max_output_bytes, injected ones (tests, benchmarks) too.
    provider: limitAnswerSize(provider, config.llm.max_output_bytes),
    store: options.store ?? filesStore!,
    complianceViolations,
    costUsd: costCalculator(config, (message) => options.log?.warn(message)),
    now: options.now,
    log: options.log,
    events,
    tools,
  });
  let closed = false;
  return {
    config,
    governance,
    provider,
    audit,
    runner,
    tools,
    events,
    telemetry,
    warnings,
    async close() {
      if (closed) return;
      closed = true;
      await filesStore?.close();
      await telemetry?.shutdown();
      await tools.close().catch((error: unknown) => options.log?.warn('could not stop every MCP server', { error: String(error) }));
      try {
        await audit?.close();
      } finally {
        lock?.release();
      }
    },
  };
}
