/**
 * One session's page: its chain as a diagram, the question it waits on, and every message with
 * its prompt, raw answers, corrections, tool calls and its audit entry as the log holds it.
 */
import type { LoggedEntry } from '../audit/audit-log-reader.js';
import { foldRecords, type SessionState } from '../pipeline/session-state.js';
import { PromptStore } from '../store/prompt-store.js';
import type { ExchangeRecord, JournalRecord, MessageRecord } from '../store/session-journal.js';
import { renderChainDiagram } from './chain-diagram.js';
import type { AttachmentInfo } from '../store/attachment-records.js';
import { escapeHtml, preformatted, statusBadge } from './web-page.js';
import type { SessionSummary } from '../store/session-listing.js';
import { sessionHref } from './audit-pages.js';
import {
  cancelForm,
  derivedBlock,
  endedForms,
  forkForm,
  haltForm,
  originBlock,
  stewardForm,
} from './session-actions.js';
import { interventionOf } from '../pipeline/steward-summary.js';

export interface SessionPageInput {
  sessionId: string;
  records: JournalRecord[];
  /** The session's audit entries (any day). */
  entries: LoggedEntry[];
  snapshotsDir: string;
  /** The viewer may answer the pending question or approval. */
  mayAnswer: boolean;
  /** A line to show on top (after an answer was sent). */
  notice: string | null;
  /** The viewer may cancel, retry, fork or re-run the session (SPEC §18: admin, its own operator, local). */
  mayAct: boolean;
  /** Sessions made from this one by fork, retry or re-run. */
  derived: readonly SessionSummary[];
  /** The chat conversation the session is a turn of, its turns together (conversation-page.ts); null: none to show. */
  conversation?: string | null;
}

function stepKey(record: MessageRecord): string {
  return record.task_id ? `task:${record.task_id}` : String(record.message.metadata.sequence_number);
}

function systemPrompt(snapshotsDir: string, sha256: string): string | null {
  try {
    return PromptStore.read(snapshotsDir, sha256);
  } catch {
    return null;
  }
}

function exchangeBlock(exchange: ExchangeRecord, snapshotsDir: string): string {
  const system = systemPrompt(snapshotsDir, exchange.system_sha256);
  const history = exchange.history
    .map((turn) => `<h5>${escapeHtml(turn.role)}</h5>${preformatted(turn.content)}`)
    .join('');
  return (
    `<details${exchange.attempt === 0 ? '' : ' open'}>
<summary>call ${exchange.attempt + 1}: ${escapeHtml(exchange.model)} via ${escapeHtml(exchange.provider)}, ${exchange.duration_ms} ` +
    `ms, ${exchange.usage.input_tokens}/${exchange.usage.output_tokens} tokens${
      exchange.error ? ' — <span class="status ' + 'status-failed">error</span>' : ''
    }</summary>
${
  system === null
    ? `<p>System prompt: <code>${escapeHtml(exchange.system_sha256)}</code> (not in ` + `system/snapshots/prompts/)</p>`
    : `<details><summary>system prompt ` +
      `(${escapeHtml(exchange.system_sha256.slice(0, 12))})</summary>${preformatted(system)}</details>`
}
${history ? `<h4>earlier turns</h4>${history}` : ''}
<h4>prompt</h4>${preformatted(exchange.prompt)}
${exchange.reasoning ? `<h4>reasoning (kept here, never passed on)</h4>${preformatted(exchange.reasoning)}` : ''}
<h4>raw answer</h4>${exchange.response === null ? '<p>none</p>' : preformatted(exchange.response)}
${exchange.error ? `<h4>error</h4>${preformatted(exchange.error)}` : ''}
</details>`
  );
}

