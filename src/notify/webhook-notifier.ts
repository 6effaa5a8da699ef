/**
 * Webhooks (docs/webhooks.md): each session end or pause becomes Standard Webhooks events, queued
 * durably in govflow's one delivery backlog (src/store/delivery-backlog.ts) under
 * system/state/deliveries/webhooks/, then POSTed to every endpoint that subscribes to them with
 * `webhook-id`, `webhook-timestamp` and a `v1` signature made anew for each try (json-post.ts). A non-2xx answer,
 * or none within 10 s, is retried with backoff for 24 h. Nothing here blocks or fails a session.
 */
import path from 'node:path';
import { Webhook } from 'standardwebhooks';
import type { GovflowConfig } from '../config/config-loader.js';
import { WEBHOOK_EVENT_TYPES, type WebhookEventType } from '../config/config-vocabulary.js';
import { ConfigError, errorMessage, GovflowError } from '../errors.js';
import type { OperationalLog } from '../log-contract.js';
import { DeliveryBacklog, type DeliveryTarget, type TargetLag } from '../store/delivery-backlog.js';
import { readStatusFile, writeStatusFile } from '../store/status-file.js';
import { webhookEventsOf, type SessionNotice } from './webhook-events.js';
import { postJson, PostTimeoutError } from './json-post.js';
import { deliveryAddress, writtenTargetErrors } from './webhook-targets.js';

/** A receiver must answer within this (SPEC §20), else the try counts as failed. */
export const WEBHOOK_TIMEOUT_MS = 10_000;
/** An event is retried this long after it was made, then given up (moved to failed/). */
export const WEBHOOK_GIVE_UP_MS = 24 * 3_600_000;
/** Full-jitter backoff: the first retry within a second, later ones at most 5 minutes apart. */
const WEBHOOK_BACKOFF = { baseMs: 1_000, maxMs: 300_000 };
const STATUS_FILE = 'webhooks.json';

interface WebhookPayload {
  type: WebhookEventType;
  body: string;
}

export interface WebhookEndpoint {
  url: string;
  events: readonly WebhookEventType[];
  signer: Webhook;
}

/** A webhook endpoint's deliveries, for /metrics (live) and `govflow status` (without `delivered`). */
export interface WebhookLag {
  url: string;
  waiting: number;
  failed: number;
  delivered: number;
  last_error: string | null;
  last_error_at: string | null;
}

export type WebhookStatusLag = Omit<WebhookLag, 'delivered'>;

interface WebhookStatus {
  pid: number;
  updated_at: string;
  webhooks: WebhookStatusLag[];
}

/** The backlog's folder under system/state/. */
export function webhookBacklogFolder(stateDir: string): string {
  return path.join(stateDir, 'deliveries', 'webhooks');
}

/** The endpoints of `notify.webhooks` with their signing secrets; throws ConfigError naming what to set. */
export function webhookEndpoints(config: GovflowConfig, env: NodeJS.ProcessEnv): WebhookEndpoint[] {
  const problems = webhookProblems(config, env);
  if (problems.length > 0) throw problems[0];
  return config.notify.webhooks.map((webhook) => ({
    url: webhook.url,
    events: webhook.events ?? WEBHOOK_EVENT_TYPES,
    signer: new Webhook(env[webhook.secret_env]!),
  }));
}

/**
 * What `govflow validate` and the daemon's start find wrong with `notify.webhooks` (secrets unset
 * or malformed, a URL twice, a URL written as a private target: webhook-targets.ts).
 */
export function webhookProblems(config: GovflowConfig, env: NodeJS.ProcessEnv): ConfigError[] {
  const problems: ConfigError[] = writtenTargetErrors(config);
  const seen = new Set<string>();
  for (const [index, webhook] of config.notify.webhooks.entries()) {
    const where = `notify.webhooks[${index}]`;
    if (seen.has(webhook.url))
      problems.push(
        new ConfigError(`${where}.url ${webhook.url} is listed twice: list each endpoint once`, 'govflow.config.yaml'),
      );
    seen.add(webhook.url);
    const secret = env[webhook.secret_env];
    const example = `export ${webhook.secret_env}=whsec_$(head -c 32 /dev/urandom | base64)`;
    if (!secret) {
      problems.push(
        new ConfigError(
          `${where}.secret_env names ${webhook.secret_env}, which is not set: set it to the endpoint's whsec_<base64> signing secret (${example})`,
          'govflow.config.yaml',
        ),
      );
      continue;
    }
    let problem = secret.startsWith('whsec_') ? null : 'no whsec_ prefix';
    try {
      new Webhook(secret);
    } catch (error) {
      problem ??= errorMessage(error);
    }
    if (problem !== null)
      problems.push(
        new ConfigError(
          `${where}: ${webhook.secret_env} is not a Standard Webhooks secret (whsec_ followed by base64; ${problem}): ${example}`,
          'govflow.config.yaml',
        ),
      );
  }
  return problems;
}

