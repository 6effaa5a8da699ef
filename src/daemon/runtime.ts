/**
 * Assembles the concrete parts one process needs to run sessions: configuration, governance,
 * provider, audit writer and the session runner. Used by `govflow run` and `govflow start`.
 */
import { formatInTimeZone } from 'date-fns-tz';
import { AuditLogWriter } from '../audit/audit-log-writer.js';
import { loggedSessionMessages } from '../audit/audit-log-reader.js';
import { complianceViolations } from '../audit/compliance-check.js';
import { loadConfig, type GovflowConfig } from '../config/config-loader.js';
import { costCalculator, createProvider } from '../llm/create-provider.js';
import type { LlmProvider } from '../llm/provider.js';
import { SessionRunner, type OperationalLog } from '../pipeline/session-runner.js';
import { SessionEvents } from '../pipeline/session-events.js';
import { GovernanceSource } from './governance-source.js';
import { SpareEntries } from '../store/spare-entries.js';
import { startTelemetry, type Telemetry } from '../telemetry/telemetry.js';

export interface Runtime {
  config: GovflowConfig;
  governance: GovernanceSource;
  provider: LlmProvider;
  audit: AuditLogWriter;
  runner: SessionRunner;
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
   * Keep empty files and folders ready for new sessions (system/state/spare/): a long-running
   * process (the daemon) gains from it, a one-shot `govflow run` does not.
   */
  spares?: boolean;
}

/** Throws ConfigError / GovernanceInvalidError when the root cannot run. */
export async function openRuntime(root: string, options: RuntimeOptions = {}): Promise<Runtime> {
  const env = options.env ?? process.env;
  const config = loadConfig(root, env);
  const { source: governance, warnings } = GovernanceSource.load(config);
  const provider = options.provider ?? createProvider(config, env);
  const audit = await AuditLogWriter.open({ logsDir: config.paths.logs, stateDir: config.paths.state, timezone: config.timezone, durable: config.daemon.fsync });
  for (const repair of audit.repairs) options.log?.warn('audit log: cut a torn entry left by a crash', { ...repair });
  // Per session: a folder and four files (journal, manifest, two result files); enough for
  // twice the sessions that may start or end at once.
  const concurrency = config.intake.concurrency;
  const spares = options.spares ? new SpareEntries(config.paths.state, { files: 8 * concurrency + 8, folders: 2 * concurrency + 2 }) : undefined;
  spares?.start();
  const events = new SessionEvents();
  let telemetry: Telemetry | null;
  try {
    telemetry = await startTelemetry(config, events, env, options.log);
  } catch (error) {
    await spares?.close();
    await audit.close();
    throw error;
  }
  const runner = new SessionRunner({
    config,
    governance: () => governance.current(),
    provider,
    audit,
    complianceViolations,
    costUsd: costCalculator(config),
    auditedMessages: (sessionId, sinceIso) =>
      loggedSessionMessages(config.paths.logs, sessionId, formatInTimeZone(new Date(Date.parse(sinceIso) - 86_400_000), config.timezone, 'yyyyMMdd')),
    now: options.now,
    log: options.log,
    entries: spares,
    events,
  });
  let closed = false;
  return {
    config,
    governance,
    provider,
    audit,
    runner,
    events,
    telemetry,
    warnings,
    async close() {
      if (closed) return;
      closed = true;
      await telemetry?.shutdown();
      await spares?.close();
      await audit.close();
    },
  };
}