/** The step's tool calls, approvals and tool violations, as its journal record holds them (the audit entry's [TOOL_CALLS] lines). */
function toolCallsBlock(record: MessageRecord): string {
  const { toolCalls = [], approvals = [], violations = [] } = record.tools ?? {};
  if (toolCalls.length + approvals.length + violations.length === 0) return '<p>None.</p>';
  const calls = toolCalls.map(
    (call) =>
      `<li><code>${escapeHtml(call.name)}</code> (${escapeHtml(call.id)}): ${
        call.is_error ? '<span class="status ' + 'status-failed">error</span>' : 'ok'
      }, ${call.ms} ms</li>`,
  );
  return `${calls.length > 0 ? `<ul class="tool-calls">${calls.join('')}</ul>` : ''}${
    approvals.length > 0 ? `<h5>approvals</h5>` + `${preformatted(approvals)}` : ''
  }${violations.length > 0 ? `<h5>tool violations</h5>${preformatted(violations)}` : ''}`;
}

function messageBlock(
  record: MessageRecord,
  exchanges: ExchangeRecord[],
  entry: LoggedEntry | undefined,
  snapshotsDir: string,
  fork: string,
): string {
  const message = record.message;
  const sequence = message.metadata.sequence_number;
  const status = message.status.code;
  const problems = [
    ...record.corrections.map((text) => `correction: ${text}`),
    ...record.violations.map((text) => `compliance: ${text}`),
    ...exchanges
      .filter((exchange) => exchange.error)
      .map((exchange) => `call ${exchange.attempt + 1}: ${exchange.error}`),
  ];
  return `<section class="message ${escapeHtml(status)}" id="m-${sequence}" aria-labelledby="m-${sequence}-title">
<h3 id="m-${sequence}-title">${sequence}. ${escapeHtml(message.agent.name)} ${statusBadge(status)}${
    record.task_id ? ` ` + `<small>task ${escapeHtml(record.task_id)}</small>` : ''
  }</h3>
<p>${escapeHtml(message.status.message)}${
    message.error.has_error
      ? ` — ` +
        `<strong>${escapeHtml(message.error.error_code ?? '')}</strong> ${escapeHtml(message.error.error_message ?? '')}`
      : ''
  }</p>
${
  record.reused
    ? `<p class="reused">Reused from session <a ` +
      `href="${escapeHtml(`${sessionHref(record.reused.session_id)}#m-${sequence}`)}">${escapeHtml(record.reused.session_id)}</a> (its entry ` +
      `<code>${escapeHtml(record.reused.entry_hash.slice(0, 16))}…</code>): no model call.</p>`
    : ''
}${fork}
<details><summary>message (JSON)</summary>${preformatted(message)}</details>
<h4>model calls (${exchanges.length})</h4>
${
  exchanges.length === 0
    ? '<p>No model call: govflow wrote this message ' + 'itself.</p>'
    : exchanges.map((exchange) => exchangeBlock(exchange, snapshotsDir)).join('\n')
}
${record.raw_output !== null ? `<h4>raw output kept (the message is a fallback)</h4>${preformatted(record.raw_output)}` : ''}
<h4>validation errors and corrections</h4>
${problems.length === 0 ? '<p>None.</p>' : `<ul>${problems.map((problem) => `<li>${escapeHtml(problem)}</li>`).join('')}</ul>`}
<h4>tool calls</h4>
${toolCallsBlock(record)}
<h4>audit entry</h4>
${
  entry
    ? `<p>${escapeHtml(entry.file)}:${entry.line} · hash ` +
      `<code>${escapeHtml(entry.hash)}</code></p>${preformatted(`${entry.body}\n[ENTRY_HASH: ${entry.hash}]`)}`
    : '<p>Not in the audit log (yet).</p>'
}
</section>`;
}

