/**
 * The web view's page frame (README "Web view"): server-rendered, no build step and no external
 * files, readable at phone width, with a skip link, labelled forms and visible focus.
 */
import { createHash } from 'node:crypto';
import { escapeHtml, htmlDocument } from '../report/day-report-render.js';

export { escapeHtml };

const STYLE = `
:root{--fg:#1b1b1b;--muted:#5a5f6b;--line:#d5d9e2;--ok:#1d7a36;--bad:#a31515;--warn:#8a5a00;--accent:#1f4fbf}
*{box-sizing:border-box}body{font:15px/1.45 system-ui,-apple-system,sans-serif;margin:0;color:var(--fg);background:#fafbfc}
header{background:#14213d;color:#fff;padding:.6rem 1rem;display:flex;gap:1.25rem;align-items:center;flex-wrap:wrap}
header a{color:#fff;text-decoration:none;font-weight:600}
header a:focus,a:focus,button:focus,input:focus,select:focus,textarea:focus{outline:3px solid #ffbf47;outline-offset:2px}
header .who{margin-left:auto;font-weight:400;opacity:.85}
main{max-width:76rem;margin:0 auto;padding:1rem}
.skip{position:absolute;left:-999px}.skip:focus{left:1rem;top:.5rem;background:#fff;color:#000;padding:.25rem .5rem;z-index:2}
a{color:var(--accent)}h1{font-size:1.45rem;margin:.5rem 0 1rem}h2{font-size:1.15rem;margin:1.5rem 0 .5rem}
table{border-collapse:collapse;width:100%;margin:.5rem 0 1rem;background:#fff}
th,td{border:1px solid var(--line);padding:.35rem .55rem;text-align:left;vertical-align:top}
th{background:#eef1f6}code,pre{font:13px/1.4 ui-monospace,Menlo,Consolas,monospace}
pre{white-space:pre-wrap;word-break:break-word;background:#f3f4f7;border:1px solid var(--line);padding:.5rem;margin:.25rem 0 .75rem;max-height:28rem;
overflow:auto}
.status{font-weight:600}.status-success{color:var(--ok)}.status-failed,.status-error{color:var(--bad)}
.status-pending,.status-partial,.status-paused,.status-intervention_required,.status-halted_cost,.status-halted_time{color:var(--warn)}
.status-cancelled,.status-queued{color:var(--muted)}
.verify{padding:.5rem .75rem;border-radius:4px}.verify-ok{background:#e7f6ea}.verify-failed{background:#fde8e8;color:#8a1010}
.notice{padding:.5rem .75rem;background:#e8f0fe;border-radius:4px}
.warning{padding:.5rem .75rem;background:#fff4d6;border-radius:4px;overflow-wrap:anywhere}
dl.approval dt{font-weight:600;margin-top:.5rem}dl.approval dd{margin-left:1rem}
form.filters{display:flex;flex-wrap:wrap;gap:.5rem 1rem;align-items:end;margin-bottom:.75rem}
label{display:flex;flex-direction:column;font-size:.85rem;color:var(--muted);gap:.15rem}
input,select,textarea,button{font:inherit;padding:.35rem .5rem;border:1px solid #9aa1b1;border-radius:4px}
button{background:var(--accent);color:#fff;border-color:var(--accent);cursor:pointer}
textarea{width:100%;min-height:5rem}
details{background:#fff;border:1px solid var(--line);border-radius:4px;margin:.5rem 0;padding:.25rem .75rem}
summary{cursor:pointer;font-weight:600;padding:.25rem 0}
.message{border-left:4px solid var(--line);padding-left:.75rem;margin:1rem 0}.message.failed{border-color:var(--bad)}
.message.success{border-color:var(--ok)}
form.control{background:#fff;border:1px solid var(--line);border-radius:4px;padding:.5rem .75rem;margin:.5rem 0}form.control h3{margin:.25rem 0}
form[aria-label="cancel this session"] button{background:var(--bad);border-color:var(--bad)}.reused{color:var(--muted)}
.bad-entry{background:#fde8e8}.pager{display:flex;gap:1rem}
.diagram{overflow-x:auto;background:#fff;border:1px solid var(--line);border-radius:4px;padding:.5rem}
.turn{background:#fff;border:1px solid var(--line);border-radius:4px;padding:.25rem .75rem;margin:.5rem 0}.turn.current{border-left:4px solid var(--accent)}
.turn p{margin:.35rem 0;overflow-wrap:anywhere}.turn .answer{white-space:pre-wrap}
@media (max-width:40rem){table{display:block;overflow-x:auto}header{gap:.75rem}main{padding:.5rem}}
`;

