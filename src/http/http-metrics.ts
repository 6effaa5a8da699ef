/** Prometheus metrics (`GET /metrics`, docs/http-api.md) from the session event bus; listeners only count. */
import { readDiskStatus } from '../store/status-file.js';
import { witnessLag } from '../audit/checkpoint-witnesses.js';
import type { WebhookLag } from '../notify/webhook-notifier.js';
import { readNames } from '../audit/log-retention.js';
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { SystemPaths } from '../config/system-paths.js';
import type { SessionEvents } from '../pipeline/session-events.js';
import { LISTING_STATUSES, type SessionListing } from '../store/session-listing.js';

/** Seconds; steps and model calls range from a millisecond (scripted) to minutes (real models). */
const DURATION_BUCKETS = [0.005, 0.025, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300];
const AUDIT_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1];

export interface MetricsSources {
  events: SessionEvents;
  paths: SystemPaths;
  /** USD of one model call's usage (the runtime's price table). */
  costUsd: (model: string, usage: { inputTokens: number; outputTokens: number; cachedInputTokens: number }) => number;
  /** The audit writer: its `append` is timed (null in cluster mode, where Postgres appends). */
  audit: { append: (...args: never[]) => Promise<unknown> } | null;
  /** The webhooks' deliveries, live (none: no webhooks configured). */
  webhooks?: () => WebhookLag[];
  /** The sessions listing (store/session-listing.ts): every session by status, at each scrape. */
  listing?: Pick<SessionListing, 'counts'>;
}

function countVisible(folder: string): number {
  return readNames(folder).filter((name) => !name.startsWith('.')).length;
}

export class GovflowMetrics {
  readonly registry = new Registry();
  private readonly offs: Array<() => void> = [];
  private readonly running = new Set<string>();
  private restoreAudit: (() => void) | null = null;