/** The request's attachments (docs/attachments.md) with their hashes, as the first audit entry lists them. */
function attachmentsTable(files: readonly AttachmentInfo[]): string {
  if (files.length === 0) return '';
  const rows = files.map(
    (file) =>
      `<tr><td><code>${escapeHtml(file.path)}</code></td><td>${file.bytes}</td><td>${escapeHtml(file.type)}</td><td><code ` +
      `class="sha256">${escapeHtml(file.sha256)}</code></td></tr>`,
  );
  return (
    `<h2 id="attachments-title">Attachments</h2>
<table class="attachments" aria-labelledby="attachments-title"><thead><tr><th scope="col">path</th><th scope="col">bytes</th><th ` +
    `scope="col">type</th><th scope="col">SHA-256</th></tr></thead>
<tbody>${rows.join('')}</tbody></table>`
  );
}

/** What a call waiting for approval would do: the tool and its input, as the journal holds them. */
function approvalDetails(paused: { tool?: string; input: unknown }): string {
  return `<dl class="approval" aria-label="tool call waiting for approval">
<dt>tool</dt><dd><code id="approval-tool">${escapeHtml(paused.tool ?? '?')}</code></dd>
<dt>input</dt><dd id="approval-input">${preformatted(paused.input)}</dd>
</dl>`;
}

function answerForm(
  sessionId: string,
  paused: NonNullable<SessionState['paused']>,
  awaiting: 'reply' | 'approval',
): string {
  const action = `/ui/sessions/${encodeURIComponent(sessionId)}/reply`;
  const { question, tool } = paused;
  if (awaiting === 'approval') {
    // Enter in the reason field submits the first button: Approve. Deny is one Tab further. The
    // decision is bound to the call this page shows (docs/results.md): its id and arguments' hash go with it.
    return (
      `<form method="post" action="${escapeHtml(action)}" aria-label="approve or deny the call of ${escapeHtml(tool ?? 'the tool')}">
<input type="hidden" name="call_id" value="${escapeHtml(paused.callId ?? '')}"><input type="hidden" name="args_sha256" ` +
      `value="${escapeHtml(paused.argsSha256 ?? '')}">
<label for="reason">Reason for your decision (optional, kept in the audit log)<input id="reason" name="reason" type="text" maxlength="2000" ` +
      `autocomplete="off"></label>
<p><button name="approve" value="true" type="submit">Approve</button> <button name="approve" value="false" type="submit">Deny</button></p>
</form>`
    );
  }
  return `<form method="post" action="${escapeHtml(action)}" aria-label="answer the question">
<label for="reply">Your answer to: ${escapeHtml(question)}<textarea id="reply" name="reply" required></textarea></label>
<p><button type="submit">Send answer</button></p>
</form>`;
}

