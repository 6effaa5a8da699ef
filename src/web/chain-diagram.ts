/**
 * A session's chain as a server-rendered SVG: one linked box per message, coloured by status, plan
 * tasks that ran side by side in one row; a title and a description for screen readers.
 */
import { escapeHtml } from './web-page.js';

export interface DiagramMessage {
  sequence: number;
  agent: string;
  status: string;
  /** Plan task id; consecutive messages of one plan's tasks share a row. */
  taskId: string | null;
}

const BOX_WIDTH = 190;
const BOX_HEIGHT = 46;
const GAP_X = 24;
const GAP_Y = 30;
const PAD = 12;

const FILL: Record<string, string> = { success: '#e4f4e8', failed: '#fbe2e2', pending: '#fff1cc', partial: '#fff1cc' };
const STROKE: Record<string, string> = {
  success: '#1d7a36',
  failed: '#a31515',
  pending: '#8a5a00',
  partial: '#8a5a00',
};

/** Rows of messages: plan tasks that follow each other form one row, every other message its own. */
function rowsOf(messages: readonly DiagramMessage[]): DiagramMessage[][] {
  const rows: DiagramMessage[][] = [];
  for (const message of messages) {
    const last = rows.at(-1);
    if (message.taskId !== null && last && last[0].taskId !== null) last.push(message);
    else rows.push([message]);
  }
  return rows;
}

export function renderChainDiagram(messages: readonly DiagramMessage[], anchor: (sequence: number) => string): string {
  if (messages.length === 0) return '<p>No message committed yet.</p>';
  const rows = rowsOf([...messages].sort((left, right) => left.sequence - right.sequence));
  const columns = Math.max(...rows.map((row) => row.length));
  const width = PAD * 2 + columns * BOX_WIDTH + (columns - 1) * GAP_X;
  const height = PAD * 2 + rows.length * BOX_HEIGHT + (rows.length - 1) * GAP_Y;
  const parts: string[] = [];
  const centers: Array<Array<{ x: number; top: number; bottom: number }>> = [];
  rows.forEach((row, rowIndex) => {
    const rowWidth = row.length * BOX_WIDTH + (row.length - 1) * GAP_X;
    const left = (width - rowWidth) / 2;
    const top = PAD + rowIndex * (BOX_HEIGHT + GAP_Y);
    centers.push([]);
    row.forEach((message, column) => {
      const x = left + column * (BOX_WIDTH + GAP_X);
      const status = message.status.toLowerCase();
      centers[rowIndex].push({ x: x + BOX_WIDTH / 2, top, bottom: top + BOX_HEIGHT });
      parts.push(
        `<a href="${escapeHtml(anchor(message.sequence))}" aria-label="message ${message.sequence}: ${escapeHtml(message.agent)}, ${escapeHtml(status)}">` +
          `<rect x="${x}" y="${top}" width="${BOX_WIDTH}" height="${BOX_HEIGHT}" rx="6" fill="${FILL[status] ?? '#eef1f6'}" ` +
          `stroke="${STROKE[status] ?? '#5a5f6b'}" stroke-width="1.5"/>` +
          `<text x="${x + BOX_WIDTH / 2}" y="${top + 19}" text-anchor="middle" font-size="13" font-weight="600" ` +
          `fill="#1b1b1b">${message.sequence}. ${escapeHtml(message.agent)}</text>` +
          `<text x="${x + BOX_WIDTH / 2}" y="${top + 36}" text-anchor="middle" font-size="12" ` +
          `fill="${STROKE[status] ?? '#5a5f6b'}">${escapeHtml(status)}${message.taskId ? ` · task ${escapeHtml(message.taskId)}` : ''}</text>` +
          '</a>',
      );
    });
  });
  for (let rowIndex = 1; rowIndex < centers.length; rowIndex++) {
    for (const from of centers[rowIndex - 1]) {
      for (const to of centers[rowIndex]) {
        parts.unshift(
          `<line x1="${from.x}" y1="${from.bottom}" x2="${to.x}" y2="${to.top - 2}" stroke="#5a5f6b" stroke-width="1.5" marker-end="url(#arrow)"/>`,
        );
      }
    }
  }
  const description = messages.map((message) => `${message.sequence} ${message.agent} ${message.status}`).join(', ');
  return (
    `<svg class="chain" role="img" aria-labelledby="chain-title chain-desc" width="${width}" height="${height}" viewBox="0 ` +
    `0 ${width} ${height}" xmlns="http://www.w3.org/2000/svg">
<title id="chain-title">The session's chain of messages</title>
<desc id="chain-desc">${escapeHtml(description)}</desc>
<defs><marker id="arrow" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse"><path d="M0 0L10 ` +
    `5L0 10z" fill="#5a5f6b"/></marker></defs>
${parts.join('\n')}
</svg>`
  );
}
