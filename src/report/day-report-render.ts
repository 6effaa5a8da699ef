/**
 * The day report as Markdown and as a self-contained HTML page (no scripts, no external files),
 * both from the same DayReport. Every value that came from a log is escaped: an audit entry can
 * hold any text a request held.
 */
import type { DayReport } from './day-report.js';

const STATUS_ORDER = ['success', 'partial', 'failed', 'pending', 'running', 'unknown'];

function statusEntries(byStatus: Record<string, number>): Array<[string, number]> {
  const known = STATUS_ORDER.filter((status) => byStatus[status] !== undefined).map((status): [string, number] => [status, byStatus[status]]);
  const others = Object.entries(byStatus).filter(([status]) => !STATUS_ORDER.includes(status));
  return [...known, ...others];
}

function prettyDate(date: string): string {
  return `${date.slice(0, 4)}-${date.slice(4, 6)}-${date.slice(6, 8)}`;
}

function usd(value: number): string {
  return `$${value.toFixed(value < 1 ? 4 : 2)}`;
}

/** One line for a Markdown table cell: no pipes or newlines can break the table. */
function cell(text: string | number | null | undefined): string {
  return String(text ?? '').replace(/\\/g, '\\\\').replace(/\|/g, '\\|').replace(/[\r\n]+/g, ' ');
}

export function renderDayReportMarkdown(report: DayReport): string {
  const lines: string[] = [];
  lines.push(`# govflow day report ${report.date} (${prettyDate(report.date)})`, '');
  for (const warning of report.warnings) lines.push(`> warning: ${cell(warning)}`, '');
  lines.push(`**Verify:** ${cell(report.verify.summary)}`, '');
  lines.push(`${report.entries} audit entries, ${report.sessions.length} sessions, cost ${usd(report.cost.usd)} (${report.cost.inputTokens} input / ${report.cost.outputTokens} output tokens${report.cost.sessionsWithoutResult ? `; ${report.cost.sessionsWithoutResult} sessions without a result are not counted` : ''}).`, '');

  lines.push('## Sessions by status', '');
  if (report.sessions.length === 0) lines.push('No session logged an entry this day.', '');
  else {
    lines.push('| status | sessions |', '|---|---|');
    for (const [status, total] of statusEntries(report.byStatus)) lines.push(`| ${cell(status)} | ${total} |`);
    lines.push('', '| session | request | status | messages | agents | first – last | cost |', '|---|---|---|---|---|---|---|');
    for (const session of report.sessions) {
      lines.push(`| ${cell(session.sessionId)} | ${cell(session.requestId)} | ${cell(session.status)} | ${session.messages} | ${cell(session.agents.join(', '))} | ${session.firstTime} – ${session.lastTime} | ${session.usage ? usd(session.usage.cost_usd) : '—'} |`);
    }
    lines.push('');
  }

  lines.push('## Agents', '');
  if (report.agents.length === 0) lines.push('No agent ran this day.', '');
  else {
    lines.push('| agent | messages | by status |', '|---|---|---|');
    for (const agent of report.agents) lines.push(`| ${cell(agent.agent)} | ${agent.messages} | ${cell(statusEntries(agent.byStatus).map(([status, total]) => `${status} ${total}`).join(', '))} |`);
    lines.push('');
  }

  lines.push('## Failures', '');
  if (report.failures.length === 0) lines.push('None.', '');
  else {
    lines.push('| time | session | # | agent | code | reason |', '|---|---|---|---|---|---|');
    for (const failure of report.failures) lines.push(`| ${failure.time} | ${cell(failure.sessionId)} | ${failure.sequence} | ${cell(failure.agent)} | ${cell(failure.code ?? '—')} | ${cell(failure.reason)} |`);
    lines.push('');
  }

  lines.push('## Compliance flags', '');
  if (report.flags.length === 0) lines.push('None.', '');
  else {
    lines.push('| time | session | # | agent | flag | detail |', '|---|---|---|---|---|---|');
    for (const flag of report.flags) lines.push(`| ${flag.time} | ${cell(flag.sessionId)} | ${flag.sequence} | ${cell(flag.agent)} | ${cell(flag.kind)} | ${cell(flag.detail)} |`);
    lines.push('');
  }
  return `${lines.join('\n')}\n`;
}

