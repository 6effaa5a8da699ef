/**
 * The day report as Markdown and as a self-contained HTML page (no scripts, no external files),
 * both from the same DayReport. Every value that came from a log is escaped: an audit entry can
 * hold any text a request held.
 */
import type { DayReport } from './day-report.js';

const STATUS_ORDER = ['success', 'partial', 'failed', 'pending', 'running', 'unknown'];

function statusEntries(byStatus: Record<string, number>): Array<[string, number]> {
  const known = STATUS_ORDER.filter((status) => byStatus[status] !== undefined).map((status): [string, number] => [
    status,
    byStatus[status],
  ]);
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
  return String(text ?? '')
    .replace(/\\/g, '\\\\')
    .replace(/\|/g, '\\|')
    .replace(/[\r\n]+/g, ' ');
}

/** A table cell: text, or a session id (linked in HTML), a status (styled) or a detail shown as code. */
type Cell = string | number | { session: string } | { status: string } | { code: string };

interface Section {
  title: string;
  /** Said instead of the tables when there is nothing to list. */
  empty: string;
  tables: Array<{ headers: string[]; rows: Cell[][] }>;
}

/** The report's sections, the same in both renderings. */
function sections(report: DayReport): Section[] {
  const table = (headers: string[], rows: Cell[][]) => (rows.length === 0 ? [] : [{ headers, rows }]);
  const byStatus = (counts: Record<string, number>) =>
    statusEntries(counts)
      .map(([status, total]) => `${status} ${total}`)
      .join(', ');
  return [
    {
      title: 'Sessions by status',
      empty: 'No session logged an entry this day.',
      tables:
        report.sessions.length === 0
          ? []
          : [
              { headers: ['status', 'sessions'], rows: statusEntries(report.byStatus) },
              {
                headers: ['session', 'request', 'status', 'messages', 'agents', 'first – last', 'cost'],
                rows: report.sessions.map((row) => [
                  { session: row.sessionId },
                  row.requestId,
                  { status: row.status },
                  row.messages,
                  row.agents.join(', '),
                  `${row.firstTime} – ${row.lastTime}`,
                  row.usage ? usd(row.usage.cost_usd) : '—',
                ]),
              },
            ],
    },
    {
      title: 'Agents',
      empty: 'No agent ran this day.',
      tables: table(
        ['agent', 'messages', 'by status'],
        report.agents.map((agent) => [agent.agent, agent.messages, byStatus(agent.byStatus)]),
      ),
    },
    {
      title: 'Failures',
      empty: 'None.',
      tables: table(
        ['time', 'session', '#', 'agent', 'code', 'reason'],
        report.failures.map((failure) => [
          failure.time,
          { session: failure.sessionId },
          failure.sequence ?? '—',
          failure.agent,
          failure.code ?? '—',
          failure.reason,
        ]),
      ),
    },
    {
      title: 'Compliance flags',
      empty: 'None.',
      tables: table(
        ['time', 'session', '#', 'agent', 'flag', 'detail'],
        report.flags.map((flag) => [
          flag.time,
          { session: flag.sessionId },
          flag.sequence ?? '—',
          flag.agent,
          flag.kind,
          { code: flag.detail },
        ]),
      ),
    },
  ];
}

/** Counts and cost in one sentence: no text from a log, so nothing in it to escape. */
function totals(report: DayReport): string {
  const { cost } = report;
  const uncounted = cost.sessionsWithoutResult
    ? `; ${cost.sessionsWithoutResult} sessions without a result are not counted`
    : '';
  return (
    `${report.entries} audit entries, ${report.sessions.length} sessions, cost ${usd(cost.usd)} (${cost.inputTokens} input ` +
    `/ ${cost.outputTokens} output tokens${uncounted}).`
  );
}

export function renderDayReportMarkdown(report: DayReport): string {
  const lines: string[] = [];
  lines.push(`# govflow day report ${report.date} (${prettyDate(report.date)})`, '');
  for (const warning of report.warnings) lines.push(`> warning: ${cell(warning)}`, '');
  lines.push(`**Verify:** ${cell(report.verify.summary)}`, '', totals(report), '');

  const text = (value: Cell) => (typeof value === 'object' ? Object.values(value)[0] : value);
  for (const section of sections(report)) {
    lines.push(`## ${section.title}`, '');
    if (section.tables.length === 0) lines.push(section.empty, '');
    for (const { headers, rows } of section.tables) {
      lines.push(
        `| ${headers.join(' | ')} |`,
        `|${'---|'.repeat(headers.length)}`,
        ...rows.map((row) => `| ${row.map((value) => cell(text(value))).join(' | ')} |`),
        '',
      );
    }
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

/** The sections as an HTML fragment (the web view's day page); `sessionHref` links each session id. */
export function renderDayReportFragment(report: DayReport, sessionHref?: (sessionId: string) => string): string {
  const session = (id: string) =>
    sessionHref ? `<a href="${escapeHtml(sessionHref(id))}">${escapeHtml(id)}</a>` : escapeHtml(id);
  const parts: string[] = report.warnings.map(
    (warning) => `<p class="warning" role="alert">warning: ${escapeHtml(warning)}</p>`,
  );
  parts.push(
    `<p class="verify ${report.verify.ok ? 'verify-ok' : 'verify-failed'}" ` +
      `role="${report.verify.ok ? 'status' : 'alert'}">${escapeHtml(report.verify.summary)}</p>`,
    `<p>${escapeHtml(totals(report))}</p>`,
  );
  const html = (value: Cell) =>
    typeof value !== 'object'
      ? escapeHtml(value)
      : 'session' in value
        ? session(value.session)
        : 'status' in value
          ? `<span class="status status-${escapeHtml(value.status)}">${escapeHtml(value.status)}</span>`
          : `<code>${escapeHtml(value.code)}</code>`;
  for (const section of sections(report)) {
    parts.push(`<h2>${section.title}</h2>`);
    if (section.tables.length === 0) parts.push(`<p>${section.empty}</p>`);
    for (const { headers, rows } of section.tables)
      parts.push(
        table(
          headers,
          rows.map((row) => row.map(html)),
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

/** A whole page with its style inline: no scripts, no external files. `title` is HTML. */
export function htmlDocument(title: string, style: string, body: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title}</title>
<style>${style}</style>
</head>
<body>
${body}
</body>
</html>
`;
}

export function renderDayReportHtml(report: DayReport): string {
  const date = escapeHtml(report.date);
  const body =
    `<main>\n<h1>govflow day report ${date} ` +
    `<small>(${escapeHtml(prettyDate(report.date))})</small></h1>\n${renderDayReportFragment(report)}\n</main>`;
  return htmlDocument(`govflow day report ${date}`, PAGE_STYLE, body);
}