/** One endpoint as a delivery target: a signed POST of the event's fixed body, to an address checked first (webhook-targets.ts). */
function endpointTarget(endpoint: WebhookEndpoint, allowPrivate: boolean): DeliveryTarget<WebhookPayload> {
  return {
    name: endpoint.url,
    async send(record, signal) {
      const address = await deliveryAddress(endpoint.url, allowPrivate);
      const now = new Date();
      const body = record.payload.body;
      let status: number;
      try {
        status = await postJson(endpoint.url, body, {
          headers: {
            'user-agent': 'govflow-webhooks',
            'webhook-id': record.id,
            'webhook-timestamp': String(Math.floor(now.getTime() / 1000)),
            'webhook-signature': endpoint.signer.sign(record.id, now, body),
          },
          timeoutMs: WEBHOOK_TIMEOUT_MS,
          signal,
          address,
        });
      } catch (error) {
        throw new GovflowError(
          'provider',
          error instanceof PostTimeoutError ? error.message : `cannot reach it: ${describeFetchError(error)}`,
        );
      }
      // A redirect is an answer other than 2xx too: the endpoint's URL is what was configured.
      if (status < 200 || status > 299) throw new GovflowError('provider', `HTTP ${status}`);
    },
  };
}

function describeFetchError(error: unknown): string {
  return (error as { code?: string }).code ?? errorMessage(error);
}

export class WebhookNotifier {
  private readonly backlog: DeliveryBacklog<WebhookPayload>;
  private shownStatus = '';

  /** Null without `notify.webhooks`; throws ConfigError for a secret that is not set or not valid. */
  static open(config: GovflowConfig, env: NodeJS.ProcessEnv, log?: OperationalLog): WebhookNotifier | null {
    if (config.notify.webhooks.length === 0) return null;
    return new WebhookNotifier(config, webhookEndpoints(config, env), log);
  }

  private constructor(
    config: GovflowConfig,
    private readonly endpoints: WebhookEndpoint[],
    private readonly log?: OperationalLog,
  ) {
    const stateDir = config.paths.state;
    this.backlog = new DeliveryBacklog<WebhookPayload>({
      folder: webhookBacklogFolder(stateDir),
      targets: endpoints.map((endpoint) => endpointTarget(endpoint, config.notify.allow_private_targets)),
      ordered: false,
      giveUpAfterMs: WEBHOOK_GIVE_UP_MS,
      backoff: WEBHOOK_BACKOFF,
      durable: config.daemon.fsync,
      noun: 'webhook event',
      targetNoun: 'webhook',
      log: (level, message, fields) => log?.[level](message, fields),
      onChange: (lags) => {
        // For `govflow status` (another process): rewritten when what it shows changed, not per delivery.
        const webhooks = lags.map(lagOf).map(({ delivered: _delivered, ...shown }) => shown);
        const shown = JSON.stringify(webhooks);
        if (shown === this.shownStatus) return;
        this.shownStatus = shown;
        const status: WebhookStatus = { pid: process.pid, updated_at: new Date().toISOString(), webhooks };
        writeStatusFile(stateDir, STATUS_FILE, status);
      },
    }).open();
  }

  /**
   * Queues the notice's events for the endpoints that subscribe to them, durably, held until the
   * returned function is called (the runner calls it once the end is durable, so a receiver that
   * reads the result at once finds it). Never rejects.
   */
  async notify(notice: SessionNotice): Promise<() => void> {
    const releases: Array<() => void> = [];
    for (const event of webhookEventsOf(notice)) {
      const targets = this.endpoints.filter((endpoint) => endpoint.events.includes(event.type)).map((e) => e.url);
      if (targets.length === 0) continue;
      try {
        releases.push(
          await this.backlog.enqueue(
            event.id,
            { type: event.type, body: event.body },
            { targets, hold: true, once: event.once },
          ),
        );
      } catch (error) {
        this.log?.warn('could not queue a webhook event', {
          session: notice.sessionId,
          event: event.type,
          error: errorMessage(error),
        });
      }
    }
    return () => releases.forEach((release) => release());
  }

  lag(): WebhookLag[] {
    return this.backlog.lag().map(lagOf);
  }

  /** One more try of what waits (at most 5 s), then no more; the rest waits for the next start. */
  close(): Promise<void> {
    return this.backlog.close(5_000);
  }
}

function lagOf(lag: TargetLag): WebhookLag {
  return {
    url: lag.target,
    waiting: lag.waiting,
    failed: lag.failed,
    delivered: lag.delivered,
    last_error: lag.lastError,
    last_error_at: lag.lastErrorAt,
  };
}

/** The webhooks' deliveries as the daemon `pid` (the root's owner) last wrote them; [] when none. */
export function webhookLag(stateDir: string, pid: number | undefined): WebhookStatusLag[] {
  return pid === undefined ? [] : (readStatusFile<WebhookStatus>(stateDir, STATUS_FILE, pid)?.webhooks ?? []);
}

/** `govflow status` lines: one per endpoint. */
export function webhookLines(lags: WebhookStatusLag[]): string[] {
  return lags.map((lag) => {
    const state =
      lag.waiting === 0 && lag.failed === 0
        ? 'up to date'
        : [`${lag.waiting} waiting`, ...(lag.failed > 0 ? [`${lag.failed} failed (given up after 24 h)`] : [])].join(
            ', ',
          );
    return `webhook ${lag.url}: ${state}${lag.last_error ? ` (last error: ${lag.last_error} at ${lag.last_error_at})` : ''}`;
  });
}
