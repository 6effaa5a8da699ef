/** The OpenTelemetry SDK side of tracing, imported by telemetry.ts only when tracing is on. */
import type { IdGenerator } from '@opentelemetry/sdk-trace-base';
import {
  BasicTracerProvider,
  BatchSpanProcessor,
  RandomIdGenerator,
  SimpleSpanProcessor,
  type SpanExporter,
} from '@opentelemetry/sdk-trace-base';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { resourceFromAttributes } from '@opentelemetry/resources';
import type { SessionEvents } from '../pipeline/session-events.js';
import type { TelemetrySettings } from './telemetry-settings.js';
import { SessionTracer, sessionTraceId } from './session-tracer.js';

/**
 * Random ids, except a session root span's trace id, derived from the session id: the tracer asks
 * for it synchronously inside startSpan, so `prepare` right before picks it for exactly that span.
 */
export class SessionTraceIds implements IdGenerator {
  private readonly random = new RandomIdGenerator();
  private next: string | null = null;

  prepare(sessionId: string): void {
    this.next = sessionTraceId(sessionId);
  }

  generateTraceId(): string {
    const id = this.next;
    this.next = null;
    return id ?? this.random.generateTraceId();
  }

  generateSpanId(): string {
    return this.random.generateSpanId();
  }
}

export interface TracePipelineOptions {
  /** Replaces the OTLP exporter (tests: an in-memory exporter). */
  exporter?: SpanExporter;
  /** Export each span as it ends instead of in batches (tests). */
  immediate?: boolean;
  /** For OTEL_BSP_SCHEDULE_DELAY. */
  env?: NodeJS.ProcessEnv;
  /** Hears a failed export (once per outage: again only after an export succeeded). */
  onExportFailure?: (message: string) => void;
}

/** Tells of failed exports, which the SDK otherwise only reports to its silent diagnostics. */
function reportingFailures(exporter: SpanExporter, onFailure: (message: string) => void): SpanExporter {
  let failing = false;
  return {
    export(spans, done) {
      exporter.export(spans, (result) => {
        if (result.code === 0) failing = false;
        else if (!failing) {
          failing = true;
          onFailure(result.error?.message ?? 'the collector refused the spans');
        }
        done(result);
      });
    },
    shutdown: () => exporter.shutdown(),
    ...(exporter.forceFlush ? { forceFlush: () => exporter.forceFlush!() } : {}),
  };
}

/** Spans go out at least this often; OTEL_BSP_SCHEDULE_DELAY (ms) overrides it, as in every OpenTelemetry SDK. */
export const DEFAULT_BATCH_DELAY_MS = 1_000;

function batchDelayMs(env: NodeJS.ProcessEnv): number {
  const value = Number(env.OTEL_BSP_SCHEDULE_DELAY);
  return Number.isFinite(value) && value > 0 ? value : DEFAULT_BATCH_DELAY_MS;
}

export interface TracePipeline {
  tracer: SessionTracer;
  /** Exports every ended span now. */
  flush(): Promise<void>;
  /** Ends open spans, exports everything, stops listening. Safe to call twice. */
  shutdown(): Promise<void>;
}

export function startTracePipeline(
  events: SessionEvents,
  settings: TelemetrySettings,
  options: TracePipelineOptions = {},
): TracePipeline {
  const base =
    options.exporter ??
    new OTLPTraceExporter({ url: settings.tracesUrl, headers: settings.headers, timeoutMillis: 5_000 });
  const exporter = options.onExportFailure ? reportingFailures(base, options.onExportFailure) : base;
  const processor = options.immediate
    ? new SimpleSpanProcessor(exporter)
    : new BatchSpanProcessor(exporter, { scheduledDelayMillis: batchDelayMs(options.env ?? process.env) });
  const ids = new SessionTraceIds();
  const provider = new BasicTracerProvider({
    resource: resourceFromAttributes({ 'service.name': settings.serviceName }),
    idGenerator: ids,
    spanProcessors: [processor],
  });
  const tracer = new SessionTracer(provider.getTracer('govflow'), events, {
    captureContent: settings.captureContent,
    beforeRootSpan: (sessionId) => ids.prepare(sessionId),
  });
  let stopped: Promise<void> | null = null;
  return {
    tracer,
    flush: () => provider.forceFlush(),
    shutdown() {
      stopped ??= (async () => {
        tracer.detach();
        await provider.shutdown();
      })();
      return stopped;
    },
  };
}
