/**
 * End to end through a real daemon process: a request full of PII dropped into the inbox, every
 * file under system/ read back afterwards. Only the vault (and, with restore_in_result, the
 * outbox JSON result) may hold an original value. A fork starts from its original's vault (SPEC
 * §12, §18): a value keeps its placeholder across the messages the fork reuses and the ones it
 * makes, a new value gets the next number, and the fork's result restores each to what it stood
 * for in the original.
 */
import { mkdirSync, readFileSync, readdirSync, renameSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { buildDistOnce } from '../daemon/build-once.js';
import {
  answer,
  cleanupAll,
  dropJson,
  exampleScript,
  makeRoot,
  readAuditEntries,
  readResult,
  readResults,
  startDaemon,
  waitFor,
  writeScript,
} from '../daemon/daemon-helpers.js';

beforeAll(buildDistOnce, 180_000);
afterEach(cleanupAll);
afterAll(cleanupAll);

const ORIGINALS = {
  email: 'jane.doe@example.com',
  phone: '+44 20 7946 0958',
  card: '4111 1111 1111 1111',
  iban: 'GB82 WEST 1234 5698 7654 32',
  ssn: '123-45-6789',
  ip: '192.168.1.20',
  secret: 'AKIAIOSFODNN7EXAMPLE',
  employee: 'EMP-123456',
  modelInvented: 'leak@example.org',
};

const CONFIG = `timezone: UTC
provider:
  kind: scripted
  script: script.json
pii:
  redact: [email, phone, credit_card, iban, national_id, ip_address, secret]
  custom: [{ name: employee_id, pattern: "EMP-[0-9]{6}" }]
  restore_in_result: true
guardrails:
  - { name: pii-in-answer, on: output, match: { pii_present: true }, action: flag }
`;

function filesUnder(folder: string): string[] {
  const found: string[] = [];
  for (const name of readdirSync(folder)) {
    const full = path.join(folder, name);
    if (statSync(full).isDirectory()) found.push(...filesUnder(full));
    else found.push(full);
  }
  return found;
}

describe('PII never leaves the vault', () => {
  it('keeps every original out of journals, prompts, audit log, archive and logs; restores only the outbox result', async () => {
    const root = makeRoot(CONFIG);
    writeScript(
      root,
      exampleScript({
        responses: {
          objective_agent: [
            {
              json: answer({
                content: { objectives: ['answer [EMAIL_1]', `copy ${ORIGINALS.modelInvented}`] },
                contentType: 'objectives',
                next: 'goal_agent',
              }),
            },
          ],
          final_output_agent: [
            {
              json: answer({
                content: { answer: 'Replied to [EMAIL_1] about [EMPLOYEE_ID_1].' },
                contentType: 'final_report',
                next: null,
              }),
            },
          ],
        },
      }),
    );
    const daemon = await startDaemon(root);
    const request =
      `Contact ${ORIGINALS.email} or ${ORIGINALS.phone}. Card ${ORIGINALS.card}, IBAN ${ORIGINALS.iban}, SSN ${ORIGINALS.ssn}, ` +
      `host ${ORIGINALS.ip}, key ${ORIGINALS.secret}, staff ${ORIGINALS.employee}. Again: ${ORIGINALS.email}.`;
    dropJson(root, 'pii.json', { request, request_id: 'req-pii-1', metadata: { customer: ORIGINALS.email } });
    const result = await waitFor('the result', () => readResult(root, 'req-pii-1'), { timeoutMs: 30_000 });
    await waitFor(
      'the archive move',
      () => (filesUnder(path.join(root, 'system', 'archive')).length > 0 ? true : null),
      { timeoutMs: 10_000 },
    );
    await daemon.stop();

    expect(result.status).toBe('success');
    // restore_in_result: the outbox JSON, and only it, carries the originals back.
    expect(result.output).toEqual({ answer: `Replied to ${ORIGINALS.email} about ${ORIGINALS.employee}.` });

    const system = path.join(root, 'system');
    const all = filesUnder(system);
    const vaults = all.filter((file) => path.basename(file).includes('vault'));
    expect(vaults).toHaveLength(1);
    expect(statSync(vaults[0]).mode & 0o777).toBe(0o600);
    const vault = readFileSync(vaults[0], 'utf8');
    for (const value of Object.values(ORIGINALS)) expect(vault).toContain(value);

    const checked = all.filter(
      (file) => !vaults.includes(file) && file !== path.join(system, 'outbox', 'req-pii-1.json'),
    );
    expect(checked.some((file) => file.includes(`${path.sep}archive${path.sep}`))).toBe(true);
    expect(checked.some((file) => file.endsWith('journal.jsonl'))).toBe(true);
    expect(checked.some((file) => file.endsWith('.log'))).toBe(true);
    for (const file of checked) {
      const text = readFileSync(file, 'utf8');
      for (const [kind, value] of Object.entries(ORIGINALS))
        expect(text.includes(value), `${kind} "${value}" found in ${path.relative(root, file)}`).toBe(false);
    }
    for (const value of Object.values(ORIGINALS)) {
      expect(daemon.stdout).not.toContain(value);
      expect(daemon.stderrTail(10_000)).not.toContain(value);
    }

    const archived = readFileSync(
      checked.find((file) => file.includes(`${path.sep}archive${path.sep}`))!,
      'utf8',
    );
    expect(JSON.parse(archived).request).toContain('[EMAIL_1]');
    const entries = await readAuditEntries(root);
    const first = entries.find((entry) => entry.agent === 'objective_agent')!;
    expect(first.input).toContain('Contact [EMAIL_1] or [PHONE_1]');
    // `govflow logs --json` carries the extension lines as fields.
    expect((first as unknown as { piiRedacted: Record<string, number> }).piiRedacted).toMatchObject({
      email: 4,
      employee_id: 1,
    });
    expect((first as unknown as { guardrails: unknown[] }).guardrails).toEqual([
      { rule: 'pii-in-answer', action: 'flag' },
    ]);
    const logText = filesUnder(path.join(system, 'logs'))
      .filter((file) => file.endsWith('.log'))
      .map((file) => readFileSync(file, 'utf8'))
      .join('');
    // The request named the address twice and the metadata once; the model's own address once.
    expect(logText).toContain(
      '[PII_REDACTED]: {"email":4,"phone":1,"credit_card":1,"iban":1,"national_id":1,"ip_address":1,"secret":1,"employee_id":1}',
    );
    expect(logText).toContain('[GUARDRAILS]: [{"rule":"pii-in-answer","action":"flag"}]');
    expect(logText).toContain('Guardrail "pii-in-answer" flagged: text contains PII (email)');
  }, 60_000);
});

describe('PII in attachments (SPEC §22)', () => {
  it('reaches no model, journal, audit log or log unredacted; only the attachments themselves keep the originals, as delivered', async () => {
    const root = makeRoot(CONFIG);
    const entry = path.join(root, 'governance', 'agents', 'objective_agent.md');
    writeFileSync(entry, readFileSync(entry, 'utf8').replace('entry: true\n', 'entry: true\ntools: [read_file]\n'));
    writeScript(
      root,
      exampleScript({
        responses: {
          objective_agent: [
            { tool_calls: [{ name: 'read_file', input: { path: 'attachments/hr/contacts.csv' } }] },
            {
              json: answer({
                content: { objectives: ['reach [EMAIL_1]'] },
                contentType: 'objectives',
                next: 'goal_agent',
              }),
            },
          ],
        },
      }),
    );
    const daemon = await startDaemon(root);
    const letter = `Dear team, write to ${ORIGINALS.email} or call ${ORIGINALS.phone}; pay to ${ORIGINALS.iban}.\n`;
    const contacts = `name,email,staff\nJane,${ORIGINALS.email},${ORIGINALS.employee}\nHost,${ORIGINALS.ip},${ORIGINALS.secret}\n`;
    const files: Record<string, string> = {
      'request.txt': `Summarise the letter for ${ORIGINALS.email}.\n`,
      'letter.md': letter,
      'hr/contacts.csv': contacts,
    };
    const inbox = path.join(root, 'system', 'inbox');
    mkdirSync(path.join(inbox, '.pii-folder', 'hr'), { recursive: true });
    for (const [name, text] of Object.entries(files)) writeFileSync(path.join(inbox, '.pii-folder', name), text);
    renameSync(path.join(inbox, '.pii-folder'), path.join(inbox, 'pii-folder'));
    const system = path.join(root, 'system');
    const outbox = path.join(system, 'outbox');
    const result = await waitFor('the result', () => readdirSync(outbox).find((name) => name.endsWith('.json')), {
      timeoutMs: 30_000,
      detail: () => daemon.stderrTail(),
    });
    await waitFor('the archive move', () => filesUnder(path.join(system, 'archive')).length >= 3, {
      timeoutMs: 10_000,
    });
    await daemon.stop();
    const sessionId = JSON.parse(readFileSync(path.join(outbox, result), 'utf8')).session_id as string;

    // The one exception to "originals only in the vault": the attachments, as delivered, mode 0600.
    const all = filesUnder(system);
    const attachments = all.filter((file) => /archive.*pii-folder.*(letter\.md|contacts\.csv)$/.test(file));
    expect(attachments).toHaveLength(2);
    const workspace = path.join(root, 'workspace', sessionId, 'attachments');
    for (const [name, text] of [
      ['letter.md', letter],
      ['hr/contacts.csv', contacts],
    ]) {
      for (const copy of [attachments.find((file) => file.endsWith(name))!, path.join(workspace, name)]) {
        expect(readFileSync(copy, 'utf8')).toBe(text);
        expect(statSync(copy).mode & 0o777).toBe(0o600);
      }
    }
    const vault = all.find((file) => path.basename(file).includes('vault'))!;
    for (const value of [ORIGINALS.email, ORIGINALS.iban, ORIGINALS.employee, ORIGINALS.secret])
      expect(readFileSync(vault, 'utf8')).toContain(value);
    const checked = all.filter((file) => file !== vault && !attachments.includes(file));
    expect(checked.some((file) => file.endsWith('journal.jsonl'))).toBe(true);
    expect(checked.some((file) => file.endsWith('request.txt'))).toBe(true);
    for (const file of checked) {
      const text = readFileSync(file, 'utf8');
      for (const [kind, value] of Object.entries(ORIGINALS))
        expect(text.includes(value), `${kind} "${value}" found in ${path.relative(root, file)}`).toBe(false);
    }
    for (const value of Object.values(ORIGINALS)) expect(daemon.stderrTail(10_000)).not.toContain(value);
    // What the model was shown: the letter inline and the CSV read by a tool, both behind placeholders.
    const journal = readFileSync(path.join(system, 'sessions', sessionId, 'journal.jsonl'), 'utf8');
    expect(journal).toContain('[ATTACHMENT: attachments/letter.md]\\nDear team, write to [EMAIL_1] or call [PHONE_1]');
    expect(journal).toContain('Jane,[EMAIL_1],[EMPLOYEE_ID_1]');
    const entries = await readAuditEntries(root);
    const first = entries.find((found) => found.sessionId === sessionId && found.sequence === 1) as unknown as {
      piiRedacted: Record<string, number>;
      attachments: Array<{ path: string }>;
    };
    expect(first.attachments.map((file) => file.path)).toEqual(['hr/contacts.csv', 'letter.md']);
    // The request once, the inline letter and CSV, and the CSV again through read_file.
    expect(first.piiRedacted.email).toBeGreaterThanOrEqual(3);
    expect(first.piiRedacted).toMatchObject({ iban: 1, phone: 1 });
  }, 60_000);
});

const JANE = 'jane.doe@example.com';
const BOB = 'bob.stone@example.net';

const FORK_CONFIG = `timezone: UTC
provider:
  kind: scripted
  script: script.json
pii:
  redact: [email]
  restore_in_result: true
`;

describe('a fork and its original vault', () => {
  it('keeps the original placeholders, numbers new values after them, and restores them in its result', async () => {
    const root = makeRoot(FORK_CONFIG);
    writeScript(
      root,
      exampleScript({
        loop: true,
        responses: {
          final_output_agent: [
            {
              json: answer({ content: { answer: 'Wrote to [EMAIL_1].' }, contentType: 'final_report', next: null }),
            },
          ],
        },
      }),
    );
    const daemon = await startDaemon(root);
    dropJson(root, 'original.json', { request: `Write to ${JANE} about the budget.`, request_id: 'original' });
    const original = await waitFor('the original result', () => readResult(root, 'original'), { timeoutMs: 30_000 });
    expect(original).toMatchObject({ status: 'success', output: { answer: `Wrote to ${JANE}.` } });

    // From its last message, with a request that names another address.
    dropJson(root, 'fork.json', {
      control: 'fork',
      session_id: original.session_id,
      from: original.messages,
      request: `Write to ${BOB} about the budget.`,
      request_id: 'forked',
    });
    const forked = await waitFor(
      'the fork result',
      () => readResults(root).find((found) => found.request_id === 'forked'),
      {
        timeoutMs: 30_000,
        detail: () => daemon.stderrTail(),
      },
    );
    await daemon.stop();

    expect(forked.status).toBe('success');
    // [EMAIL_1] is still Jane in the fork (its reused messages say so): the result names her, not Bob.
    expect(forked.output).toEqual({ answer: `Wrote to ${JANE}.` });
    const folder = path.join(root, 'system', 'sessions', forked.session_id);
    const vault = JSON.parse(readFileSync(path.join(folder, 'pii-vault.json'), 'utf8'));
    expect(vault.entries).toEqual([
      { placeholder: 'EMAIL_1', kind: 'email', value: JANE },
      { placeholder: 'EMAIL_2', kind: 'email', value: BOB },
    ]);
    expect(statSync(path.join(folder, 'pii-vault.json')).mode & 0o777).toBe(0o600);
    const journal = readFileSync(path.join(folder, 'journal.jsonl'), 'utf8');
    expect(JSON.parse(journal.split('\n')[0]!).request.text).toBe('Write to [EMAIL_2] about the budget.');
    expect(journal).not.toContain(JANE);
    expect(journal).not.toContain(BOB);
  }, 60_000);
});
