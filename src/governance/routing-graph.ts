/**
 * Checks the routing graph of a governance tree: one entry, known targets, reachability, a
 * terminal agent, and executional agents for plans. Returns the entry agent's name.
 */
import { ConfigError } from '../errors.js';
import { INTERVENE, type AgentDefinition, type RoutingKey } from './agent-definition.js';

/** Agents a plan agent may dispatch tasks to. */
export function executionalAgents(agents: ReadonlyMap<string, AgentDefinition>): string[] {
  return [...agents.values()].filter((agent) => agent.type === 'executional').map((agent) => agent.name);
}

export function checkRoutingGraph(
  agents: ReadonlyMap<string, AgentDefinition>,
  errors: ConfigError[],
  warnings: string[],
): string | null {
  if (agents.size === 0) return null;
  const at = (agent: AgentDefinition, key?: RoutingKey) =>
    [agent.declaredIn.file, (key && agent.declaredIn.keyLines?.[key]) || agent.declaredIn.line] as const;
  const entries = [...agents.values()].filter((agent) => agent.entry);
  if (entries.length === 0) {
    errors.push(
      new ConfigError(
        'no entry agent: mark exactly one agent with `entry: true` to receive new requests',
        'governance/agents',
      ),
    );
  } else if (entries.length > 1) {
    for (const agent of entries.slice(1)) {
      errors.push(
        new ConfigError(
          `more than one entry agent (${entries.map((item) => item.name).join(', ')}): keep \`entry: true\` on exactly one`,
          ...at(agent, 'entry'),
        ),
      );
    }
  }

  for (const agent of agents.values()) {
    for (const target of agent.next) {
      if (!agents.has(target)) {
        errors.push(
          new ConfigError(
            `agent "${agent.name}": next names unknown agent "${target}"; known agents: ${[...agents.keys()].join(', ')}`,
            ...at(agent, 'next'),
          ),
        );
      }
    }
    for (const target of agent.delegates) {
      if (!agents.has(target)) {
        errors.push(
          new ConfigError(
            `agent "${agent.name}": delegates names unknown agent "${target}"; a child session must start at a defined agent (known ` +
              `agents: ${[...agents.keys()].join(', ')})`,
            ...at(agent, 'delegates'),
          ),
        );
      }
    }
    if (agent.onFailure && agent.onFailure !== INTERVENE && !agents.has(agent.onFailure)) {
      errors.push(
        new ConfigError(
          `agent "${agent.name}": on_failure names unknown agent "${agent.onFailure}" (or write "intervene" to pause for a steward)`,
          ...at(agent, 'on_failure'),
        ),
      );
    }
    if (agent.plan) {
      if (executionalAgents(agents).length === 0) {
        errors.push(
          new ConfigError(
            `agent "${agent.name}" has plan: true but there is no executional agent (type: executional) to run its tasks`,
            ...at(agent, 'plan'),
          ),
        );
      }
      if (agent.next.length === 0) {
        warnings.push(
          `${agent.declaredIn.file}: plan agent "${agent.name}" has no next agent to receive the task results; the plan's results end the session`,
        );
      }
    }
  }

  if (![...agents.values()].some((agent) => agent.next.length === 0)) {
    errors.push(
      new ConfigError(
        'no terminal agent: at least one agent needs `next: []` (or no next) so that sessions can end',
        'governance/agents',
      ),
    );
  }

  const entry = entries.length === 1 ? entries[0] : null;
  if (entry) {
    const reached = new Set<string>([entry.name]);
    const queue = [entry.name];
    while (queue.length > 0) {
      const agent = agents.get(queue.shift()!);
      if (!agent) continue;
      const targets = [
        ...agent.next,
        ...(agent.onFailure && agent.onFailure !== INTERVENE ? [agent.onFailure] : []),
        ...(agent.plan ? executionalAgents(agents) : []),
        ...agent.delegates,
      ];
      for (const target of targets) {
        if (!reached.has(target) && agents.has(target)) {
          reached.add(target);
          queue.push(target);
        }
      }
    }
    for (const agent of agents.values()) {
      if (!reached.has(agent.name)) {
        warnings.push(
          `${agent.declaredIn.file}:${agent.declaredIn.line}: agent "${agent.name}" is unreachable from the entry agent "${entry.name}"`,
        );
      }
    }
  }
  return entry?.name ?? null;
}

/** Renders the routing graph as lines `a → b, c`, for `govflow validate`. */
export function describeRoutingGraph(agents: ReadonlyMap<string, AgentDefinition>): string[] {
  return [...agents.values()].map((agent) => {
    const targets = [...agent.next];
    if (agent.plan) targets.push(`plan tasks: ${executionalAgents(agents).join(' | ')}`);
    if (agent.onFailure) targets.push(`on failure: ${agent.onFailure}`);
    return `${agent.entry ? '* ' : '  '}${agent.name} (${agent.type}) → ${targets.length ? targets.join(', ') : '(end)'}`;
  });
}
