/**
 * Assembles the concrete parts one process needs to run sessions: configuration, governance,
 * provider, audit writer and the session runner. Used by `govflow run` and `govflow start`.
 */
import { AuditLogWriter } from '../audit/audit-log-writer.js';
import { readSigningKey } from '../audit/checkpoint-format.js';
import { CheckpointWriter, type ChainState } from '../audit/checkpoint-writer.js';
import { filesRetentionPass } from './retention-pass.js';
import { LoggedMessagesIndex } from '../audit/logged-messages-index.js';
import { complianceViolations } from '../message/compliance-violations.js';
import { loadConfig, type GovflowConfig } from '../config/config-loader.js';
import { costCalculator, createProvider } from '../llm/create-provider.js';
import { limitAnswerSize } from '../llm/answer-size-limit.js';
import type { LlmProvider } from '../llm/provider.js';
import { SessionRunner } from '../pipeline/session-runner.js';
import type { OperationalLog } from '../log-contract.js';
import { SessionEvents } from '../pipeline/session-events.js';
import { compactInTimeZone } from '../message/zoned-time.js';
import { GovernanceSource } from './governance-source.js';
import type { GovernanceSnapshot } from '../governance/governance-loader.js';
import { RootLock, type RootOwnerKind } from './root-lock.js';
import { recoveryPoint } from './recovery-point.js';
import { FilesSessionStore } from '../store/files-session-store.js';
import type { SessionStore } from '../store/session-store.js';
import { ToolBox } from '../tools/tool-box.js';
import { startTelemetry, type Telemetry } from '../telemetry/telemetry.js';
import { WebhookNotifier } from '../notify/webhook-notifier.js';
import type { SessionNotice } from '../notify/webhook-events.js';
import { FilesUserSpend, type UserSpend } from '../store/user-spend.js';

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
  /** OpenTelemetry export, or null when tracing is off (README "Traces (OpenTelemetry)"). Flushed by close(). */
  telemetry: Telemetry | null;
  /** Webhook deliveries (docs/webhooks.md), or null without `notify.webhooks`. */
  webhooks: WebhookNotifier | null;
  warnings: string[];
  close(): Promise<void>;
}

export interface RuntimeOptions {
  env?: NodeJS.ProcessEnv;
  log?: OperationalLog;
  /** Replaces the configured provider (tests, benchmarks). */
  provider?: LlmProvider;
  now?: () => Date;
  /** Take the root lock as this owner before opening the audit log; without it (tests) nothing else may write. */
  owner?: RootOwnerKind;
  /** Another store than files (cluster mode), which keeps the audit trail: the root's audit writer is not opened. */
  store?: SessionStore;
  /** The governance a session runs on, when not always the current one (cluster mode pins versions). */
  governanceFor?: (sessionId: string | undefined, current: GovernanceSource) => GovernanceSnapshot;
  /** Where daily spend per user is kept when not in system/state/spend/ (cluster mode: Postgres). */
  spend?: UserSpend;
}

