/**
 * Run control on a session's page (SPEC §18, docs/run-control.md): Cancel, Retry, Re-run and Fork
 * from a step, each a form with a reason box, shown to whoever may act on the session; and its
 * lineage both ways — what it was made from, and the sessions made from it. The forms post to
 * /ui/sessions/:id/<action>, which hands them to the API's control routes (web-routes.ts). Also what
 * the page's forms send and show: an approval form's decision, the notice after any form was sent.
 */
import type { FastifyRequest } from 'fastify';
import { HttpProblem } from '../http/http-problem.js';
import { isSessionId } from '../intake/request-ids.js';
import type { ControlRecord, Lineage } from '../store/session-journal.js';
import type { SessionSummary } from '../store/session-listing.js';
import { sessionHref } from './audit-pages.js';
import { escapeHtml, statusBadge } from './web-page.js';

export const UI_ACTIONS = ['cancel', 'retry', 'rerun', 'fork', 'intervene'] as const;
export type UiAction = (typeof UI_ACTIONS)[number];

const ACTION_WORDS: Record<string, string> = {
  fork: 'fork',
  retry: 'retry',
  rerun: 're-run',
  cancel: 'cancel',
  intervene: 'decision',
};

function actionUrl(sessionId: string, action: UiAction): string {
  return `${sessionHref(sessionId)}/${action}`;
}

function reasonField(id: string, label = 'Reason (kept in the audit log)'): string {
  return `<label for="${id}">${label}<input id="${id}" name="reason" type="text" maxlength="2000" autocomplete="off"></label>`;
}

/** The cancel form of a session still running, queued or paused. */
export function cancelForm(sessionId: string): string {
  return `<section aria-labelledby="control-title"><h2 id="control-title">Run control</h2>
<form class="control" method="post" action="${escapeHtml(actionUrl(sessionId, 'cancel'))}" aria-label="cancel this session">
${reasonField('cancel-reason', 'Reason for the cancel (kept in the audit log)')}
<p><button type="submit" name="action" value="cancel">Cancel session</button></p>
</form></section>`;
}

/** Retry and re-run of an ended session (fork is per message: see forkForm). */
export function endedForms(sessionId: string, status: string): string {
  const retry =
    status === 'success'
      ? ''
      : `<form class="control" method="post" action="${escapeHtml(actionUrl(sessionId, 'retry'))}" aria-label="retry this session">
<h3>Retry</h3><p>A new session that reuses every message up to the first that did not succeed, and runs from there.</p>
${reasonField('retry-reason', 'Reason for the retry (kept in the audit log)')}
<p><button type="submit">Retry</button></p>
</form>`;
  return `<section aria-labelledby="control-title"><h2 id="control-title">Run control</h2>
${retry}
<form class="control" method="post" action="${escapeHtml(actionUrl(sessionId, 'rerun'))}" aria-label="re-run this session">
<h3>Re-run</h3><p>A new session that runs the request again from its first message, under today's governance.</p>
${reasonField('rerun-reason', 'Reason for the re-run (kept in the audit log)')}
<label for="rerun-request">Edited request (optional: leave empty to run the same text)<textarea id="rerun-request" name="request"></textarea></label>
<p><button type="submit">Re-run</button></p>
</form>
<p>To fork from a step, use “Fork from here” on that message below.</p>
</section>`;
}

/** A steward's decision on a session waiting in intervention_required (docs/run-control.md): retry with advice, or fail. */
export function stewardForm(sessionId: string): string {
  return `<form class="control" method="post" action="${escapeHtml(actionUrl(sessionId, 'intervene'))}" aria-label="decide as steward">
<fieldset><legend>Steward's decision</legend>
<label><input type="radio" name="decision" value="retry" checked> Retry: the failed agent runs again on the same input</label>
<label><input type="radio" name="decision" value="fail"> Fail: the session ends failed</label>
</fieldset>
<label for="steward-advice">Advice for the retry (put into the agent's prompt; its SHA-256 in the audit log)
<textarea id="steward-advice" name="advice" maxlength="8000"></textarea></label>
${reasonField('steward-reason', 'Reason for the decision (kept in the audit log)')}
<p><button type="submit">Decide</button></p>
</form>`;
}

