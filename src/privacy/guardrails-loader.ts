/**
 * The guardrail rules of a root: config `guardrails:`, then governance/guardrails.md's frontmatter
 * (`guardrails: [...]` or the list itself; its body, the rationale, is what prompts get).
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import type { GovflowConfig } from '../config/config-loader.js';
import { parseYamlSource } from '../config/yaml-source.js';
import { ConfigError, errorMessage } from '../errors.js';
import { FrontmatterError, splitFrontmatter } from '../config/frontmatter.js';
import { compileGuardrails, type GuardrailRule } from './guardrail-rules.js';

/** Root-relative path of the guardrails policy file. */
export const GUARDRAILS_FILE = 'governance/guardrails.md';

/** Every rule, compiled; problems onto `errors`. `read` reads (and hashes) a root-relative file. */
export function loadGuardrails(
  config: GovflowConfig,
  read: (relative: string) => string,
  errors: ConfigError[],
  configLine: (keyPath: readonly (string | number)[]) => number,
): GuardrailRule[] {
  const taken = new Map<string, string>();
  const rules = compileGuardrails(
    config.guardrails.length > 0 ? config.guardrails : undefined,
    { file: 'govflow.config.yaml', lineOf: (keyPath) => configLine(['guardrails', ...keyPath]) },
    errors,
    taken,
  );
  if (!existsSync(path.join(config.root, GUARDRAILS_FILE))) return rules;
  let split;
  try {
    split = splitFrontmatter(read(GUARDRAILS_FILE));
  } catch (error) {
    errors.push(
      new ConfigError(errorMessage(error), GUARDRAILS_FILE, error instanceof FrontmatterError ? error.line : 1),
    );
    return rules;
  }
  if (split.frontmatter === null) return rules; // rationale only, no rules
  let source;
  try {
    source = parseYamlSource(split.frontmatter, GUARDRAILS_FILE, split.frontmatterLine);
  } catch (error) {
    errors.push(
      error instanceof ConfigError
        ? error
        : new ConfigError(errorMessage(error), GUARDRAILS_FILE, split.frontmatterLine),
    );
    return rules;
  }
  const value = source.value;
  if (value === null || value === undefined) return rules;
  const wrapped = typeof value === 'object' && !Array.isArray(value);
  if (wrapped) {
    const keys = Object.keys(value);
    const extra = keys.filter((key) => key !== 'guardrails');
    if (extra.length > 0) {
      errors.push(
        new ConfigError(
          `frontmatter key(s) ${extra.map((key) => `"${key}"`).join(', ')} are not known; the frontmatter holds guardrails: [rules]`,
          GUARDRAILS_FILE,
          source.lineOf([extra[0]]),
        ),
      );
      return rules;
    }
  }
  const list = wrapped ? (value as { guardrails?: unknown }).guardrails : value;
  return rules.concat(
    compileGuardrails(
      list,
      { file: GUARDRAILS_FILE, lineOf: (keyPath) => source.lineOf(wrapped ? ['guardrails', ...keyPath] : keyPath) },
      errors,
      taken,
    ),
  );
}

/** The text of the guardrails file that belongs in prompts: its body, without the rules. */
export function guardrailsPromptText(text: string): string {
  try {
    return splitFrontmatter(text).body;
  } catch {
    return text;
  }
}