/** Throws ConfigError / GovernanceInvalidError when the root cannot run. */
export async function openRuntime(root: string, options: RuntimeOptions = {}): Promise<Runtime> {
  const env = options.env ?? process.env;
  const config = loadConfig(root, env);
  const { source: governance, warnings } = GovernanceSource.load(config);
  // Bare: the runner puts it inside the retry wrapper (src/pipeline/step-attempts.ts).
  const provider = options.provider ?? (await createProvider(config, env));
  const lock = options.owner === undefined ? null : await RootLock.acquire(config.paths.state, options.owner);
  let audit: AuditLogWriter | null = null;
  let checkpoints: CheckpointWriter | null = null;
  let retentionTimer: NodeJS.Timeout | null = null;
  let webhooks: WebhookNotifier | null = null;
  let filesSpend: FilesUserSpend | null = null;
  const events = new SessionEvents();
  try {
    // A secret that is not set stops the start here (exit 2), naming the variable.
    webhooks = WebhookNotifier.open(config, env, options.log);
    if (config.limits.user_daily_usd !== null && !options.spend) filesSpend = new FilesUserSpend(config, options.log);
    const key = config.audit.signing_key !== null && !options.store ? readSigningKey(config.audit.signing_key) : null;
    if (config.audit.retention.keep_days !== null && options.owner === 'daemon' && !options.store) {
      // The listing (SessionIndex) drops what an hourly pass archived.
      const retention = filesRetentionPass(config, key, options.log, (sessionIds) =>
        events.emit('sessions_archived', { sessionIds }),
      );
      retention(true);
      retentionTimer = setInterval(() => retention(false), 3_600_000);
      retentionTimer.unref();
    }
    if (key !== null) {
      const { privateKey, keyId } = key;
      checkpoints = new CheckpointWriter({
        stateDir: config.paths.state,
        privateKey,
        keyId,
        intervalMs: config.audit.checkpoint_ms,
        witnesses: config.audit.witnesses,
        durable: config.daemon.fsync,
        log: (message, fields) => options.log?.warn(message, fields),
      });
    }
    if (!options.store) {
      audit = await AuditLogWriter.open({
        logsDir: config.paths.logs,
        stateDir: config.paths.state,
        timezone: config.timezone,
        durable: config.daemon.fsync,
        log: (message, fields) => options.log?.error(message, fields),
        ...(checkpoints ? { onCommitted: (state: ChainState) => checkpoints!.committed(state) } : {}),
      });
    }
  } catch (error) {
    if (retentionTimer) clearInterval(retentionTimer);
    await webhooks?.close();
    lock?.release();
    throw error;
  }
  for (const repair of audit?.repairs ?? [])
    options.log?.warn('audit log: cut a torn entry left by a crash', { ...repair });
  const loggedMessages = new LoggedMessagesIndex(config.paths.logs);
  // Where recovery reads from for claims whose sessions never started (recovery-point.ts); null: a `govflow run`.
  const claimsFrom =
    audit && options.owner === 'daemon' ? recoveryPoint(config.paths, audit.position(), config.daemon.fsync) : null;
  // Tools agents may be offered (README "Give an agent tools"). MCP servers a killed daemon left running go first.
  const tools = new ToolBox(config, { env, log: options.log });
  tools.reapOrphans();
  let telemetry: Telemetry | null;
  try {
    telemetry = await startTelemetry(config, events, env, options.log);
  } catch (error) {
    await audit?.close();
    await webhooks?.close();
    lock?.release();
    throw error;
  }
  const filesStore = options.store
    ? null
    : new FilesSessionStore({
        sessionsDir: config.paths.sessions,
        outboxDir: config.paths.outbox,
        snapshotsDir: config.paths.snapshots,
        logsDir: config.paths.logs,
        durable: config.daemon.fsync,
        audit: audit!,
        // One index for every recovery of this process: each day file is parsed once (crash recovery, docs/audit-log.md).
        auditedMessages: (sessionId, sinceIso, from) =>
          loggedMessages.messagesOf(
            sessionId,
            compactInTimeZone(new Date(Date.parse(sinceIso) - 86_400_000), config.timezone),
            from === undefined ? claimsFrom : from,
          ),
      });
  const runner = new SessionRunner({
    config,
    governance: (sessionId) =>
      options.governanceFor ? options.governanceFor(sessionId, governance) : governance.current(),
    // The provider pipeline, composed once: every provider's answers obey llm.max_output_bytes
    // (injected ones too). The runner adds retries; a cancel aborts calls through the session's
    // one signal (docs/run-control.md).
    provider: limitAnswerSize(provider, config.llm.max_output_bytes),
    store: options.store ?? filesStore!,
    complianceViolations,
    costUsd: costCalculator(config, (message) => options.log?.warn(message)),
    now: options.now,
    log: options.log,
    events,
    tools,
    ...(webhooks ? { notices: (notice: SessionNotice) => webhooks!.notify(notice) } : {}),
    ...(options.spend || filesSpend ? { spend: options.spend ?? filesSpend! } : {}),
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
    webhooks,
    warnings,
    async close() {
      if (closed) return;
      closed = true;
      await telemetry?.shutdown();
      await tools
        .close()
        .catch((error: unknown) => options.log?.warn('could not stop every MCP server', { error: String(error) }));
      if (retentionTimer) clearInterval(retentionTimer);
      try {
        await audit?.close();
        await checkpoints?.close();
        await webhooks?.close();
        await filesSpend?.close();
      } finally {
        lock?.release();
      }
    },
  };
}
