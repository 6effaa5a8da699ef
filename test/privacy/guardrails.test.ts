import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/config-loader.js';
import { ConfigError } from '../../src/errors.js';
import { loadGovernance } from '../../src/governance/governance-loader.js';
import {
  evaluateGuardrails,
  guardrailAuditValue,
  type GuardrailPiiScanner,
} from '../../src/privacy/guardrail-evaluator.js';
import { compileGuardrails } from '../../src/privacy/guardrail-rules.js';
import { PiiRedactor, piiDetectors } from '../../src/privacy/pii-redactor.js';
import { minimalRoot, removeTempRoots, runValidate, writeFile } from '../foundation/governance-root.js';

afterEach(removeTempRoots);

function compile(raw: unknown) {
  const errors: ConfigError[] = [];
  const rules = compileGuardrails(
    raw,
    { file: 'rules.yaml', lineOf: (path) => 10 + Number(path[0] ?? 0) },
    errors,
    new Map(),
  );
  return { rules, errors: errors.map((error) => error.describe()) };
}

const scanner: GuardrailPiiScanner = new PiiRedactor(
  piiDetectors({ redact: ['email', 'phone'], custom: [], restore_in_result: false }),
);

describe('guardrail rules', () => {
  it('compiles each match kind', () => {
    const { rules, errors } = compile([
      { name: 'english-only', on: 'output', match: { script: 'Han' }, action: 'retry', message: 'Answer in English.' },
      { name: 'no-wire', on: 'input', match: { regex: '(?i)wire .* to account' }, action: 'intervene' },
      { name: 'short', on: 'tool_result', match: { max_chars: 10 }, action: 'redact' },
      { name: 'pii', on: 'output', match: { pii_present: ['email'] }, action: 'flag' },
    ]);
    expect(errors).toEqual([]);
    expect(rules.map((rule) => rule.matcher.kind)).toEqual(['script', 'regex', 'max_chars', 'pii_present']);
  });

  it('names the rule, the file and the line of every problem', () => {
    const { errors } = compile([
      { name: 'a', on: 'output', match: { regex: '(a+)+$' }, action: 'flag' },
      { name: 'b', on: 'input', match: { regex: '([' }, action: 'flag' },
      { name: 'c', on: 'output', match: { script: 'Klingon' }, action: 'flag' },
      { name: 'd', on: 'elsewhere', match: { max_chars: 3 }, action: 'flag' },
      { name: 'e', on: 'output', match: { max_chars: 3 }, action: 'explode' },
      { name: 'f', on: 'input', match: { max_chars: 3 }, action: 'retry', message: 'x' },
      { name: 'g', on: 'output', match: { max_chars: 3 }, action: 'retry' },
      { name: 'h', on: 'output', match: { regex: 'x', script: 'Han' }, action: 'flag' },
      { name: 'a', on: 'output', match: { max_chars: 3 }, action: 'flag' },
      { name: 'j', on: 'output', match: { pii_present: ['passport'] }, action: 'flag' },
      { name: 'k', on: 'output', match: { max_chars: 3 }, action: 'flag', colour: 'red' },
    ]);
    expect(errors).toEqual([
      expect.stringMatching(
        /^rules\.yaml:10: guardrails\[0\] \("a"\): match\.regex "\(a\+\)\+\$" can backtrack catastrophically/,
      ),
      expect.stringMatching(/^rules\.yaml:11: .*not a valid regular expression/),
      expect.stringMatching(/^rules\.yaml:12: .*"Klingon" is not a Unicode script name/),
      expect.stringMatching(/^rules\.yaml:13: .*on must be one of input, output, tool_result/),
      expect.stringMatching(/^rules\.yaml:14: .*action must be one of flag, redact, retry, intervene/),
      expect.stringMatching(/^rules\.yaml:15: .*retry .* cannot change the input/),
      expect.stringMatching(/^rules\.yaml:16: .*needs a message/),
      expect.stringMatching(/^rules\.yaml:17: .*exactly one of/),
      expect.stringMatching(/^rules\.yaml:18: .*already used by the rule at rules\.yaml:10/),
      expect.stringMatching(/^rules\.yaml:19: .*pii_present must be true or a list of kinds/),
      expect.stringMatching(/^rules\.yaml:20: .*unknown key\(s\) "colour"/),
    ]);
  });
});

