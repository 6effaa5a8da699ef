/**
 * Tracing for one process: off unless an OTLP endpoint is configured; then the OpenTelemetry SDK
 * is imported and subscribes to the session events. Closing it on stop exports every span.
 */
import { setTimeout as delay } from 'node:timers/promises';
import type { GovflowConfig } from '../config/config-loader.js';
import type { OperationalLog } from '../log-contract.js';
import type { SessionEvents } from '../pipeline/session-events.js';
import { errorMessage } from '../errors.js';
import { resolveTelemetrySettings } from './telemetry-settings.js';

export interface Telemetry {
  /** Where spans go (for the start-up log and `govflow status`). */
  readonly tracesUrl: string;
  flush(): Promise<void>;
  /** Ends open spans and exports what is left, waiting at most `SHUTDOWN_LIMIT_MS`. Safe to call twice. */
  shutdown(): Promise<void>;
}

/** A collector that does not answer must not hold up the daemon's stop for longer than this. */
export const SHUTDOWN_LIMIT_MS = 6_000;

/** Null when tracing is off. Throws ConfigError on bad settings; later export failures are only logged. */
export async function startTelemetry(
  config: Pick<GovflowConfig, 'telemetry'>,
  events: SessionEvents,
  env: NodeJS.ProcessEnv,
  log?: OperationalLog,
): Promise<Telemetry | null> {
  const settings = resolveTelemetrySettings(config, env);
  if (!settings) return null;
  const { startTracePipeline } = await import('./trace-pipeline.js');
  let exportFailed = false;
  const pipeline = startTracePipeline(events, settings, {
    env,
    onExportFailure: (message) => {
      exportFailed = true;
      log?.warn(
        'tracing: spans could not be exported; check that the collector runs and telemetry.otlp_endpoint points at it',
        { url: settings.tracesUrl, error: message },
      );
    },
  });
  log?.info('tracing on: exporting OpenTelemetry spans', {
    url: settings.tracesUrl,
    from: settings.source,
    content: settings.captureContent ? 'captured (after redaction)' : 'not captured',
  });
  let stopping: Promise<void> | null = null;
  return {
    tracesUrl: settings.tracesUrl,
    flush: () => pipeline.flush(),
    shutdown() {
      stopping ??= (async () => {
        try {
          // The limit's timer alone does not keep the process alive.
          const limit = delay(SHUTDOWN_LIMIT_MS, 'late' as const, { ref: false });
          const outcome = await Promise.race([pipeline.shutdown().then(() => 'done' as const), limit]);
          if (outcome === 'late')
            log?.warn(
              `tracing: the collector did not take the last spans within ${SHUTDOWN_LIMIT_MS} ms; they are dropped`,
              { url: settings.tracesUrl },
            );
        } catch (error) {
          // An export failure was told already when it happened.
          if (!exportFailed)
            log?.warn('tracing: exporting the last spans failed', {
              url: settings.tracesUrl,
              error: errorMessage(error),
            });
        }
      })();
      return stopping;
    },
  };
}
