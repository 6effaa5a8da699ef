/**
 * An agent's `input:` template (SPEC §24 data mapping): text with `{{ <CEL expression> }}` parts.
 * Rendering replaces each part by its value (a string as is, anything else as JSON); a template
 * that is only one part keeps the value's JSON type.
 */
import { stringifyJson } from '../message/json-text.js';
import { compileExpression, ExpressionSyntaxError, type CompiledExpression } from './cel-expression.js';

export interface InputTemplate {
  text: string;
  /** Literal text and expressions, in order. */
  parts: ReadonlyArray<string | CompiledExpression>;
}

/** What rendering gives: the input, or the expression that failed and why. */
export type TemplateResult = { ok: true; value: unknown } | { ok: false; expression: string; error: string };

const PART = /\{\{([\s\S]*?)\}\}/g;

/** Splits and compiles a template; throws (ExpressionSyntaxError) when a part is not CEL or is empty. */
export function compileTemplate(text: string): InputTemplate {
  const parts: Array<string | CompiledExpression> = [];
  let last = 0;
  for (const match of text.matchAll(PART)) {
    if (match.index > last) parts.push(text.slice(last, match.index));
    const expression = match[1].trim();
    if (expression === '') throw new ExpressionSyntaxError(`"${match[0]}" holds no expression`);
    parts.push(compileExpression(expression));
    last = match.index + match[0].length;
  }
  if (last < text.length) parts.push(text.slice(last));
  return { text, parts };
}

/** Renders a template against expression bindings; never throws. */
export function renderTemplate(template: InputTemplate, bindings: Readonly<Record<string, unknown>>): TemplateResult {
  const expressions = template.parts.filter((part) => typeof part !== 'string');
  const onlyOne = expressions.length === 1 && template.parts.every((part) => typeof part !== 'string' || part.trim() === '');
  let rendered = '';
  for (const part of template.parts) {
    if (typeof part === 'string') {
      if (!onlyOne) rendered += part;
      continue;
    }
    const result = part.evaluate(bindings);
    if (!result.ok) return { ok: false, expression: part.text, error: result.error };
    if (onlyOne) return { ok: true, value: result.value };
    rendered += typeof result.value === 'string' ? result.value : (stringifyJson(result.value) ?? 'null');
  }
  return { ok: true, value: rendered };
}
