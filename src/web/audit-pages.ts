/** The audit log in the web view: the list of days with their verify status, and one day's page. */
import path from 'node:path';
import { verifyAuditChain, type VerifyResult } from '../audit/audit-chain-verify.js';
import { listLogFiles, logFileDate, type LoggedEntry } from '../audit/audit-log-reader.js';
import type { SystemPaths } from '../config/system-paths.js';
import { renderDayReportFragment } from '../report/day-report-render.js';
import { readDay } from '../report/day-report-source.js';
import { escapeHtml, statusBadge } from './web-page.js';
import { counted } from '../counted.js';

export const sessionHref = (sessionId: string) => `/ui/sessions/${encodeURIComponent(sessionId)}`;

/** A day's verify status given the chain's first problem: the days after it were not checked. */
function dayStatus(file: string, verify: VerifyResult, files: string[]): { ok: boolean | null; text: string } {
  const problem = verify.firstProblem;
  if (verify.ok || !problem) return { ok: true, text: 'intact' };
  const badIndex = files.findIndex((name) => problem.file.endsWith(name));
  const index = files.indexOf(file);
  if (index === badIndex)
    return {
      ok: false,
      text: `verify failed at line ${problem.line} (message_id ${problem.messageId ?? 'unknown'}): ${problem.reason.replace('-', ' ')}`,
    };
  if (badIndex === -1 || index < badIndex) return { ok: true, text: 'intact' };
  return { ok: null, text: 'not checked: the chain is broken on an earlier day' };
}

export async function renderDaysBody(paths: SystemPaths): Promise<string> {
  const files = listLogFiles(paths.logs);
  const verify = await verifyAuditChain({ logsDir: paths.logs, stateDir: paths.state, live: true });
  const rows = [...files].reverse().map((file) => {
    const date = logFileDate(file);
    const status = dayStatus(file, verify, files);
    const badge = status.ok === true ? 'verify-ok' : status.ok === false ? 'verify-failed' : '';
    return `<tr><td><a href="/ui/days/${escapeHtml(date)}">${escapeHtml(date)}</a></td><td class="${badge}">${escapeHtml(status.text)}</td></tr>`;
  });
  const summary = verify.ok
    ? `<p class="verify verify-ok" role="status">Audit chain intact: ${counted(verify.entries, 'entry', 'entries')} in ${counted(verify.files, 'file')}.</p>`
    : `<p class="verify verify-failed" role="alert">verify failed: first bad entry ` +
      `at ${escapeHtml(path.basename(verify.firstProblem?.file ?? ''))}:${verify.firstProblem?.line ?? ''} ` +
      `(message_id ${escapeHtml(verify.firstProblem?.messageId ?? 'unknown')}) — ${escapeHtml(verify.firstProblem?.detail ?? '')}</p>`;
  return `<h1>Audit log</h1>
${summary}
${
  files.length === 0
    ? '<p>No audit log yet.</p>'
    : `<table><thead><tr><th scope="col">day</th><th ` +
      `scope="col">verify</th></tr></thead><tbody>${rows.join('\n')}</tbody></table>`
}`;
}

function entryRow(entry: LoggedEntry, bad: boolean): string {
  return (
    `<tr${bad ? ' class="bad-entry" id="first-bad-entry"' : ''}><td>${escapeHtml(entry.time)}</td><td>${entry.line}</td><td><a ` +
    `href="${escapeHtml(sessionHref(entry.sessionId))}">${escapeHtml(entry.sessionId)}</a></td><td>${entry.sequence}</td><td>` +
    `${escapeHtml(entry.agent)}</td><td>${statusBadge(entry.status.code)}</td><td><code>${escapeHtml(entry.hash.slice(0, 16))}…</code>` +
    `${bad ? ' <strong>first bad entry</strong>' : ''}</td></tr>`
  );
}

/** `visible`: operators see their own sessions' entries only, and the report covers only those. */
export async function renderDayBody(
  paths: SystemPaths,
  date: string,
  visible: (entry: LoggedEntry) => boolean,
): Promise<string> {
  const { report, entries } = await readDay(paths, date, { visible });
  const bad = report.verify.firstBadEntry;
  const rows = entries.map((entry) => entryRow(entry, bad !== null && entry.line === bad.line));
  const badNotListed = bad !== null && !entries.some((entry) => entry.line === bad.line);
  return `<h1>Audit log ${escapeHtml(date)}</h1>
${renderDayReportFragment(report, sessionHref)}
<h2>Entries</h2>
${badNotListed ? `<p class="verify verify-failed">The first bad entry, line ${bad.line}, cannot be read as an entry.</p>` : ''}
${
  entries.length === 0
    ? '<p>No entries.</p>'
    : `<table><thead><tr><th scope="col">time</th><th scope="col">line</th><th ` +
      `scope="col">session</th><th scope="col">#</th><th scope="col">agent</th><th scope="col">status</th><th ` +
      `scope="col">hash</th></tr></thead><tbody>${rows.join('\n')}</tbody></table>`
}`;
}
