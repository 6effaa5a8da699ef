/** The task list a `plan: true` agent outputs, and the checks run before executing it. */

export interface PlanTask {
  id: string;
  agent: string;
  instruction: string;
  depends_on: string[];
}

export interface Plan {
  tasks: PlanTask[];
}

/** Returns the plan or the list of problems, phrased for the model to fix. */
export function checkPlan(content: unknown, executionalAgents: readonly string[]): { plan?: Plan; problems: string[] } {
  const problems: string[] = [];
  const tasks = (content as { tasks?: unknown } | null)?.tasks;
  if (typeof content !== 'object' || content === null || !Array.isArray(tasks)) {
    return {
      problems: ['/output/content: a plan must be {"tasks": [{"id", "agent", "instruction", "depends_on": []}]}'],
    };
  }
  if (tasks.length === 0) problems.push('/output/content/tasks: the plan has no tasks');
  const ids = new Set<string>();
  const parsed: PlanTask[] = [];
  tasks.forEach((task: unknown, index: number) => {
    const where = `/output/content/tasks/${index}`;
    const item = task as Partial<PlanTask> | null;
    if (typeof item !== 'object' || item === null) {
      problems.push(`${where}: must be an object`);
      return;
    }
    if (typeof item.id !== 'string' || item.id.length === 0) problems.push(`${where}/id: must be a non-empty string`);
    else if (ids.has(item.id)) problems.push(`${where}/id: duplicate task id "${item.id}"`);
    else ids.add(item.id);
    if (typeof item.agent !== 'string' || !executionalAgents.includes(item.agent)) {
      problems.push(
        `${where}/agent: "${String(item.agent)}" is not an executional agent; use one of ${executionalAgents.join(', ')}`,
      );
    }
    if (typeof item.instruction !== 'string' || item.instruction.length === 0)
      problems.push(`${where}/instruction: must be a non-empty string`);
    const dependsOn = item.depends_on ?? [];
    if (!Array.isArray(dependsOn) || dependsOn.some((id) => typeof id !== 'string')) {
      problems.push(`${where}/depends_on: must be an array of task ids`);
    }
    parsed.push({
      id: String(item.id),
      agent: String(item.agent),
      instruction: String(item.instruction),
      depends_on: Array.isArray(dependsOn) ? dependsOn.map(String) : [],
    });
  });
  for (const task of parsed) {
    for (const dependency of task.depends_on) {
      if (!ids.has(dependency)) problems.push(`task "${task.id}" depends on unknown task "${dependency}"`);
      if (dependency === task.id) problems.push(`task "${task.id}" depends on itself`);
    }
  }
  if (problems.length === 0) {
    const cycle = findCycle(parsed);
    if (cycle) problems.push(`the plan has a dependency cycle: ${cycle.join(' → ')}`);
  }
  return problems.length === 0 ? { plan: { tasks: parsed }, problems } : { problems };
}

function findCycle(tasks: PlanTask[]): string[] | null {
  const byId = new Map(tasks.map((task) => [task.id, task]));
  const state = new Map<string, 'visiting' | 'done'>();
  const stack: string[] = [];
  const visit = (id: string): string[] | null => {
    if (state.get(id) === 'done') return null;
    if (state.get(id) === 'visiting') return [...stack.slice(stack.indexOf(id)), id];
    state.set(id, 'visiting');
    stack.push(id);
    for (const dependency of byId.get(id)?.depends_on ?? []) {
      const cycle = visit(dependency);
      if (cycle) return cycle;
    }
    stack.pop();
    state.set(id, 'done');
    return null;
  };
  for (const task of tasks) {
    const cycle = visit(task.id);
    if (cycle) return cycle;
  }
  return null;
}
