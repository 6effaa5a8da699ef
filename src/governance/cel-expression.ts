/**
 * Expressions in governance files (SPEC §24: route conditions, input templates, `answer:`), in
 * CEL through @bufbuild/cel: parsed and planned once when the governance snapshot is loaded,
 * evaluated per message against plain JSON bindings. No `eval`, no hand-written parser.
 */
import {
  celEnv,
  isCelError,
  isCelList,
  isCelMap,
  isCelType,
  isCelUint,
  parse,
  plan,
  type CelResult,
} from '@bufbuild/cel';
import { strings } from '@bufbuild/cel/ext';
import { GovflowError } from '../errors.js';
import { isPlainObject } from '../message/json-text.js';

/** The one environment every governance expression runs in: CEL's standard library plus the strings extension. */
const ENVIRONMENT = celEnv({ funcs: strings });

type ParsedExpression = ReturnType<typeof parse>['expr'];

/** What an expression gives for one set of bindings: a JSON value, or why it could not be evaluated. */
export type ExpressionResult = { ok: true; value: unknown } | { ok: false; error: string };

/** An expression parsed and planned once; `evaluate` is cheap and never throws. */
export interface CompiledExpression {
  /** The expression as written. */
  text: string;
  /** Top-level variable names it reads (not those its macros bind), for `govflow validate`. */
  variables: readonly string[];
  evaluate(bindings: Readonly<Record<string, unknown>>): ExpressionResult;
}

/** An expression that does not parse: the message says where, as CEL reports it (`<input>:1:13: …`). */
export class ExpressionSyntaxError extends GovflowError {
  override readonly name = 'ExpressionSyntaxError';
  constructor(message: string) {
    super('config', message);
  }
}

/** Parses and plans `text`; throws ExpressionSyntaxError when it is not CEL. */
export function compileExpression(text: string): CompiledExpression {
  let parsed: ReturnType<typeof parse>;
  try {
    parsed = parse(text);
  } catch (error) {
    const why = error instanceof Error ? error.message : String(error);
    throw new ExpressionSyntaxError(`"${text}" is not a CEL expression: ${why.replace(/^<input>:/, 'at ')}`);
  }
  const program = plan(ENVIRONMENT, parsed);
  return {
    text,
    variables: [...freeVariables(parsed.expr)],
    evaluate(bindings) {
      let value: CelResult;
      try {
        // Bindings are JSON; CEL reads plain objects as maps and arrays as lists.
        value = program(bindings as Record<string, never>);
      } catch (error) {
        return { ok: false, error: error instanceof Error ? error.message : String(error) };
      }
      if (isCelError(value)) return { ok: false, error: value.message };
      return { ok: true, value: jsonOf(value) };
    },
  };
}

/** A CEL value as plain JSON: lists → arrays, maps → objects, ints → numbers, types → their names. */
export function jsonOf(value: unknown): unknown {
  if (value === null || typeof value === 'string' || typeof value === 'boolean' || typeof value === 'number')
    return value;
  if (typeof value === 'bigint') return Number(value);
  if (isCelUint(value)) return Number(value.value);
  if (isCelList(value)) return [...value].map(jsonOf);
  if (isCelMap(value)) {
    const object: Record<string, unknown> = {};
    for (const [key, item] of value) object[String(isCelUint(key) ? key.value : key)] = jsonOf(item);
    return object;
  }
  if (isCelType(value)) return value.name;
  if (value instanceof Uint8Array) return Buffer.from(value).toString('base64');
  if (Array.isArray(value)) return value.map(jsonOf);
  if (isPlainObject(value)) {
    const object: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) object[key] = jsonOf(item);
    return object;
  }
  return String(value);
}

/** Identifiers an expression reads from its bindings: every identifier but those a macro's comprehension binds around it. */
function freeVariables(expression: ParsedExpression | undefined, bound: ReadonlySet<string> = new Set()): Set<string> {
  const found = new Set<string>();
  const visit = (node: ParsedExpression | undefined, scope: ReadonlySet<string>): void => {
    if (!node) return;
    const kind = node.exprKind;
    switch (kind.case) {
      case 'identExpr':
        if (!scope.has(kind.value.name)) found.add(kind.value.name);
        return;
      case 'selectExpr':
        visit(kind.value.operand, scope);
        return;
      case 'callExpr':
        visit(kind.value.target, scope);
        for (const argument of kind.value.args) visit(argument, scope);
        return;
      case 'listExpr':
        for (const element of kind.value.elements) visit(element, scope);
        return;
      case 'structExpr':
        for (const entry of kind.value.entries) {
          if (entry.keyKind.case === 'mapKey') visit(entry.keyKind.value, scope);
          visit(entry.value, scope);
        }
        return;
      case 'comprehensionExpr': {
        const comprehension = kind.value;
        visit(comprehension.iterRange, scope);
        visit(comprehension.accuInit, scope);
        const inner = new Set([...scope, comprehension.iterVar, comprehension.iterVar2, comprehension.accuVar]);
        visit(comprehension.loopCondition, inner);
        visit(comprehension.loopStep, inner);
        visit(comprehension.result, new Set([...scope, comprehension.accuVar]));
        return;
      }
      default:
        return;
    }
  };
  visit(expression, bound);
  return found;
}
