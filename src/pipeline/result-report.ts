/**
 * The human-readable report next to each result: the final output, the path through the agents
 * as a Mermaid diagram, timings, tokens and cost; and the pair of files the store writes for a
 * result (the JSON document of session-result.ts and this report).
 */
import { jsonValueDepth } from '../message/json-depth.js';
import { stringifyJson } from '../message/json-text.js';
import type { SessionResultFiles } from '../store/session-store.js';
import type { ResultDocument } from './session-result.js';
import type { SessionState } from './session-state.js';

/** Deepest output the report indents; deeper output is written on one line. */
const REPORT_INDENT_MAX_DEPTH = 64;

function mermaidLabel(text: string): string {
  return text.replace(/"/g, '#quot;').replace(/</g, '#lt;').replace(/>/g, '#gt;');
}

function renderOutput(output: unknown): string {
  if (typeof output === 'string') return output;
  if (output && typeof output === 'object' && typeof (output as { answer?: unknown }).answer === 'string') {
    return (output as { answer: string }).answer;
  }
  // Indentation grows with depth (quadratic text): deep output is shown compact.
  const indent = jsonValueDepth(output, REPORT_INDENT_MAX_DEPTH) > REPORT_INDENT_MAX_DEPTH ? 0 : 2;
  return `\`\`\`json\n${stringifyJson(output, indent)}\n\`\`\``;
}

export function renderResultReport(result: ResultDocument, state: SessionState): string {
  const durations = state.stepDurations;
  const nodes = state.messages.map((record) => {
    const message = record.message;
    const id = `m${message.metadata.sequence_number}`;
    const label = `${mermaidLabel(
      `${message.metadata.sequence_number}. ${message.agent.name}${record.task_id ? ` ` + `[${record.task_id}]` : ''}`,
    )}<br/>${message.status.code}`;
    return {
      id,
      messageId: message.message_id,
      parent: message.metadata.parent_message_id,
      task: record.task_id !== null,
      label,
    };
  });
  const byMessageId = new Map(nodes.map((node) => [node.messageId, node.id]));
  // A plan's tasks hang off the plan message; whatever the plan hands its results to follows them.
  const tasksOf = new Map<string, string[]>();
  for (const node of nodes) {
    if (node.task && node.parent) tasksOf.set(node.parent, [...(tasksOf.get(node.parent) ?? []), node.id]);
  }
  const mermaid = ['```mermaid', 'flowchart TD', '  request(["request"])'];
  for (const node of nodes) {
    mermaid.push(`  ${node.id}["${node.label}"]`);
    const parents =
      !node.task && node.parent && tasksOf.has(node.parent)
        ? tasksOf.get(node.parent)!
        : [node.parent ? (byMessageId.get(node.parent) ?? 'request') : 'request'];
    for (const parent of parents) mermaid.push(`  ${parent} --> ${node.id}`);
  }
  mermaid.push('```');

  const rows = state.messages.map((record) => {
    const message = record.message;
    const step = `${message.metadata.sequence_number}`;
    const ms = durations.get(record.task_id ? `task:${record.task_id}` : step);
    return (
      `| ${step} | ${message.agent.name}${record.task_id ? ` (${record.task_id})` : ''} | ${message.status.code} ` +
      `| ${message.output.content_type} | ${ms === undefined ? '—' : `${ms} ms`} |`
    );
  });
  return [
    `# Result ${result.request_id}: ${result.status}`,
    '',
    `- Session: \`${result.session_id}\``,
    `- Source file: \`${result.source_file}\``,
    `- Started: ${result.started_at}; finished: ${result.finished_at}`,
    `- Messages: ${result.messages}; tokens: ${result.usage.input_tokens} in / ${result.usage.output_tokens} out; cost: $${result.usage.cost_usd.toFixed(6)}`,
    ...(result.lineage
      ? [
          `- ${result.lineage.action} of session \`${result.lineage.of_session}\` (request \`${result.lineage.of_request}\`) from ` +
            `message ${result.lineage.from}, by ${result.lineage.by}${result.lineage.reason ? `: ${result.lineage.reason}` : ''}`,
        ]
      : []),
    '',
    '## Message',
    '',
    result.message,
    ...(result.error
      ? ['', `**Error ${String(result.error.error_code)}**: ${String(result.error.error_message)}`]
      : []),
    '',
    '## Output',
    '',
    renderOutput(result.output),
    '',
    '## Path through the agents',
    '',
    ...mermaid,
    '',
    '| # | agent | status | output type | model time |',
    '|---|---|---|---|---|',
    ...rows,
    '',
    '## Request',
    '',
    '```text',
    state.session.request.text.replace(/```/g, '`\u200b``'),
    '```',
    '',
    ...(result.attachments
      ? [
          '## Attachments',
          '',
          '| path | bytes | type | sha256 |',
          '|---|---|---|---|',
          ...result.attachments.map(
            (file) =>
              `| ${file.path.replace(/[|\\]/g, (character) => `\\${character}`)} | ${file.bytes} | ${file.type} | \`${file.sha256}\` |`,
          ),
          '',
        ]
      : []),
  ].join('\n');
}

/** The result as the store writes it: `<request_id>.json` and the `<request_id>.md` report. */
export function resultFiles(
  result: ResultDocument,
  state: SessionState,
  reportOf: ResultDocument = result,
): SessionResultFiles {
  // `reportOf`: the report renders the redacted result when only the JSON carries originals (README "Privacy and guardrails").
  return {
    requestId: result.request_id,
    json: `${JSON.stringify(result, null, 2)}
`,
    report: renderResultReport(reportOf, state),
  };
}