  constructor(sources: MetricsSources) {
    const registry = this.registry;
    collectDefaultMetrics({ register: registry, prefix: 'govflow_process_' });
    const sessions = new Counter({
      name: 'govflow_sessions_total',
      help: 'Sessions that ended or paused, by result status',
      labelNames: ['status'],
      registers: [registry],
    });
    // Every result status from the start (0 until one ends so), so a rate over `cancelled` exists before the first cancel.
    for (const status of [
      'success',
      'partial',
      'failed',
      'pending',
      'cancelled',
      'intervention_required',
      'halted_cost',
      'halted_time',
    ])
      sessions.inc({ status }, 0);
    const listing = sources.listing;
    if (listing)
      new Gauge({
        name: 'govflow_sessions',
        help:
          'Sessions in the store now, by status (queued, running, paused, intervention_required, success, partial, failed, ' +
          'cancelled), as govflow sessions lists them',
        labelNames: ['status'],
        registers: [registry],
        async collect() {
          const counts = await listing.counts();
          for (const status of LISTING_STATUSES) this.set({ status }, counts[status]);
        },
      });
    const running = this.running;
    /** A gauge read at each scrape; `undefined` leaves it as it was. */
    const gauge = (name: string, help: string, value: () => number | undefined) =>
      new Gauge({
        name,
        help,
        registers: [registry],
        collect() {
          const current = value();
          if (current !== undefined) this.set(current);
        },
      });
    gauge('govflow_sessions_running', 'Sessions running in this daemon now', () => running.size);
    const steps = new Histogram({
      name: 'govflow_step_duration_seconds',
      help: 'Time from a step starting to its message being committed',
      labelNames: ['agent'],
      buckets: DURATION_BUCKETS,
      registers: [registry],
    });
    const calls = new Histogram({
      name: 'govflow_model_call_duration_seconds',
      help: 'Duration of one model call attempt',
      labelNames: ['agent', 'model', 'outcome'],
      buckets: DURATION_BUCKETS,
      registers: [registry],
    });
    const tokens = new Counter({
      name: 'govflow_tokens_total',
      help: 'Model tokens by agent, model and direction',
      labelNames: ['agent', 'model', 'direction'],
      registers: [registry],
    });
    const cost = new Counter({
      name: 'govflow_cost_usd_total',
      help: 'Model cost in USD by agent and model (price table)',
      labelNames: ['agent', 'model'],
      registers: [registry],
    });
    const audit = new Histogram({
      name: 'govflow_audit_append_seconds',
      help: 'Latency of one durable audit entry append',
      buckets: AUDIT_BUCKETS,
      registers: [registry],
    });
    gauge(
      'govflow_queue_depth',
      'Requests waiting: files in system/inbox plus claimed ones whose session has not started',
      () => Math.max(0, countVisible(sources.paths.inbox) + countVisible(sources.paths.processing) - running.size),
    );

    // As the daemon's disk guard last wrote them to system/state/disk.json (issue 20).
    gauge(
      'govflow_disk_alarm',
      '1 while free space is below intake.min_free_bytes and no new request is claimed, else 0',
      () => (readDiskStatus(sources.paths)?.alarm ? 1 : 0),
    );
    gauge('govflow_disk_free_bytes', "Bytes free on the root's filesystem at the disk guard's last check", () => {
      const free = readDiskStatus(sources.paths)?.free_bytes;
      return typeof free === 'number' ? free : undefined;
    });
    gauge(
      'govflow_disk_waiting_writes',
      'Durable writes waiting for the disk (ENOSPC, EDQUOT, EROFS, EIO), retried with backoff',
      () => readDiskStatus(sources.paths)?.waiting.length ?? 0,
    );

    new Gauge({
      name: 'govflow_witness_pending_checkpoints',
      help: 'Signed audit checkpoints a witness has not taken yet (it is retried with backoff)',
      labelNames: ['witness'],
      registers: [registry],
      collect() {
        this.reset();
        for (const lag of witnessLag(sources.paths.state, process.pid)) this.set({ witness: lag.witness }, lag.pending);
      },
    });

    // Webhook deliveries (docs/webhooks.md), live from the daemon's backlog.
    const webhookLags = () => sources.webhooks?.() ?? [];
    const webhookGauge = (name: string, help: string, value: (lag: WebhookLag) => number) =>
      new Gauge({
        name,
        help,
        labelNames: ['url'],
        registers: [registry],
        collect() {
          this.reset();
          for (const lag of webhookLags()) this.set({ url: lag.url }, value(lag));
        },
      });
    webhookGauge(
      'govflow_webhook_deliveries_waiting',
      'Webhook events not delivered yet to an endpoint (retried with backoff for 24 h)',
      (lag) => lag.waiting,
    );
    webhookGauge(
      'govflow_webhook_deliveries_failed',
      'Webhook events given up after 24 h of retries (kept in system/state/deliveries/webhooks/*/failed/)',
      (lag) => lag.failed,
    );
    webhookGauge(
      'govflow_webhook_deliveries_delivered',
      'Webhook events an endpoint took (2xx) since the daemon started',
      (lag) => lag.delivered,
    );
    new Gauge({
      name: 'govflow_webhook_last_error',
      help: "1 with the endpoint's last delivery error while its deliveries fail (cleared by the next delivery)",
      labelNames: ['url', 'error'],
      registers: [registry],
      collect() {
        this.reset();
        for (const lag of webhookLags())
          if (lag.last_error !== null) this.set({ url: lag.url, error: lag.last_error.slice(0, 200) }, 1);
      },
    });

    /** Start times of the steps each session has running, per agent, oldest first. */
    const stepStarts = new Map<string, Map<string, number[]>>();
    const { events } = sources;
    this.offs.push(
      events.on('session_started', (event) => running.add(event.sessionId)),
      events.on('step_started', (event) => {
        running.add(event.sessionId);
        const agents = stepStarts.get(event.sessionId) ?? new Map<string, number[]>();
        stepStarts.set(event.sessionId, agents);
        const starts = agents.get(event.agent) ?? [];
        agents.set(event.agent, starts);
        starts.push(performance.now());
      }),
      events.on('message', (event) => {
        const agents = stepStarts.get(event.sessionId);
        const starts = agents?.get(event.agent);
        const started = starts?.shift();
        if (agents !== undefined && starts?.length === 0) {
          agents.delete(event.agent);
          if (agents.size === 0) stepStarts.delete(event.sessionId);
        }
        if (started !== undefined) steps.observe({ agent: event.agent }, (performance.now() - started) / 1000);
      }),
      events.on('model_call_finished', (event) => {
        calls.observe(
          { agent: event.agent, model: event.model, outcome: event.error === null ? 'ok' : 'error' },
          event.ms / 1000,
        );
        tokens.inc({ agent: event.agent, model: event.model, direction: 'input' }, event.inputTokens);
        tokens.inc({ agent: event.agent, model: event.model, direction: 'output' }, event.outputTokens);
        const usd = sources.costUsd(event.model, {
          inputTokens: event.inputTokens,
          outputTokens: event.outputTokens,
          cachedInputTokens: 0,
        });
        if (usd > 0) cost.inc({ agent: event.agent, model: event.model }, usd);
      }),
      events.on('pending', (event) => {
        running.delete(event.sessionId);
        sessions.inc({ status: event.status ?? 'pending' });
      }),
      events.on('session_finished', (event) => {
        running.delete(event.sessionId);
        stepStarts.delete(event.sessionId);
        sessions.inc({ status: event.status });
      }),
    );

    // The audit writer is timed by wrapping its append on this instance (the runner calls it there).
    const writer = sources.audit as { append: (...args: unknown[]) => Promise<unknown> } | null;
    if (writer === null) return;
    const original = writer.append;
    writer.append = async (...args: unknown[]) => {
      const started = performance.now();
      try {
        return await original.apply(writer, args);
      } finally {
        audit.observe((performance.now() - started) / 1000);
      }
    };
    this.restoreAudit = () => {
      writer.append = original;
    };
  }

  /** Prometheus text exposition. */
  async text(): Promise<{ contentType: string; body: string }> {
    return { contentType: this.registry.contentType, body: await this.registry.metrics() };
  }

  close(): void {
    for (const off of this.offs.splice(0)) off();
    this.restoreAudit?.();
    this.restoreAudit = null;
  }
}
