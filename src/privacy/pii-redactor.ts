/**
 * Replaces PII with placeholders (`[EMAIL_1]`) and back, in strings and JSON values (keys too).
 * One per session: a value keeps its placeholder, numbered per kind; the vault stores the entries.
 */
import { GovflowError } from '../errors.js';
import {
  builtInDetector,
  findPii,
  replaceFindings,
  type PiiDetector,
  type PiiFinding,
  type PiiKind,
} from './pii-detectors.js';
import { mapJsonStrings } from '../message/json-text.js';
import { compileUserRegex } from '../config/user-regex.js';
import type { VaultEntry } from './pii-vault.js';

/** Counts of occurrences replaced, by kind (`[PII_REDACTED]: {"email":2}`). */
export type PiiCounts = Record<string, number>;

/** The `pii:` config section, after defaults. */
export interface PiiConfig {
  redact: readonly string[];
  custom: ReadonlyArray<{ name: string; pattern: string }>;
  restore_in_result: boolean;
}

/** Largest text the redactor takes in one piece; intake, tools and replies stay far below it. */
export const MAX_REDACT_CHARS = 32 * 1024 * 1024;

/** A text over MAX_REDACT_CHARS: callers keep texts far below it, so reaching it is a defect. */
export class PiiTextError extends GovflowError {
  override readonly name = 'PiiTextError';
  constructor(message: string) {
    super('internal', message);
  }
}

/** True when the config asks for any redaction at all. */
export function piiEnabled(config: PiiConfig | undefined): config is PiiConfig {
  return config !== undefined && (config.redact.length > 0 || config.custom.length > 0);
}

/** The detectors for a `pii:` section as loadConfig checked it (kinds, names and patterns: config-loader.ts). */
export function piiDetectors(config: PiiConfig): PiiDetector[] {
  return [
    ...config.redact.map((kind) => builtInDetector(kind as PiiKind)),
    ...config.custom.map((custom, index) => ({
      kind: custom.name,
      pattern: compileUserRegex(custom.pattern, `pii.custom[${index}] (${custom.name}) pattern`),
    })),
  ];
}

const PLACEHOLDER = /\[([A-Z][A-Z0-9_]*_\d+)\]/g;

/** Longer than any built-in PII value written with spaces (an IBAN in groups is at most 42). */
const CUT_HOLD_CHARS = 64;
/** Held text with no usable space is cut past this length… */
const FORCED_CUT_AFTER = 1024;
/** …this far before its end: longer than any built-in value (an email is at most 254). */
const FORCED_HOLD_CHARS = 256;

export class PiiRedactor {
  private readonly byValue = new Map<string, VaultEntry>();
  private readonly byPlaceholder = new Map<string, VaultEntry>();
  private readonly nextNumber = new Map<string, number>();
  /** Entries added since the last `takeNewEntries()`: the vault must be written before they are used. */
  private fresh: VaultEntry[] = [];

  constructor(
    private readonly detectors: readonly PiiDetector[],
    entries: readonly VaultEntry[] = [],
  ) {
    for (const entry of entries) this.remember(entry);
    this.fresh = [];
  }

  /** False when no detector is configured: no text can change, so callers may skip reading it. */
  get detects(): boolean {
    return this.detectors.length > 0;
  }

  /** Every finding in `text` (no replacement): what the `pii_present` guardrail asks. */
  detect(text: string): PiiFinding[] {
    return findPii(text, this.detectors);
  }

  /**
   * Where a stream may be cut without splitting a PII value, or 0: the last whitespace at least
   * CUT_HOLD_CHARS before the end and inside no finding (a value with spaces still being written
   * reaches the end). Text with no such space (minified JSON) is cut past FORCED_CUT_AFTER,
   * FORCED_HOLD_CHARS before its end, so what is held and rescanned stays small.
   */
  safeCut(text: string): number {
    const findings = this.detectors.length === 0 ? [] : findPii(text, this.detectors);
    const outside = (cut: number) => !findings.some((finding) => finding.start < cut && cut < finding.end);
    for (let cut = text.length - CUT_HOLD_CHARS; cut > 0; cut--) {
      if (/\s/.test(text[cut - 1]) && outside(cut)) return cut;
    }
    if (text.length <= FORCED_CUT_AFTER) return 0;
    for (let cut = text.length - FORCED_HOLD_CHARS; cut > 0; cut--) if (outside(cut)) return cut;
    return 0;
  }