/** Escapes text for HTML element content and double-quoted attributes. */
export function escapeHtml(text: string | number | null | undefined): string {
  return String(text ?? '').replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`);
}

function table(headers: string[], rows: string[][]): string {
  const head = headers.map((header) => `<th scope="col">${escapeHtml(header)}</th>`).join('');
  const body = rows.map((row) => `<tr>${row.map((value) => `<td>${value}</td>`).join('')}</tr>`).join('\n');
  return `<table>\n<thead><tr>${head}</tr></thead>\n<tbody>\n${body}\n</tbody>\n</table>`;
}

/**
 * The report's sections as an HTML fragment (for the web view's day page); `sessionHref`, when
 * given, links each session id to its page.
 */
export function renderDayReportFragment(report: DayReport, sessionHref?: (sessionId: string) => string): string {
  const session = (id: string) => (sessionHref ? `<a href="${escapeHtml(sessionHref(id))}">${escapeHtml(id)}</a>` : escapeHtml(id));
  const parts: string[] = report.warnings.map((warning) => `<p class="warning" role="alert">warning: ${escapeHtml(warning)}</p>`);
  parts.push(
    `<p class="verify ${report.verify.ok ? 'verify-ok' : 'verify-failed'}" role="${report.verify.ok ? 'status' : 'alert'}">${escapeHtml(report.verify.summary)}</p>`,
  );
  parts.push(
    `<p>${report.entries} audit entries, ${report.sessions.length} sessions, cost ${escapeHtml(usd(report.cost.usd))} (${report.cost.inputTokens} input / ${report.cost.outputTokens} output tokens${report.cost.sessionsWithoutResult ? `; ${report.cost.sessionsWithoutResult} sessions without a result are not counted` : ''}).</p>`,
  );
  parts.push('<h2>Sessions by status</h2>');
  if (report.sessions.length === 0) parts.push('<p>No session logged an entry this day.</p>');
  else {
    parts.push(table(['status', 'sessions'], statusEntries(report.byStatus).map(([status, total]) => [escapeHtml(status), String(total)])));
    parts.push(
      table(
        ['session', 'request', 'status', 'messages', 'agents', 'first – last', 'cost'],
        report.sessions.map((row) => [
          session(row.sessionId),
          escapeHtml(row.requestId),
          `<span class="status status-${escapeHtml(row.status)}">${escapeHtml(row.status)}</span>`,
          String(row.messages),
          escapeHtml(row.agents.join(', ')),
          `${escapeHtml(row.firstTime)} – ${escapeHtml(row.lastTime)}`,
          row.usage ? escapeHtml(usd(row.usage.cost_usd)) : '—',
        ]),
      ),
    );
  }
  parts.push('<h2>Agents</h2>');
  if (report.agents.length === 0) parts.push('<p>No agent ran this day.</p>');
  else {
    parts.push(table(['agent', 'messages', 'by status'], report.agents.map((agent) => [escapeHtml(agent.agent), String(agent.messages), escapeHtml(statusEntries(agent.byStatus).map(([status, total]) => `${status} ${total}`).join(', '))])));
  }
  parts.push('<h2>Failures</h2>');
  if (report.failures.length === 0) parts.push('<p>None.</p>');
  else {
    parts.push(
      table(
        ['time', 'session', '#', 'agent', 'code', 'reason'],
        report.failures.map((failure) => [escapeHtml(failure.time), session(failure.sessionId), String(failure.sequence), escapeHtml(failure.agent), escapeHtml(failure.code ?? '—'), escapeHtml(failure.reason)]),
      ),
    );
  }
  parts.push('<h2>Compliance flags</h2>');
  if (report.flags.length === 0) parts.push('<p>None.</p>');
  else {
    parts.push(
      table(
        ['time', 'session', '#', 'agent', 'flag', 'detail'],
        report.flags.map((flag) => [escapeHtml(flag.time), session(flag.sessionId), String(flag.sequence), escapeHtml(flag.agent), escapeHtml(flag.kind), `<code>${escapeHtml(flag.detail)}</code>`]),
      ),
    );
  }
  return parts.join('\n');
}

const PAGE_STYLE = `body{font:15px/1.45 system-ui,sans-serif;margin:1.5rem auto;max-width:72rem;padding:0 1rem;color:#1b1b1b}
table{border-collapse:collapse;margin:.5rem 0 1.25rem;width:100%}th,td{border:1px solid #ccd;padding:.3rem .5rem;text-align:left;vertical-align:top}
th{background:#f1f3f7}code{font-size:.85em;word-break:break-all}.verify{padding:.5rem .75rem;border-radius:4px}
.verify-ok{background:#e7f6ea}.verify-failed{background:#fde8e8;color:#8a1010}.status-failed{color:#a31515;font-weight:600}
@media (max-width:40rem){table{display:block;overflow-x:auto}}`;

export function renderDayReportHtml(report: DayReport): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>govflow day report ${escapeHtml(report.date)}</title>
<style>${PAGE_STYLE}</style>
</head>
<body>
<main>
<h1>govflow day report ${escapeHtml(report.date)} <small>(${escapeHtml(prettyDate(report.date))})</small></h1>
${renderDayReportFragment(report)}
</main>
</body>
</html>
`;
}
