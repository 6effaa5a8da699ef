/**
 * End to end through a real daemon process: a request full of PII dropped into the inbox, every
 * file under system/ read back afterwards. Only the vault (and, with restore_in_result, the
 * outbox JSON result) may hold an original value.
 */
import { readFileSync, readdirSync, statSync } from 'node:fs';
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
