/**
 * The expressions of an agent declaration (SPEC §24): `routes` with CEL `when` conditions, the
 * `input` template and the `answer` override. Compiled once per governance snapshot; every
 * problem is a ConfigError naming the file and the line of the `when`, `to`, `input` or `answer`.
 */
import type { AgentDeclaration } from '../config/config-loader.js';
import { ConfigError, errorMessage } from '../errors.js';
import type { AgentDefinition } from './agent-definition.js';
import { compileExpression, type CompiledExpression } from './cel-expression.js';
import { compileTemplate, type InputTemplate } from './input-template.js';

/** One `routes:` entry: the first whose `when` is true (or absent) names the next agent; `to: null` ends the chain. */
export interface AgentRoute {
  /** 0-based position in `routes`. */
  index: number;
  /** null: the route always applies. */
  when: CompiledExpression | null;
  to: string | null;
  /** Lines of its `when` and `to`, for `govflow validate`. */
  lines: { when: number; to: number };
}

/** What an agent's expressions compile to; fields absent from the declaration are empty. */
export interface AgentExpressions {
  routes: AgentRoute[];
  input: InputTemplate | null;
  answer: CompiledExpression | null;
  /** Lines of `input` and `answer`. */
  lines: { input: number; answer: number };
}

/** Variables every expression may read besides the message's own top-level fields. */
export const CONTEXT_VARIABLES = ['message', 'request', 'agents'] as const;

type LineOf = (keyPath: string[]) => number;

/**
 * Compiles the declaration's expressions, each problem recorded in `errors` (which keep the tree
 * from loading): a route whose `when` does not parse is left out, so the other checks still run.
 */
export function compileAgentExpressions(
  declaration: AgentDeclaration & { name: string },
  file: string,
  lineOf: LineOf,
  errors: ConfigError[],
): AgentExpressions {
  const next = declaration.next ?? [];
  const compile = (text: string, line: number, what: string): CompiledExpression | null => {
    try {
      return compileExpression(text);
    } catch (error) {
      errors.push(new ConfigError(`agent "${declaration.name}": ${what}: ${errorMessage(error)}`, file, line));
      return null;
    }
  };
  const routes: AgentRoute[] = [];
  (declaration.routes ?? []).forEach((route, index) => {
    const lines = { when: lineOf(['routes', String(index), 'when']), to: lineOf(['routes', String(index), 'to']) };
    const when = route.when === undefined ? null : compile(route.when, lines.when, `routes[${index}].when`);
    if (route.to !== null && !next.includes(route.to)) {
      errors.push(
        new ConfigError(
          `agent "${declaration.name}": routes[${index}].to "${route.to}" is not in its next (${next.join(', ') || 'empty'}); ` +
            'add it to next: or route elsewhere',
          file,
          lines.to,
        ),
      );
    }
    if (route.when === undefined || when) routes.push({ index, when, to: route.to, lines });
  });
  const lines = { input: lineOf(['input']), answer: lineOf(['answer']) };
  let input: InputTemplate | null = null;
  if (declaration.input !== undefined) {
    try {
      input = compileTemplate(declaration.input);
    } catch (error) {
      errors.push(new ConfigError(`agent "${declaration.name}": input: ${errorMessage(error)}`, file, lines.input));
    }
  }
  const answer = declaration.answer === undefined ? null : compile(declaration.answer, lines.answer, 'answer');
  return { routes, input, answer, lines };
}

/**
 * The checks that need the whole tree: every variable an expression reads is a top-level field of
 * the message schema or one of CONTEXT_VARIABLES; a free-text agent (`protocol: none`) with two or
 * more `next` has a default route and is no plan agent.
 */
export function checkAgentExpressions(
  agents: ReadonlyMap<string, AgentDefinition>,
  messageSchema: Record<string, unknown>,
  errors: ConfigError[],
): void {
  const properties = messageSchema.properties;
  const known = new Set<string>([
    ...CONTEXT_VARIABLES,
    ...(typeof properties === 'object' && properties !== null ? Object.keys(properties) : []),
  ]);
  const knownList = [...known].sort().join(', ');
  for (const agent of agents.values()) {
    const { file } = agent.declaredIn;
    const check = (expression: CompiledExpression | null, line: number, what: string) => {
      for (const name of expression?.variables ?? []) {
        if (known.has(name)) continue;
        errors.push(
          new ConfigError(
            `agent "${agent.name}": ${what} "${expression!.text}" names unknown variable "${name}"; known variables: ${knownList}`,
            file,
            line,
          ),
        );
      }
    };
    const lines = agent.expressionLines ?? { input: agent.declaredIn.line, answer: agent.declaredIn.line };
    for (const route of agent.routes ?? []) check(route.when, route.lines.when, `routes[${route.index}].when`);
    for (const part of agent.input?.parts ?? []) if (typeof part !== 'string') check(part, lines.input, 'input');
    check(agent.answer ?? null, lines.answer, 'answer');
    const wholeAgent = agent.declaredIn.keyLines?.next ?? agent.declaredIn.line;
    if (agent.protocol === 'none' && agent.next.length > 1 && !(agent.routes ?? []).some((route) => route.when === null))
      errors.push(
        new ConfigError(
          `agent "${agent.name}": protocol: none with ${agent.next.length} next agents needs a default route (a routes entry ` +
            'without when): a free-text answer names no next agent',
          file,
          wholeAgent,
        ),
      );
    if (agent.protocol === 'none' && agent.plan)
      errors.push(
        new ConfigError(`agent "${agent.name}": plan: true needs the message protocol, not protocol: none`, file, wholeAgent),
      );
  }
}
