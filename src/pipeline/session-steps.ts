/**
 * A session's steps: what runs next — a step of the chain, or a task of a plan (run as a DAG by
 * plan-scheduler.ts) — and the loop key that counts "the same agent with the same input".
 */
import { sha256Hex } from '../sha256-hex.js';
import { stringifyJson } from '../message/json-text.js';
import type { PlanTask } from '../message/plan.js';
import type { SentientMessage } from '../message/sentient-message.js';
import type { StepKind } from '../store/session-journal.js';

/** A step the session has to run next. */
export interface PendingStep {
  agent: string;
  input: { source: string; content: unknown };
  parentMessageId: string | null;
  kind: Exclude<StepKind, 'limit'>;
  taskId: string | null;
  planMessageId: string | null;
  /** A steward's advice for a retried step (docs/run-control.md): in its prompt, its SHA-256 on its entry. */
  advice?: { text: string; sha256: string };
}

/** A plan being run: its tasks and the results they gave so far. */
export interface PlanState {
  messageId: string;
  agent: string;
  next: string | null;
  tasks: PlanTask[];
  results: Map<string, SentientMessage>;
}

function isMessage(value: unknown): value is SentientMessage {
  return typeof value === 'object' && value !== null && 'output' in value && 'agent' in value && 'status' in value;
}

/** "Same agent with the same input": a message input counts by who sent it and what it said. */
export function loopKeyOf(agent: string, input: { source: string; content: unknown }): string {
  const content = isMessage(input.content)
    ? { from: input.content.agent.name, status: input.content.status.code, output: input.content.output }
    : input.content;
  return `${agent}:${sha256Hex(`${input.source}\0${stringifyJson(content)}`).slice(0, 32)}`;
}

/** A step of the chain (not a plan task): `agent` answers `content` from `source`. */
export function chainStep(
  agent: string,
  source: string,
  content: unknown,
  parentMessageId: string | null,
): PendingStep {
  return { agent, input: { source, content }, parentMessageId, kind: 'chain', taskId: null, planMessageId: null };
}

function succeeded(message: SentientMessage | undefined): boolean {
  return message !== undefined && (message.status.code === 'success' || message.status.code === 'partial');
}

/** Tasks that can never run because a dependency did not succeed (directly or transitively). */
export function skippedTasks(plan: PlanState): Set<string> {
  const skipped = new Set<string>();
  let changed = true;
  while (changed) {
    changed = false;
    for (const task of plan.tasks) {
      if (skipped.has(task.id) || plan.results.has(task.id)) continue;
      const blocked = task.depends_on.some(
        (id) => skipped.has(id) || (plan.results.has(id) && !succeeded(plan.results.get(id))),
      );
      if (blocked) {
        skipped.add(task.id);
        changed = true;
      }
    }
  }
  return skipped;
}

/** Tasks whose dependencies all succeeded and that have no result yet. */
export function readyTasks(plan: PlanState): PlanTask[] {
  return plan.tasks.filter(
    (task) => !plan.results.has(task.id) && task.depends_on.every((id) => succeeded(plan.results.get(id))),
  );
}

export function taskStep(plan: PlanState, task: PlanTask): PendingStep {
  const dependencies: Record<string, unknown> = {};
  for (const id of task.depends_on) dependencies[id] = plan.results.get(id)?.output.content ?? null;
  return {
    agent: task.agent,
    input: { source: plan.agent, content: { task_id: task.id, instruction: task.instruction, dependencies } },
    parentMessageId: plan.messageId,
    kind: 'task',
    taskId: task.id,
    planMessageId: plan.messageId,
  };
}