/** A steward's decision on a halted session (docs/run-control.md): continue under new totals, or fail. */
export function haltForm(sessionId: string): string {
  return `<form class="control" method="post" action="${escapeHtml(actionUrl(sessionId, 'intervene'))}" aria-label="decide as steward">
<fieldset><legend>Steward's decision</legend>
<label><input type="radio" name="decision" value="continue" checked> Continue where it stopped, under the new totals below</label>
<label><input type="radio" name="decision" value="fail"> Fail: the session ends failed</label>
</fieldset>
<label for="steward-cost">New cost budget for the session, USD (optional)
<input id="steward-cost" name="cost_usd" type="number" min="0" step="any"></label>
<label for="steward-minutes">New time limit for the session, minutes (optional)
<input id="steward-minutes" name="time_minutes" type="number" min="0" step="any"></label>
${reasonField('steward-reason', 'Reason for the decision (kept in the audit log)')}
<p><button type="submit">Decide</button></p>
</form>`;
}

/** “Fork from here” on message `sequence`: a new session reusing messages 1 … sequence−1. */
export function forkForm(sessionId: string, sequence: number): string {
  return `<details class="fork"><summary>Fork from here (message ${sequence})</summary>
<form class="control" method="post" action="${escapeHtml(actionUrl(sessionId, 'fork'))}" aria-label="fork from message ${sequence}">
<input type="hidden" name="from" value="${sequence}">
<p>A new session that reuses messages 1 to ${sequence - 1} (no model call for them) and runs from message ${sequence} on.</p>
${reasonField(`fork-reason-${sequence}`, 'Reason for the fork (kept in the audit log)')}
<label for="fork-request-${sequence}">Edited request (optional)<textarea id="fork-request-${sequence}" name="request"></textarea></label>
<p><button type="submit">Fork from message ${sequence}</button></p>
</form></details>`;
}

/** Where this session comes from, and the cancel that ended it, if any. */
export function originBlock(lineage: Lineage | null | undefined, cancelled: ControlRecord | null): string {
  const parts: string[] = [];
  if (lineage) {
    const from = lineage.action === 'rerun' ? '' : ` from message ${lineage.from}`;
    parts.push(
      `<p class="notice" id="lineage-of">A ${escapeHtml(ACTION_WORDS[lineage.action] ?? lineage.action)} of session <a ` +
        `href="${escapeHtml(sessionHref(lineage.of_session))}">${escapeHtml(lineage.of_session)}</a> (request ` +
        `<code>${escapeHtml(lineage.of_request)}</code>)${escapeHtml(from)}, by ${escapeHtml(lineage.by)}${
          lineage.reason ? `: ` + `“${escapeHtml(lineage.reason)}”` : ''
        }.</p>`,
    );
  }
  if (cancelled)
    parts.push(
      `<p class="warning" id="cancelled-by">Cancelled by ${escapeHtml(cancelled.by)} at ${escapeHtml(cancelled.at)}${
        cancelled.reason ? `: ` + `“${escapeHtml(cancelled.reason)}”` : ''
      }.</p>`,
    );
  return parts.join('\n');
}

/** The sessions made from this one (forks, retries, re-runs), each linked. */
export function derivedBlock(derived: readonly SessionSummary[]): string {
  if (derived.length === 0) return '';
  const items = derived.map((session) => {
    const lineage = session.lineage!;
    const from = lineage.action === 'rerun' ? '' : ` from message ${lineage.from}`;
    return (
      `<li>${escapeHtml(ACTION_WORDS[lineage.action] ?? lineage.action)}${escapeHtml(from)} by ${escapeHtml(lineage.by)}: <a ` +
      `href="${escapeHtml(sessionHref(session.session_id))}">${escapeHtml(session.session_id)}</a> ` +
      `${statusBadge(session.status)}${lineage.reason ? ` — “${escapeHtml(lineage.reason)}”` : ''}</li>`
    );
  });
  return `<section aria-labelledby="derived-title"><h2 id="derived-title">Made from this session</h2><ul id="derived">${items.join('')}</ul></section>`;
}

