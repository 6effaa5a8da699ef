/** SessionPrivacy at the doors the end-to-end tests do not reach: replies, tool results, reopening. */
import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/config-loader.js';
import { ConfigError } from '../../src/errors.js';
import { compileGuardrails } from '../../src/privacy/guardrail-rules.js';
import { SessionPrivacy } from '../../src/privacy/session-privacy.js';
import { fileVault, readVault, VAULT_FILE_NAME } from '../../src/privacy/pii-vault.js';
import {
  agentMessage,
  exampleRoot,
  happyResponses,
  journalOf,
  removeTempDirs,
  scripted,
  withRuntime,
} from '../pipeline/pipeline-test-helpers.js';

afterEach(removeTempDirs);

function vaultOf(config: ReturnType<typeof loadConfig>, sessionId: string) {
  const folder = path.join(config.paths.sessions, sessionId);
  return fileVault(folder, true, readVault(folder));
}

const PII = 'pii:\n  redact: [email, phone, secret]\n';

describe('SessionPrivacy', () => {
  it('redacts a reply before it is journaled, with the placeholders of the request', async () => {
    const root = exampleRoot(PII);
    const responses = happyResponses([{ id: 't1', agent: 'summarizer_agent' }]);
    responses.objective_agent = [
      agentMessage({
        content: null,
        contentType: 'objectives',
        status: 'pending',
        message: 'Which address should we use?',
      }),
      ...responses.objective_agent,
    ];
    const provider = scripted(responses);
    await withRuntime(root, provider, async (runtime) => {
      const signal = new AbortController().signal;
      const paused = await runtime.runner.startSession(
        { requestId: 'req-reply-1', text: 'Write to a@corp.io', sourceFile: 'r.txt', claimedPath: null },
        signal,
      );
      expect(paused.status).toBe('pending');
      const done = await runtime.runner.replyToSession(
        paused.sessionId,
        { text: 'Use a@corp.io or b@corp.io, call +1 415 555 2671', sourceFile: 'reply.json', claimedPath: null },
        signal,
      );
      expect(done.status).toBe('success');
      const journal = readFileSync(path.join(root, 'system', 'sessions', paused.sessionId, 'journal.jsonl'), 'utf8');
      expect(journal).not.toMatch(/[ab]@corp\.io|415 555 2671/);
      const reply = journalOf(root, paused.sessionId).find((record) => record.type === 'reply') as { reply: string };
      expect(reply.reply).toBe('Use [EMAIL_1] or [EMAIL_2], call [PHONE_1]');
      const objectiveCalls = provider.calls.filter((call) => call.agent === 'objective_agent');
      expect(objectiveCalls[1].prompt).toContain('[EMAIL_2]');
    });
  });

  it('guards tool results: redacts, runs tool_result rules, records both for the commit; reopening keeps the numbering', () => {
    const root = exampleRoot(PII);
    const config = loadConfig(root, {});
    const errors: ConfigError[] = [];
    const rules = compileGuardrails(
      [
        { name: 'tool-pii', on: 'tool_result', match: { pii_present: ['secret'] }, action: 'flag' },
        { name: 'tool-size', on: 'tool_result', match: { max_chars: 40 }, action: 'redact' },
      ],
      { file: 'test', lineOf: () => 1 },
      errors,
      new Map(),
    );
    expect(errors).toEqual([]);
    const privacy = SessionPrivacy.forSession(config, vaultOf(config, 'sess-tool'));
    const step = {};
    const outcome = privacy.guardToolResult(
      rules,
      step,
      'token ghp_' + 'a'.repeat(36) + ' for x@corp.io and more text after it',
    );
    expect(outcome.value).toBe('token [SECRET_1] for [EMAIL_1] and more [REDACTED:tool-size]');
    const facts = privacy.takeForCommit(step);
    expect(facts.piiRedacted).toEqual({ secret: 1, email: 1 });
    expect(facts.guardrails).toEqual([
      { rule: 'tool-pii', action: 'flag' },
      { rule: 'tool-size', action: 'redact' },
    ]);
    expect(facts.complianceNotes).toEqual(['Guardrail "tool-pii" flagged: text contains PII (secret)']);
    expect(privacy.takeForCommit(step)).toEqual({ piiRedacted: null, guardrails: null, complianceNotes: [] });
    const vault = path.join(root, 'system', 'sessions', 'sess-tool', VAULT_FILE_NAME);
    expect(statSync(vault).mode & 0o777).toBe(0o600);

    const reopened = SessionPrivacy.forSession(config, vaultOf(config, 'sess-tool'));
    expect(reopened.redactUserText('again x@corp.io, new y@corp.io')).toBe('again [EMAIL_1], new [EMAIL_2]');
    expect(reopened.restore({ a: '[EMAIL_2] [SECRET_1]' })).toEqual({ a: `y@corp.io ghp_${'a'.repeat(36)}` });
  });

  it('a new session writes no vault until its folder exists, and none at all without PII', () => {
    const root = exampleRoot(PII);
    const config = loadConfig(root, {});
    const fresh = SessionPrivacy.forNewSession(config, vaultOf(config, 'sess-new'));
    expect(fresh.redactUserText('mail a@corp.io')).toBe('mail [EMAIL_1]');
    expect(() => statSync(path.join(root, 'system', 'sessions', 'sess-new'))).toThrow();
    fresh.folderCreated();
    expect(statSync(path.join(root, 'system', 'sessions', 'sess-new', VAULT_FILE_NAME)).isFile()).toBe(true);
    const clean = SessionPrivacy.forNewSession(config, vaultOf(config, 'sess-clean'));
    clean.redactUserText('nothing personal');
    clean.folderCreated();
    expect(() => statSync(path.join(root, 'system', 'sessions', 'sess-clean'))).toThrow();
  });
});

