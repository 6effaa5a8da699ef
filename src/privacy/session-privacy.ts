/**
 * A session's privacy at each door (README "Privacy and guardrails"): user text is redacted before
 * it is journaled, answers before they are parsed, tool results before the model sees them. The
 * vault is written before any record uses its placeholders; what a step redacted and which rules
 * fired wait for its message (`takeForCommit`: `[PII_REDACTED]`, `[GUARDRAILS]`).
 */
import { closeSync, existsSync, fsyncSync, ftruncateSync, openSync, readFileSync, writeSync } from 'node:fs';
import type { GovflowConfig } from '../config/config-loader.js';
import type { LlmToolCall } from '../llm/provider.js';
import { PII_KINDS } from '../config/config-vocabulary.js';
import { builtInDetector, findPii, type PiiDetector } from './pii-detectors.js';
import { addCounts, PiiRedactor, piiDetectors, piiEnabled, type PiiCounts } from './pii-redactor.js';
import type { SessionVault, VaultEntry } from './pii-vault.js';
import type { GuardrailRule, GuardrailStage } from './guardrail-rules.js';
import {
  evaluateGuardrails,
  guardrailAuditValue,
  type GuardrailOutcome,
  type GuardrailPiiScanner,
  type GuardrailTrigger,
} from './guardrail-evaluator.js';

/** What a committed message records about privacy. */
export interface PrivacyCommitFacts {
  piiRedacted: PiiCounts | null;
  guardrails: Array<{ rule: string; action: string }> | null;
  /** Sentences for the message's compliance notes (flag actions). */
  complianceNotes: string[];
}

interface StepFacts {
  counts: PiiCounts;
  triggers: GuardrailTrigger[];
}

/**
 * Detectors compiled once per configuration (used only synchronously, so sessions share them);
 * `everyKind`, what pii_present looks for, has every built-in kind plus the custom ones.
 */
const compiled = new WeakMap<GovflowConfig['pii'], { detectors: PiiDetector[]; everyKind: PiiDetector[] }>();
function compiledDetectors(config: GovflowConfig): { detectors: PiiDetector[]; everyKind: PiiDetector[] } {
  let entry = compiled.get(config.pii);
  if (!entry) {
    const detectors = piiEnabled(config.pii) ? piiDetectors(config.pii) : [];
    const custom = detectors.filter((detector) => !(PII_KINDS as readonly string[]).includes(detector.kind));
    entry = { detectors, everyKind: [...PII_KINDS.map(builtInDetector), ...custom] };
    compiled.set(config.pii, entry);
  }
  return entry;
}

export class SessionPrivacy {
  private readonly redactor: PiiRedactor;
  private readonly scanner: GuardrailPiiScanner;
  private readonly byStep = new WeakMap<object, StepFacts>();
  /** The latest unredacted model answer or tool result of each step, never written anywhere. */
  private readonly rawByStep = new WeakMap<object, string>();
  /** Facts from the request or a reply, for the next step that reads user input. */
  private pending: StepFacts = { counts: {}, triggers: [] };
  private constructor(
    private readonly config: GovflowConfig,
    private readonly vault: SessionVault,
    /** False until the session's folder exists (a new session redacts its request first). */
    private persisting: boolean,
    /** The vault entries of a fork's original or a child's parent. */
    inherited: readonly VaultEntry[] = [],
  ) {
    const { detectors, everyKind } = compiledDetectors(config);
    const own = vault.entries;
    this.redactor = new PiiRedactor(detectors, own);
    // A new session's vault is empty: the inherited entries go into it with its first write.
    if (own.length === 0) this.redactor.adopt(inherited);
    this.scanner = {
      detect: (text) => findPii(text, everyKind),
      placeholderFor: (kind, value) => this.redactor.placeholderFor(kind, value),
    };
  }

  /** The privacy state of an existing session, from its vault (src/privacy/session-vaults.ts opens it). */
  static forSession(config: GovflowConfig, vault: SessionVault): SessionPrivacy {
    return new SessionPrivacy(config, vault, true);
  }