describe('guardrail evaluation', () => {
  const { rules } = compile([
    { name: 'english-only', on: 'output', match: { script: 'Han' }, action: 'retry', message: 'Answer in English.' },
    { name: 'no-wire', on: 'input', match: { regex: '(?i)wire .* to account' }, action: 'intervene' },
    { name: 'mask-codes', on: 'input', match: { regex: 'CODE-[0-9]+' }, action: 'redact' },
    { name: 'long', on: 'tool_result', match: { max_chars: 8 }, action: 'redact' },
    { name: 'pii-out', on: 'output', match: { pii_present: true }, action: 'flag' },
    { name: 'pii-tool', on: 'tool_result', match: { pii_present: ['email'] }, action: 'redact' },
  ]);

  it('retry: a rule on output whose script appears', () => {
    const outcome = evaluateGuardrails(rules, 'output', { answer: '你好 world' }, scanner);
    expect(outcome.retry?.message).toBe('Answer in English.');
    expect(guardrailAuditValue(outcome.triggers)).toEqual([{ rule: 'english-only', action: 'retry' }]);
    expect(evaluateGuardrails(rules, 'output', { answer: 'hello' }, scanner).triggers).toEqual([]);
  });

  it('intervene and redact on input, with a described match when the rule has no message', () => {
    const outcome = evaluateGuardrails(
      rules,
      'input',
      'Please WIRE it all to account 12, ref CODE-77 and CODE-8',
      scanner,
    );
    expect(outcome.intervene).toEqual({
      rule: 'no-wire',
      action: 'intervene',
      message: 'text matched /(?i)wire .* to account/',
    });
    expect(outcome.value).toBe('Please WIRE it all to account 12, ref [REDACTED:mask-codes] and [REDACTED:mask-codes]');
    expect(guardrailAuditValue(outcome.triggers)).toEqual([
      { rule: 'no-wire', action: 'intervene' },
      { rule: 'mask-codes', action: 'redact' },
    ]);
  });

  it('flag: pii_present on the model output', () => {
    const outcome = evaluateGuardrails(rules, 'output', { text: 'mail me at x@corp.io' }, scanner);
    expect(outcome.triggers).toEqual([{ rule: 'pii-out', action: 'flag', message: 'text contains PII (email)' }]);
    expect(outcome.value).toEqual({ text: 'mail me at x@corp.io' });
  });

  it('redact: max_chars truncates across strings, pii_present puts placeholders', () => {
    const outcome = evaluateGuardrails(rules, 'tool_result', ['abc', 'x@corp.io!'], scanner);
    // The truncation ran first and cut the address, so the PII rule no longer fires.
    expect(outcome.triggers.map((trigger) => trigger.rule)).toEqual(['long']);
    expect(outcome.value).toEqual(['abc', 'x@cor[REDACTED:long]']);
    const mail = evaluateGuardrails(
      rules.filter((rule) => rule.name === 'pii-tool'),
      'tool_result',
      'from x@corp.io',
      scanner,
    );
    expect(mail.value).toBe('from [EMAIL_1]');
  });
});

describe('guardrails in a governance root', () => {
  const rulesFile = (rules: string) => `---\nguardrails:\n${rules}\n---\n# Guardrails\nWhy these rules exist.\n`;

  it('loads config rules and governance/guardrails.md rules; prompts get only the rationale', () => {
    const root = minimalRoot();
    writeFile(
      root,
      'govflow.config.yaml',
      'guardrails:\n  - { name: short, on: output, match: { max_chars: 5000 }, action: flag }\n',
    );
    writeFile(
      root,
      'governance/guardrails.md',
      rulesFile('  - { name: no-wire, on: input, match: { regex: "(?i)wire .* to account" }, action: intervene }'),
    );
    const { snapshot, errors } = loadGovernance(loadConfig(root, {}));
    expect(errors).toEqual([]);
    expect(snapshot!.guardrails.map((rule) => [rule.name, rule.declaredIn.file, rule.declaredIn.line])).toEqual([
      ['short', 'govflow.config.yaml', 2],
      ['no-wire', 'governance/guardrails.md', 3],
    ]);
    const prompt = snapshot!.promptFiles.find((file) => file.path === 'governance/guardrails.md')!;
    expect(prompt.content).toBe('# Guardrails\nWhy these rules exist.\n');
  });

  it('govflow validate names file and line of a bad rule and of broken YAML', async () => {
    const root = minimalRoot();
    writeFile(
      root,
      'governance/guardrails.md',
      rulesFile(
        '  - name: ok\n    on: output\n    match: { max_chars: 9 }\n    action: flag\n  - name: bad\n    on: input\n    match: { regex: ' +
          '"(x+)+y" }\n    action: flag',
      ),
    );
    const bad = await runValidate(['--root', root]);
    expect(bad.code).toBe(1);
    expect(bad.stderr + bad.stdout).toMatch(
      /governance\/guardrails\.md:9: guardrails\[1\] \("bad"\): match\.regex .*backtrack catastrophically/,
    );
    writeFile(root, 'governance/guardrails.md', rulesFile('  - { name: broken, on: [output'));
    const broken = await runValidate(['--root', root]);
    expect(broken.code).toBe(1);
    expect(broken.stderr + broken.stdout).toMatch(/governance\/guardrails\.md:\d+: invalid YAML/);
  });

  it('a bad pii.custom pattern fails config loading with its line', () => {
    const root = minimalRoot();
    writeFile(
      root,
      'govflow.config.yaml',
      'pii:\n  redact: [email]\n  custom:\n    - name: employee_id\n      pattern: "(EMP-\\\\d+)+$"\n',
    );
    expect(() => loadConfig(root, {})).toThrow(ConfigError);
    try {
      loadConfig(root, {});
    } catch (error) {
      expect((error as ConfigError).describe()).toMatch(
        /^govflow\.config\.yaml:5: pii\.custom\[0\] \(employee_id\) pattern .*backtrack catastrophically/,
      );
    }
  });
});
