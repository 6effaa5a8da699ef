/**
 * Runs a plan's tasks as a DAG (README "Write an agent"): each task once its dependencies succeeded, at most
 * `limits.max_fan_out` at a time, never more than the steps left under `max_steps`.
 */
import type { GovflowConfig } from '../config/config-loader.js';
import type { ActiveSession } from './message-commit.js';
import { readyTasks, taskStep, type PendingStep } from './session-steps.js';
import { GovflowError } from '../errors.js';

export async function runPlan(
  active: ActiveSession,
  limits: GovflowConfig['limits'],
  runStep: (step: PendingStep) => Promise<void>,
  draining: () => boolean,
): Promise<void> {
  const plan = active.state.plan!;
  const running = new Map<string, Promise<void>>();
  // A task whose tool call waits for approval pauses the session: no new task starts.
  while (active.state.plan === plan && !active.state.final && !active.state.paused) {
    for (const task of draining() ? [] : readyTasks(plan)) {
      if (running.size >= limits.max_fan_out) break;
      if (running.has(task.id)) continue;
      // No more tasks than steps left, so parallel tasks cannot overshoot max_steps.
      if (running.size > 0 && active.state.messages.length + running.size >= limits.max_steps) break;
      const promise = runStep(taskStep(plan, task)).finally(() => running.delete(task.id));
      running.set(task.id, promise);
    }
    if (running.size === 0) {
      if (draining()) return;
      throw new GovflowError('internal', `plan ${plan.messageId} cannot make progress`);
    }
    try {
      await Promise.race(running.values());
    } catch (error) {
      // Drain the sibling tasks before the journal closes (shutdown interrupts all of them).
      await Promise.allSettled(running.values());
      throw error;
    }
  }
  await Promise.allSettled(running.values());
}