  /**
   * For a new session: nothing is written until `folderCreated()` (the journal makes the folder
   * first). A fork, retry or re-run starts from its original's vault and a delegated child from its
   * parent's (`inheritsFrom`), so that a value keeps its placeholder across the messages one reuses
   * or the input the other is given and what the new session adds (and a result restores them).
   * Cluster mode's intake writes a new session's vault with its request (`persisting` true then).
   */
  static forNewSession(
    config: GovflowConfig,
    vault: SessionVault,
    inherited: readonly VaultEntry[] = [],
    persisting = false,
  ): SessionPrivacy {
    return new SessionPrivacy(config, vault, persisting, inherited);
  }

  /** The session's folder exists now: write the vault of what was redacted so far. */
  folderCreated(): void {
    this.persisting = true;
    this.persist();
  }

  /** True when the outbox result gets the originals back. */
  get restoresResult(): boolean {
    return this.config.pii.restore_in_result && this.redactor.entries().length > 0;
  }

  /** Redacts user text (request or reply); counts go to the next step that reads user input. */
  redactUserText(text: string): string {
    const { text: redacted, counts } = this.redactor.redact(text);
    addCounts(this.pending.counts, counts);
    this.persist();
    return redacted;
  }

  /**
   * Counts user text redacted before it reached the runner (cluster mode's intake redacts requests
   * and replies before the store keeps them): they go to the next step that reads user input.
   */
  countUserInput(counts: PiiCounts | null | undefined): void {
    if (counts) addCounts(this.pending.counts, counts);
  }

  /** The counts of user text redacted so far and not yet claimed by a step; forgets them. */
  takeUserInputCounts(): PiiCounts {
    const { counts } = this.pending;
    this.pending = { counts: {}, triggers: this.pending.triggers };
    return counts;
  }

  /** Every vault entry issued or adopted so far. */
  vaultEntries(): readonly VaultEntry[] {
    return this.redactor.entries();
  }

  /**
   * Redacts a text attachment for the prompt (docs/attachments.md), counted as user input. `whole`
   * false: the text is the start of a longer file, cut first where no PII value can be split.
   */
  redactAttachmentText(text: string, whole: boolean): string {
    return this.redactUserText(whole ? text : text.slice(0, this.redactor.safeCut(text)));
  }

  /** Redacts a JSON value from the user (request metadata); counts as user input. */
  redactUserValue<T>(value: T): T {
    const { value: redacted, counts } = this.redactor.redactValue(value);
    addCounts(this.pending.counts, counts);
    this.persist();
    return redacted;
  }

  /** Redacts text with the session's placeholders, counting nothing (the archived copy, live chunks). */
  redactFileText(text: string): string {
    const redacted = this.redactor.redact(text).text;
    this.persist();
    return redacted;
  }

  /**
   * A model answer's live chunks, redacted, held back until no value can be split (safeCut); `end`
   * flushes. With no detector nothing can be split: they go on as they come (a chat's first answer
   * chunk does not wait for 64 more characters and a space).
   */
  liveChunks(emit: (chunk: string) => void): { push(chunk: string): void; end(): void } {
    if (!this.redactor.detects) return { push: emit, end: () => {} };
    let held = '';
    return {
      push: (chunk) => {
        held += chunk;
        const cut = this.redactor.safeCut(held);
        if (cut === 0) return;
        emit(this.redactFileText(held.slice(0, cut)));
        held = held.slice(cut);
      },
      end: () => {
        if (held.length > 0) emit(this.redactFileText(held));
        held = '';
      },
    };
  }

  /** Redacts text on its way from a model or a tool into the session, counted on `step`. */
  redactForStep(step: object, text: string): string {
    this.rawByStep.set(step, text); // in memory only: what pii_present on output or tool_result reads
    const { text: redacted, counts } = this.redactor.redact(text);
    addCounts(this.facts(step).counts, counts);
    this.persist();
    return redacted;
  }