export function renderSessionBody(input: SessionPageInput): {
  title: string;
  body: string;
  running: boolean;
  waiting: boolean;
} {
  const state = foldRecords(input.records);
  // The last end recorded: a session paused (pending) and then answered ends again.
  const finished = input.records.findLast((record) => record.type === 'finished');
  const intervention = interventionOf(state);
  const halted = state.paused?.awaiting === 'halt' ? `halted_${state.paused.halt ?? 'cost'}` : null;
  const status = intervention
    ? 'intervention_required'
    : halted
      ? halted
      : state.paused
        ? 'pending'
        : finished && finished.type === 'finished'
          ? finished.status
          : 'running';
  const messages = [...state.messages].sort(
    (left, right) => left.message.metadata.sequence_number - right.message.metadata.sequence_number,
  );
  const exchanges = input.records.filter((record): record is ExchangeRecord => record.type === 'exchange');
  const entriesById = new Map(input.entries.map((entry) => [entry.messageId, entry]));
  const paused = state.paused;
  const awaiting = paused?.awaiting === 'approval' ? 'approval' : 'reply';
  const parts: string[] = [];
  if (input.notice)
    parts.push(`<p class="notice" role="status" id="notice" tabindex="-1">${escapeHtml(input.notice)}</p>`);
  parts.push(`<h1>Session <code>${escapeHtml(input.sessionId)}</code> ${statusBadge(status)}</h1>`);
  parts.push(
    `<p>Request <code>${escapeHtml(state.session.request_id)}</code> from ` +
      `<strong>${escapeHtml(state.session.request.user ?? 'local')}</strong>, ` +
      `started ${escapeHtml(state.session.created_at)}; ${messages.length} ` +
      `messages, ${state.usage.input_tokens}/${state.usage.output_tokens} tokens, $${state.usage.cost_usd.toFixed(4)}.</p>`,
  );
  const origin = originBlock(state.session.lineage, state.cancelled);
  if (origin) parts.push(origin);
  parts.push(`<details open><summary>request</summary>${preformatted(state.session.request.text)}</details>`);
  parts.push(attachmentsTable(state.session.attachments?.files ?? []));
  if (input.conversation) parts.push(input.conversation);
  const ended = status !== 'pending' && status !== 'running' && status !== 'intervention_required' && !halted;
  if (input.mayAct) parts.push(ended ? endedForms(input.sessionId, status) : cancelForm(input.sessionId));
  const derived = derivedBlock(input.derived);
  if (derived) parts.push(derived);
  if (paused && intervention) {
    parts.push('<h2>Waiting for a steward</h2>');
    parts.push(`<p class="warning" id="intervention-summary">${escapeHtml(intervention.summary_for_supervisor)}</p>`);
    if (input.mayAct) parts.push(stewardForm(input.sessionId));
  } else if (paused && halted) {
    parts.push('<h2>Waiting for a steward</h2>');
    parts.push(`<p class="warning" id="halt-detail">${escapeHtml(paused.question)}</p>`);
    if (input.mayAct) parts.push(haltForm(input.sessionId));
  } else if (paused) {
    parts.push(`<h2>Waiting for ${awaiting === 'approval' ? 'an approval' : 'an answer'}</h2>`);
    parts.push(`<p class="warning" id="pending-question">${escapeHtml(paused.question)}</p>`);
    if (awaiting === 'approval') parts.push(approvalDetails(paused));
    parts.push(
      input.mayAnswer ? answerForm(input.sessionId, paused, awaiting) : "<p>Only the session's user can answer.</p>",
    );
  }
  parts.push('<h2>Chain</h2>');
  parts.push(
    `<div class="diagram">${renderChainDiagram(
      messages.map((record) => ({
        sequence: record.message.metadata.sequence_number,
        agent: record.message.agent.name,
        status: record.message.status.code,
        taskId: record.task_id,
      })),
      (sequence) => `#m-${sequence}`,
    )}</div>`,
  );
  parts.push('<h2>Messages</h2>');
  for (const record of messages) {
    const key = stepKey(record);
    const own = exchanges.filter((exchange) => exchange.agent === record.message.agent.name && exchange.step === key);
    const sequence = record.message.metadata.sequence_number;
    const fork = input.mayAct && ended ? forkForm(input.sessionId, sequence) : '';
    parts.push(messageBlock(record, own, entriesById.get(record.message.message_id), input.snapshotsDir, fork));
  }
  return {
    title: `Session ${input.sessionId}`,
    body: parts.join('\n'),
    running: status === 'running',
    waiting: paused !== null,
  };
}

/** The page of a session accepted but not started yet: who asked, and Cancel for whoever may act. */
export function renderQueuedBody(summary: SessionSummary, mayAct: boolean, notice: string | null): string {
  return [
    notice ? `<p class="notice" role="status" id="notice" tabindex="-1">${escapeHtml(notice)}</p>` : '',
    `<h1>Session <code>${escapeHtml(summary.session_id)}</code> ${statusBadge(summary.status)}</h1>`,
    `<p>Request <code>${escapeHtml(summary.request_id)}</code> from <strong>${escapeHtml(summary.user)}</strong>, waiting for a free slot ` +
      `(<code>intake.concurrency</code>); reload to follow it.</p>`,
    originBlock(summary.lineage, null),
    mayAct ? cancelForm(summary.session_id) : '',
  ]
    .filter(Boolean)
    .join('\n');
}
