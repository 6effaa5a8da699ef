/**
 * Routes decided by the orchestrator (SPEC §24): after a message is committed, its agent's routes
 * are tried in order; the first whose `when` is true (or absent) names the next agent. A `when`
 * that cannot be evaluated, or gives no boolean, counts as false and is noted.
 */
import type { AgentDefinition } from '../governance/agent-definition.js';
import type { RouteDecision } from '../store/session-journal.js';

export type { RouteDecision };

/** The route that decides, or null when none matched and none failed (the model's next_agent stands). */
export function decideRoute(agent: AgentDefinition, bindings: Readonly<Record<string, unknown>>): RouteDecision | null {
  const errors: Array<{ index: number; message: string }> = [];
  for (const route of agent.routes ?? []) {
    let matched = true;
    if (route.when) {
      const result = route.when.evaluate(bindings);
      if (!result.ok) errors.push({ index: route.index, message: result.error });
      else if (typeof result.value !== 'boolean')
        errors.push({ index: route.index, message: `gave ${JSON.stringify(result.value)}, not a boolean` });
      matched = result.ok && result.value === true;
    }
    if (matched)
      return { index: route.index, when: route.when?.text ?? null, to: route.to, ...(errors.length ? { errors } : {}) };
  }
  return errors.length > 0 ? { index: null, when: null, to: null, errors } : null;
}

/** The `next_agent.reason` a route writes. */
export function routeReason(decision: RouteDecision): string {
  return `route ${decision.index}: ${decision.when ?? 'always'}`;
}