  /** Redacts tool call arguments, counted on `step`: journaled, shown and handed to the tool redacted. */
  redactToolCalls(step: object, calls: LlmToolCall[]): LlmToolCall[] {
    if (calls.length === 0) return calls;
    const { value: inputs, counts } = this.redactor.redactValue(calls.map((call) => call.input));
    addCounts(this.facts(step).counts, counts);
    this.persist();
    return calls.map((call, index) => ({ ...call, input: inputs[index] }));
  }

  /** The step reads user input: the request's or reply's counts belong to its message. */
  claimUserInput(step: object): void {
    const facts = this.facts(step);
    addCounts(facts.counts, this.pending.counts);
    facts.triggers.push(...this.pending.triggers);
    this.pending = { counts: {}, triggers: [] };
  }

  /** Runs the `stage` rules over `value` (redacted already), recording triggers on `step`. */
  guard<T>(rules: readonly GuardrailRule[], stage: GuardrailStage, step: object, value: T): GuardrailOutcome<T> {
    if (!rules.some((rule) => rule.on === stage)) return { value, triggers: [], retry: null, intervene: null };
    // pii_present asks whether the sender wrote PII: input is read behind its placeholders, an
    // answer or tool result as it arrived (placeholders a model repeats are not PII it wrote).
    const raw = this.rawByStep.get(step);
    const piiView =
      stage === 'input' || raw === undefined
        ? { detect: (text: string) => this.scanner.detect(this.redactor.restore(text)) }
        : { detect: () => this.scanner.detect(raw) };
    const outcome = evaluateGuardrails(rules, stage, value, this.scanner, piiView);
    this.facts(step).triggers.push(...outcome.triggers);
    this.persist();
    return outcome;
  }

  /** Redacts a tool result and runs the `tool_result` rules over it (for the tool loop). */
  guardToolResult(rules: readonly GuardrailRule[], step: object, text: string): GuardrailOutcome<string> {
    return this.guard(rules, 'tool_result', step, this.redactForStep(step, text));
  }

  /** What `step`'s message records; forgets it (a step commits one message). */
  takeForCommit(step: object): PrivacyCommitFacts {
    const facts = this.byStep.get(step);
    this.byStep.delete(step);
    if (!facts) return { piiRedacted: null, guardrails: null, complianceNotes: [] };
    return {
      piiRedacted: Object.keys(facts.counts).length > 0 ? facts.counts : null,
      guardrails: facts.triggers.length > 0 ? guardrailAuditValue(facts.triggers) : null,
      complianceNotes: facts.triggers
        .filter((trigger) => trigger.action === 'flag')
        .map((trigger) => `Guardrail "${trigger.rule}" flagged: ${trigger.message}`),
    };
  }

  /** Rewrites a claimed file with its PII replaced, so the archived copy is redacted. */
  redactFile(file: string): void {
    if (!this.redactor.detects || !existsSync(file)) return;
    const text = readFileSync(file, 'utf8');
    const redacted = this.redactFileText(text);
    if (redacted === text) return;
    // In place, not temp + rename: the request id's marker is a hard link to it and must lose the
    // originals too. The journal holds the request, so a crash costs only the copy's exactness.
    const fd = openSync(file, 'r+');
    try {
      writeSync(fd, redacted, 0, 'utf8');
      ftruncateSync(fd, Buffer.byteLength(redacted));
      if (this.config.daemon.fsync) fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
  }

  /** A JSON value with the originals put back (the outbox result with restore_in_result). */
  restore<T>(value: T): T {
    return this.redactor.restoreValue(value);
  }

  private facts(step: object): StepFacts {
    let facts = this.byStep.get(step);
    if (!facts) {
      facts = { counts: {}, triggers: [] };
      this.byStep.set(step, facts);
    }
    return facts;
  }

  /** Writes the vault when placeholders were issued (or adopted) since the last write. */
  private persist(): void {
    if (this.persisting && this.redactor.takeNewEntries()) this.vault.write(this.redactor.entries());
  }
}
