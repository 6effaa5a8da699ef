/**
 * What a session's end or pause tells the world (docs/webhooks.md): the Standard Webhooks events it
 * makes, each with an id that is the same however often the same end or pause is reported (after
 * a crash, at every restart of a paused session), so a receiver sees every retry of one event
 * under one `webhook-id`. Pure: no I/O.
 */
import type { WebhookEventType } from '../config/config-vocabulary.js';
import { sha256Hex } from '../sha256-hex.js';

/** A session ended, or paused for a person: told by the runner before the end is durable. */
export interface SessionNotice {
  sessionId: string;
  requestId: string;
  /** The session's user (`local` when none). */
  user: string;
  /** The result's status: success, partial, failed, cancelled (§18), or pending for a pause. */
  status: string;
  /** When it ended or paused (ISO). */
  at: string;
  /** Set for a pause: which one (the same pause reported again has the same key) and what it waits for. */
  pause?: { key: string; awaiting: 'reply' | 'approval' | 'intervention' | 'halt' };
}

/** One event as it is delivered: its id, its type, and its body, fixed byte for byte for every retry. */
export interface WebhookEvent {
  id: string;
  type: WebhookEventType;
  body: string;
  /** True for a pause's events: enqueued again at each restart, delivered only once. */
  once: boolean;
}

/** The API paths of a session's request, as POST /v1/requests answers them (docs/http-api.md). */
export function sessionLinks(requestId: string, sessionId: string): Record<string, string> {
  return {
    self: `/v1/requests/${requestId}`,
    events: `/v1/requests/${requestId}/events`,
    session_events: `/v1/sessions/${sessionId}/events`,
  };
}

/** What a pause sends besides `session_paused`, by what it waits for. */
const pauseExtras: Record<NonNullable<SessionNotice['pause']>['awaiting'], WebhookEventType[]> = {
  reply: [],
  approval: ['approval_requested'],
  intervention: ['intervention_required'],
  halt: [],
};

/** The events a notice makes: an end sends session_finished (and session_cancelled for a cancel); a pause session_paused (and approval_requested). */
export function webhookEventsOf(notice: SessionNotice): WebhookEvent[] {
  const types: WebhookEventType[] = notice.pause
    ? ['session_paused', ...pauseExtras[notice.pause.awaiting]]
    : ['session_finished', ...(notice.status === 'cancelled' ? (['session_cancelled'] as const) : [])];
  return types.map((type) => ({
    id: `msg_${sha256Hex(`${notice.sessionId}\n${type}\n${notice.pause?.key ?? ''}`).slice(0, 32)}`,
    type,
    once: notice.pause !== undefined,
    body: JSON.stringify({
      type,
      timestamp: notice.at,
      data: {
        session_id: notice.sessionId,
        request_id: notice.requestId,
        status: notice.status,
        user: notice.user,
        links: sessionLinks(notice.requestId, notice.sessionId),
      },
    }),
  }));
}