describe('live chunks of an answer', () => {
  it('never show a PII value split across two chunks: text is held until no value can be cut', () => {
    const root = exampleRoot(PII);
    const config = loadConfig(root, {});
    const privacy = SessionPrivacy.forNewSession(config, vaultOf(config, 'sess-live'));
    const answer =
      `${'The summary of the meeting is ready for review by the team. '.repeat(3)}Call +44 20 7946 0958 or write to ` +
      `ana.lopez@example.org about it. ${'More text follows here so the stream goes on for a while. '.repeat(3)}`;
    // Cut into small pieces that split both values in the middle.
    const pieces = answer.match(/[\s\S]{1,7}/g)!;
    const shown: string[] = [];
    const live = privacy.liveChunks((chunk) => shown.push(chunk));
    for (const piece of pieces) live.push(piece);
    const beforeEnd = shown.length;
    live.end();
    expect(beforeEnd).toBeGreaterThan(1); // it streams, it does not wait for the whole answer
    expect(shown.join('')).toBe(privacy.redactFileText(answer));
    for (const chunk of shown) {
      expect(chunk).not.toMatch(/7946|0958|ana\.lo|example\.org/);
    }
    expect(shown.join('')).toContain('Call [PHONE_1] or write to [EMAIL_1] about it.');
  });

  it('an answer with no spaces (minified JSON) still streams, holding little, and no value is split', () => {
    const root = exampleRoot(PII);
    const privacy = SessionPrivacy.forNewSession(
      loadConfig(root, {}),
      vaultOf(loadConfig(root, {}), 'sess-live-solid'),
    );
    const filler = (n: number) => Array.from({ length: n }, (_unused, index) => `{"k${index}":"v${index}"}`).join(',');
    const answer = `[${filler(3000)},{"mail":"ana.lopez@example.org"},${filler(3000)}]`;
    const shown: string[] = [];
    const live = privacy.liveChunks((chunk) => shown.push(chunk));
    let pushed = 0;
    let mostHeld = 0; // characters pushed but not shown yet (the placeholder changes lengths by a few)
    for (const piece of answer.match(/[\s\S]{1,5}/g)!) {
      live.push(piece);
      pushed += piece.length;
      mostHeld = Math.max(mostHeld, pushed - shown.join('').length);
      if (mostHeld > 2000) break;
    }
    expect(mostHeld).toBeLessThan(2000);
    live.end();
    expect(shown.join('')).toBe(privacy.redactFileText(answer));
    for (const chunk of shown) expect(chunk).not.toMatch(/ana\.lo|example\.org/);
  });

  it('with no detector configured they go on as they come, nothing held back', () => {
    const root = exampleRoot('');
    const privacy = SessionPrivacy.forNewSession(loadConfig(root, {}), vaultOf(loadConfig(root, {}), 'sess-live-none'));
    const shown: string[] = [];
    const live = privacy.liveChunks((chunk) => shown.push(chunk));
    live.push('{"output":{"content":{"answer":"T');
    live.push('he team');
    expect(shown).toEqual(['{"output":{"content":{"answer":"T', 'he team']);
    live.end();
    expect(shown.join('')).toBe('{"output":{"content":{"answer":"The team');
  });

  it('without PII they pass through whole, flushed at the end', () => {
    const root = exampleRoot(PII);
    const privacy = SessionPrivacy.forNewSession(
      loadConfig(root, {}),
      vaultOf(loadConfig(root, {}), 'sess-live-clean'),
    );
    const shown: string[] = [];
    const live = privacy.liveChunks((chunk) => shown.push(chunk));
    live.push('{"output": ');
    live.push('"short"}');
    expect(shown).toEqual([]);
    live.end();
    expect(shown.join('')).toBe('{"output": "short"}');
  });
});