/** The line a page shows after a control form went through (`?sent=<action>&session=<new id>`). */
export function controlNotice(action: string, newSessionId: string | null): string | null {
  if (action === 'cancel')
    return 'Your cancel was sent: the session stops now (its model call is aborted) and ends cancelled.';
  if (action === 'intervene') return 'Your decision was applied and is in the audit log.';
  if (!(UI_ACTIONS as readonly string[]).includes(action) || newSessionId === null) return null;
  return `Your ${ACTION_WORDS[action]} was accepted: new session ${newSessionId}, queued.`;
}

/** A control form's fields as the API's control route takes them (empty fields left out). */
export function controlBody(action: UiAction, form: Record<string, unknown>): Record<string, unknown> {
  const text = (name: string) => (typeof form[name] === 'string' ? (form[name] as string).trim() : '');
  const body: Record<string, unknown> = {};
  if (text('reason') !== '') body.reason = text('reason');
  if (action === 'intervene') {
    body.decision = text('decision') || 'retry';
    if (body.decision === 'retry' && text('advice') !== '') body.advice = text('advice');
    const limits: Record<string, number> = {};
    for (const key of ['cost_usd', 'time_minutes'])
      if (body.decision === 'continue' && text(key) !== '') limits[key] = Number(text(key));
    if (Object.keys(limits).length > 0) body.limits = limits;
  }
  if ((action === 'rerun' || action === 'fork') && text('request') !== '') body.request = text('request');
  if (action === 'fork') {
    const from = Number(text('from'));
    if (!Number.isInteger(from) || from < 1)
      throw new HttpProblem(
        400,
        'bad_request',
        'the fork form sent no message to fork from: use “Fork from here” on a message',
      );
    body.from = from;
  }
  return body;
}

/** The browser's credentials (its header or its sign-in cookie), for the API call made on its behalf. */
export function forwardedCredentials(request: FastifyRequest): Record<string, string> {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (request.headers.authorization) headers.authorization = request.headers.authorization;
  if (request.headers.cookie) headers.cookie = request.headers.cookie;
  return headers;
}

/** The notice a page shows after a form was sent (`?sent=`), or null. */
export function sentNotice(sent: string | null, newSession: string | null): string | null {
  if (sent !== null && (UI_ACTIONS as readonly string[]).includes(sent))
    return controlNotice(sent, newSession !== null && isSessionId(newSession) ? newSession : null);
  if (sent === 'approve')
    return 'Your approval was sent; the tool runs and the session resumes as soon as the daemon takes it.';
  if (sent === 'deny')
    return 'Your denial was sent; the agent is told the call was denied and the session goes on as soon as the daemon takes it.';
  return sent ? 'Your answer was sent; the session resumes as soon as the daemon takes it.' : null;
}

/** The approval decision an HTML form posted: its Approve or Deny button's value. */
export function formDecision(form: Record<string, unknown>): {
  approve: boolean;
  reason?: string;
  call_id?: string;
  args_sha256?: string;
} {
  if (form.approve !== 'true' && form.approve !== 'false') {
    throw new HttpProblem(
      400,
      'bad_request',
      'the form sent no decision: press Approve or Deny (approve=true or approve=false)',
    );
  }
  const reason = typeof form.reason === 'string' ? form.reason.trim() : '';
  const bound = (field: 'call_id' | 'args_sha256') =>
    typeof form[field] === 'string' && form[field] !== '' ? { [field]: form[field] as string } : {};
  return {
    approve: form.approve === 'true',
    ...(reason === '' ? {} : { reason }),
    ...bound('call_id'),
    ...bound('args_sha256'),
  };
}