/** A CSP source allowing exactly this inline script or style (`'sha256-…'`): no 'unsafe-inline' is needed. */
export function cspHash(text: string): string {
  return `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;
}

/**
 * The one script of the web view: it reloads a live session's page when the session moves past
 * what it shows. Constant text (so a hash allows it); what it needs it reads from `#live`'s data.
 * A paused page ignores the `pending` the stream replays first (it is the one shown).
 */
const LIVE_SCRIPT = `
(() => {
  const live = document.getElementById('live');
  if (!live) return;
  const shown = Number(live.dataset.messages);
  const paused = live.dataset.paused === 'true';
  const source = new EventSource(live.dataset.events);
  let seen = 0;
  let pendings = 0;
  let leaving = false;
  const reload = () => { source.close(); if (!leaving) location.reload(); };
  // A sent form navigates away: a reload now would cancel it (the session moves as soon as it lands).
  document.addEventListener('submit', () => { leaving = true; source.close(); });
  source.addEventListener('message', () => { seen += 1; if (seen > shown) reload(); });
  source.addEventListener('pending', () => { pendings += 1; if (!paused || pendings > 1) reload(); });
  for (const name of ['step_started', 'tool_call_start', 'tool_call_result', 'session_finished']) source.addEventListener(name, reload);
})();
`;

/** The page's live updates: the data the script reads, and the script. */
export function liveUpdates(eventsUrl: string, shownMessages: number, showsPaused: boolean): string {
  return `<div id="live" hidden data-events="${escapeHtml(eventsUrl)}" data-messages="${shownMessages}" data-paused="${showsPaused}"></div>
<script>${LIVE_SCRIPT}</script>`;
}

/** Focuses the notice a sent form leaves on top of the page (screen readers announce it). */
const NOTICE_SCRIPT = `document.getElementById('notice')?.focus();`;

/** The Content-Security-Policy sources of the web view's inline script and style (src/http/security-headers.ts). */
export const WEB_CONTENT_SOURCES = Object.freeze({
  scripts: Object.freeze([cspHash(LIVE_SCRIPT), cspHash(NOTICE_SCRIPT)]),
  styles: Object.freeze([cspHash(STYLE)]),
});

export interface PageOptions {
  title: string;
  /** The signed-in user, shown in the header; null on the sign-in page. */
  user: string | null;
  body: string;
  /** Extra markup for the end of the body (the live-update script). */
  tail?: string;
}

export function renderPage(options: PageOptions): string {
  const nav =
    options.user === null
      ? ''
      : `<nav aria-label="main"><a href="/ui/sessions">Sessions</a> &nbsp; <a href="/ui/days">Audit log</a></nav><span class="who">signed in ` +
        `as ${escapeHtml(options.user)}</span>`;
  const body = `<a class="skip" href="#content">Skip to content</a>
<header><a href="/ui/sessions">govflow</a>${nav}</header>
<main id="content">
${options.body}
</main>
${options.tail ?? ''}${options.body.includes('id="notice"') ? `\n<script>${NOTICE_SCRIPT}</script>` : ''}`;
  return htmlDocument(`${escapeHtml(options.title)} · govflow`, STYLE, body);
}

export function statusBadge(status: string): string {
  return `<span class="status status-${escapeHtml(status.toLowerCase())}">${escapeHtml(status)}</span>`;
}

/** Pretty JSON (or the text itself) in a <pre>. */
export function preformatted(value: unknown): string {
  const text = typeof value === 'string' ? value : JSON.stringify(value, null, 2);
  return `<pre>${escapeHtml(text ?? '')}</pre>`;
}
