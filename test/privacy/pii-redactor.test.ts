import { statSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  PiiRedactor,
  PiiTextError,
  piiDetectors,
  piiEnabled,
  MAX_REDACT_CHARS,
} from '../../src/privacy/pii-redactor.js';
import { readVault, writeVault, VAULT_FILE_NAME } from '../../src/privacy/pii-vault.js';
import { compileUserRegex, UserRegexError } from '../../src/config/user-regex.js';
import { loadConfig } from '../../src/config/config-loader.js';
import { ConfigError } from '../../src/errors.js';
import { makeTempFolder, removeTempFolders } from '../support/temp-dirs.js';

afterEach(removeTempFolders);

const ALL = {
  redact: ['email', 'phone', 'credit_card', 'iban', 'national_id', 'ip_address', 'secret'],
  custom: [{ name: 'employee_id', pattern: 'EMP-[0-9]{6}' }],
  restore_in_result: true,
};

describe('PiiRedactor', () => {
  it('gives the same value the same placeholder and counts occurrences', () => {
    const redactor = new PiiRedactor(piiDetectors(ALL));
    const first = redactor.redact('jane@corp.io wrote to bob@corp.io; jane@corp.io again, staff EMP-123456');
    expect(first.text).toBe('[EMAIL_1] wrote to [EMAIL_2]; [EMAIL_1] again, staff [EMPLOYEE_ID_1]');
    expect(first.counts).toEqual({ email: 3, employee_id: 1 });
    const second = redactor.redact('reply to bob@corp.io');
    expect(second.text).toBe('reply to [EMAIL_2]');
    expect(redactor.restore('Dear [EMAIL_1], cc [EMAIL_2], unknown [EMAIL_9]')).toBe(
      'Dear jane@corp.io, cc bob@corp.io, unknown [EMAIL_9]',
    );
  });

  it('redacts and restores every string of a JSON value, keys included', () => {
    const redactor = new PiiRedactor(piiDetectors(ALL));
    const { value, counts } = redactor.redactValue({ contact: ['call +44 20 7946 0958'], 'jane@corp.io': { n: 1 } });
    expect(value).toEqual({ contact: ['call [PHONE_1]'], '[EMAIL_1]': { n: 1 } });
    expect(counts).toEqual({ phone: 1, email: 1 });
    expect(redactor.restoreValue(value)).toEqual({ contact: ['call +44 20 7946 0958'], 'jane@corp.io': { n: 1 } });
  });

  it('continues numbering from a vault (recovery) and reports new entries once', () => {
    const first = new PiiRedactor(piiDetectors(ALL));
    first.redact('a@corp.io b@corp.io');
    expect(first.takeNewEntries()).toBe(true);
    expect(first.takeNewEntries()).toBe(false);
    const resumed = new PiiRedactor(piiDetectors(ALL), first.entries());
    expect(resumed.takeNewEntries()).toBe(false);
    expect(resumed.redact('b@corp.io c@corp.io').text).toBe('[EMAIL_2] [EMAIL_3]');
  });

  it('leaves text alone when nothing is configured, and refuses giant text with a clear error', () => {
    const none = { redact: [], custom: [], restore_in_result: false };
    expect(piiEnabled(none)).toBe(false);
    expect(new PiiRedactor(piiDetectors(none)).redact('a@corp.io').text).toBe('a@corp.io');
    const redactor = new PiiRedactor(piiDetectors(ALL));
    expect(() => redactor.redact('x'.repeat(MAX_REDACT_CHARS + 1))).toThrow(PiiTextError);
    const binary = redactor.redact('\u0000\u0001\uFFFD a@corp.io');
    expect(binary.text).toBe('\u0000\u0001\uFFFD [EMAIL_1]');
  });

  it('rejects bad settings in govflow.config.yaml with the line to fix', () => {
    const bad = (pii: string) => {
      const root = makeTempFolder('govflow-pii-config-');
      writeFileSync(path.join(root, 'govflow.config.yaml'), `timezone: UTC\npii:\n${pii}`);
      try {
        loadConfig(root);
      } catch (error) {
        expect(error).toBeInstanceOf(ConfigError);
        return (error as ConfigError).describe();
      }
      throw new Error('expected an error');
    };
    expect(bad('  custom:\n    - name: x\n      pattern: "(a+)+$"\n')).toMatch(
      /govflow\.config\.yaml:5: .*backtrack catastrophically/,
    );
    expect(bad('  custom:\n    - { name: ok, pattern: A }\n    - { name: y, pattern: "([" }\n')).toMatch(
      /:5: pii.custom\[1\].*not a valid regular expression/,
    );
    expect(bad('  custom:\n    - { name: Bad, pattern: A }\n')).toMatch(/govflow\.config\.yaml:4: .*name/);
    expect(bad('  custom:\n    - name: email\n      pattern: A\n')).toMatch(/:4: .*built-in kind/);
    expect(bad('  redact: [passport]\n')).toMatch(/govflow\.config\.yaml:3: .*pii\.redact/);
  });
});

describe('user regexes', () => {
  it('translates a leading (?i) into the i flag', () => {
    const regex = compileUserRegex('(?i)wire .* to account', 'rule');
    expect(regex.flags).toContain('i');
    expect(regex.test('Please WIRE the money to Account 7')).toBe(true);
  });
  it('rejects inline flags elsewhere, empty matches and nested repetition', () => {
    expect(() => compileUserRegex('a(?i)b', 'rule')).toThrow(/only supported at the very start/);
    expect(() => compileUserRegex('(?x)a', 'rule')).toThrow(/not supported/);
    expect(() => compileUserRegex('a*', 'rule')).toThrow(/empty string/);
    expect(() => compileUserRegex('(\\w+\\s?)*$', 'rule')).toThrow(UserRegexError);
    expect(() => compileUserRegex('', 'rule')).toThrow(/non-empty/);
  });
});

describe('vault', () => {
  it('is one file named *vault*, mode 0600, versioned, round-tripping entries', () => {
    const folder = makeTempFolder('govflow-vault-');
    expect(readVault(folder)).toEqual([]);
    const entries = [{ placeholder: 'EMAIL_1', kind: 'email', value: 'a@corp.io' }];
    writeVault(folder, entries, true);
    writeVault(folder, entries, false);
    expect(readdirSync(folder)).toEqual([VAULT_FILE_NAME]);
    expect(statSync(path.join(folder, VAULT_FILE_NAME)).mode & 0o777).toBe(0o600);
    expect(readVault(folder)).toEqual(entries);
    expect(JSON.parse(readFileSync(path.join(folder, VAULT_FILE_NAME), 'utf8')).v).toBe(1);
  });
});