  /** `text` with every finding replaced, and the counts of what was replaced. */
  redact(text: string): { text: string; counts: PiiCounts } {
    if (text.length > MAX_REDACT_CHARS) {
      throw new PiiTextError(
        `text of ${text.length} characters is over the redactor's limit of ${MAX_REDACT_CHARS}; split it or lower its size limit`,
      );
    }
    const counts: PiiCounts = {};
    const findings = this.detectors.length === 0 ? [] : findPii(text, this.detectors);
    if (findings.length === 0) return { text, counts };
    for (const finding of findings) counts[finding.kind] = (counts[finding.kind] ?? 0) + 1;
    return {
      text: replaceFindings(text, findings, (finding) => this.placeholderFor(finding.kind, finding.value)),
      counts,
    };
  }

  /** A JSON value with every string in it redacted (object keys too). */
  redactValue<T>(value: T): { value: T; counts: PiiCounts } {
    const counts: PiiCounts = {};
    const redactString = (text: string) => {
      const redacted = this.redact(text);
      addCounts(counts, redacted.counts);
      return redacted.text;
    };
    return { value: mapJsonStrings(value, redactString, true) as T, counts };
  }

  /** `text` with every placeholder this session issued put back to its original. */
  restore(text: string): string {
    if (this.byPlaceholder.size === 0) return text;
    return text.replace(PLACEHOLDER, (whole, label: string) => this.byPlaceholder.get(label)?.value ?? whole);
  }

  restoreValue<T>(value: T): T {
    return mapJsonStrings(value, (text) => this.restore(text), true) as T;
  }

  /** Every entry issued so far (the vault's whole content). */
  entries(): VaultEntry[] {
    return [...this.byPlaceholder.values()];
  }

  /** Entries issued by another session (a fork's original, a child's parent): kept, and new for the next vault write. */
  adopt(entries: readonly VaultEntry[]): void {
    for (const entry of entries) this.remember(entry);
    this.fresh.push(...entries);
  }

  /** True once, for each batch of entries issued since the last call. */
  takeNewEntries(): boolean {
    const any = this.fresh.length > 0;
    this.fresh = [];
    return any;
  }

  /** The placeholder (with brackets) for `value` of `kind`, issuing a new one on first sight. */
  placeholderFor(kind: string, value: string): string {
    const key = `${kind}\0${value}`;
    const known = this.byValue.get(key);
    if (known) return `[${known.placeholder}]`;
    const label = kind.toUpperCase().replace(/[^A-Z0-9]+/g, '_');
    const number = (this.nextNumber.get(label) ?? 0) + 1;
    const entry: VaultEntry = { placeholder: `${label}_${number}`, kind, value };
    this.remember(entry);
    this.fresh.push(entry);
    return `[${entry.placeholder}]`;
  }

  private remember(entry: VaultEntry): void {
    this.byValue.set(`${entry.kind}\0${entry.value}`, entry);
    this.byPlaceholder.set(entry.placeholder, entry);
    const match = /^(.*)_(\d+)$/.exec(entry.placeholder);
    if (match) this.nextNumber.set(match[1], Math.max(this.nextNumber.get(match[1]) ?? 0, Number(match[2])));
  }
}

/** Adds `more` into `into` (mutating it). */
export function addCounts(into: PiiCounts, more: PiiCounts): PiiCounts {
  for (const [kind, count] of Object.entries(more)) into[kind] = (into[kind] ?? 0) + count;
  return into;
}
