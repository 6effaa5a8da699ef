/**
 * What makes a loaded config wrong beyond its schema: checks across fields and of user patterns,
 * each answering null when the section is right (config-loader.ts turns an answer into a
 * ConfigError naming the key).
 */
import type { GovflowConfig } from './config-loader.js';
import { PII_KINDS } from './config-vocabulary.js';
import { compileUserRegex, UserRegexError } from './user-regex.js';

/** What is wrong with `pii.custom` beyond its schema (a built-in kind's name, an unsafe pattern), and where; or null. */
export function piiProblem(pii: GovflowConfig['pii']): { message: string; keyPath: Array<string | number> } | null {
  for (const [index, custom] of pii.custom.entries()) {
    if ((PII_KINDS as readonly string[]).includes(custom.name))
      return {
        message: `pii.custom[${index}].name "${custom.name}" is a built-in kind; list it under pii.redact instead`,
        keyPath: ['pii', 'custom', index, 'name'],
      };
    try {
      compileUserRegex(custom.pattern, `pii.custom[${index}] (${custom.name}) pattern`);
    } catch (error) {
      if (!(error instanceof UserRegexError)) throw error;
      return { message: error.message, keyPath: ['pii', 'custom', index, 'pattern'] };
    }
  }
  return null;
}

/** Only archived days are deleted (docs/audit-log.md "Retention and archives"): what makes `delete_after_days` wrong, or null. */
export function retentionProblem(config: GovflowConfig): string | null {
  const { keep_days: keep, delete_after_days: deleteAfter } = config.audit.retention;
  if (deleteAfter === null) return null;
  if (keep === null)
    return (
      `audit.retention.delete_after_days (${deleteAfter}) needs audit.retention.keep_days: only archived days are deleted; set keep_days ` +
      `below ${deleteAfter}`
    );
  if (deleteAfter <= keep)
    return (
      `audit.retention.delete_after_days (${deleteAfter}) must be greater than audit.retention.keep_days (${keep}): days are deleted ` +
      `only after they were archived`
    );
  return null;
}
