import { describe, expect, it } from 'vitest';
import { hasCardIssuerPrefix, passesLuhn, passesNricCheck, passesVerhoeff } from '../../src/privacy/checksums.js';
import { builtInDetector, findPii, type PiiKind } from '../../src/privacy/pii-detectors.js';
import { PII_KINDS } from '../../src/config/config-vocabulary.js';
import { SECRET_RULES } from '../../src/privacy/secret-rules.js';

const found = (kind: PiiKind, text: string) => findPii(text, [builtInDetector(kind)]).map((finding) => finding.value);

describe('checksums', () => {
  it('Luhn accepts test card numbers and rejects one digit off', () => {
    expect(passesLuhn('4111111111111111')).toBe(true);
    expect(passesLuhn('4111111111111112')).toBe(false);
    expect(passesLuhn('41x1')).toBe(false);
    expect(passesLuhn('')).toBe(false);
  });
  it('Verhoeff catches a changed digit and a swap', () => {
    expect(passesVerhoeff('2363')).toBe(true); // Verhoeff's own example: 236 → 3
    expect(passesVerhoeff('2364')).toBe(false);
    expect(passesVerhoeff('3263')).toBe(false);
    expect(passesVerhoeff('234123412346')).toBe(true);
    expect(passesVerhoeff('234123412345')).toBe(false);
  });
  it('NRIC check letter for S, T, F and G series', () => {
    expect(passesNricCheck('S1234567D')).toBe(true);
    expect(passesNricCheck('S1234567A')).toBe(false);
    expect(passesNricCheck('T1234567J')).toBe(true);
    expect(passesNricCheck('F1234567N')).toBe(true);
    expect(passesNricCheck('G1234567X')).toBe(true);
    expect(passesNricCheck('X1234567D')).toBe(false);
  });
  it('card issuer prefixes with their lengths', () => {
    expect(hasCardIssuerPrefix('4111111111111111')).toBe(true);
    expect(hasCardIssuerPrefix('378282246310005')).toBe(true);
    expect(hasCardIssuerPrefix('3782822463100050')).toBe(false); // Amex is 15 digits
    expect(hasCardIssuerPrefix('9783161484100')).toBe(false); // an ISBN-13
  });
});

describe('detectors, positives and hard negatives', () => {
  it('email', () => {
    expect(found('email', 'write to jane.doe+tag@mail.example.co.uk, or ops@corp.io.')).toEqual([
      'jane.doe+tag@mail.example.co.uk',
      'ops@corp.io',
    ]);
    expect(found('email', 'install lodash@4.17.21 and user@localhost, @mention, a@b')).toEqual([]);
  });
  it('phone', () => {
    expect(found('phone', 'ring +44 20 7946 0958, (212) 555-0143, 415.555.2671 or +14155552671')).toEqual([
      '+44 20 7946 0958',
      '(212) 555-0143',
      '415.555.2671',
      '+14155552671',
    ]);
    expect(
      found('phone', 'on 2024-03-15, order 4412-8832, version 1.2.3, 555-123-4567, ISBN 978-3-16-148410-0'),
    ).toEqual([]);
  });
  it('credit_card (Luhn and issuer prefix)', () => {
    expect(found('credit_card', 'cards 4111 1111 1111 1111, 5500-0055-5555-5559 and 378282246310005')).toEqual([
      '4111 1111 1111 1111',
      '5500-0055-5555-5559',
      '378282246310005',
    ]);
    expect(
      found(
        'credit_card',
        'not 4111 1111 1111 1112, ISBN 9783161484100, order 1234567890123, mixed 4111-1111 1111-1111',
      ),
    ).toEqual([]);
  });
  it('iban (mod-97 via ibantools)', () => {
    expect(found('iban', 'pay GB82 WEST 1234 5698 7654 32 or DE89370400440532013000')).toEqual([
      'GB82 WEST 1234 5698 7654 32',
      'DE89370400440532013000',
    ]);
    expect(found('iban', 'bad DE89370400440532013001, code AB12 CDEF GHIJ, GB00 WEST 1234 5698 7654 32')).toEqual([]);
  });
  it('national_id: SSN, NINO, Aadhaar (Verhoeff), NRIC', () => {
    expect(found('national_id', 'SSN 123-45-6789, NINO AB 12 34 56 C, Aadhaar 2341 2341 2346, NRIC S1234567D')).toEqual(
      ['123-45-6789', 'AB 12 34 56 C', '2341 2341 2346', 'S1234567D'],
    );
    expect(
      found(
        'national_id',
        'SSN 000-12-3456 666-12-3456 123-00-6789, NINO QQ123456C GB123456A, Aadhaar 2341 2341 2345, NRIC S1234567A, date 2024-03-15',
      ),
    ).toEqual([]);
  });
  it('ip_address: IPv4 and IPv6', () => {
    expect(found('ip_address', 'from 192.168.1.20 and 2001:db8::8a2e:370:7334 or ::1, then 10.0.0.1.')).toEqual([
      '192.168.1.20',
      '2001:db8::8a2e:370:7334',
      '::1',
      '10.0.0.1',
    ]);
    expect(
      found('ip_address', 'v1.2.3.4, 256.1.1.1, 1.2.3, at 14:30:52, ratio 3:2, 10.0.0.1.5, std::map, A::B'),
    ).toEqual([]);
  });
  it('secret: one sample per gitleaks rule', () => {
    const samples: Record<string, string> = {
      'private-key': `-----BEGIN RSA PRIVATE KEY-----\n${'MIIEowIBAAKCAQEA'.repeat(5)}\n-----END RSA PRIVATE KEY-----`,
      'aws-access-token': 'AKIAIOSFODNN7EXAMPLE',
      'github-fine-grained-pat': `github_pat_${'A1b2'.repeat(20)}xy`,
      'github-pat': `ghp_${'a1B2'.repeat(9)}`,
      'github-oauth': `gho_${'a1B2'.repeat(9)}`,
      'github-app-token': `ghs_${'a1B2'.repeat(9)}`,
      'github-refresh-token': `ghr_${'a1B2'.repeat(9)}`,
      'gitlab-pat': 'glpat-abcdefghij0123456789',
      'slack-bot-token': 'xoxb-1234567890-1234567890123-abcdefABCDEF',
      'slack-user-token': 'xoxp-1234567890-1234567890-1234567890-abcdefabcdefabcdefabcdefabcdefab',
      'slack-app-token': 'xapp-1-A0123ABCDEF-1234567890-abcdef0123',
      'stripe-access-token': 'sk_live_abcdefghij0123456789',
      'anthropic-api-key': `sk-ant-api03-${'a'.repeat(93)}AA`,
      'openai-api-key': `sk-proj-${'a'.repeat(74)}T3BlbkFJ${'b'.repeat(74)}`,
      'gcp-api-key': `AIza${'Sy'.repeat(17)}A`,
      'npm-access-token': `npm_${'a1'.repeat(18)}`,
      'sendgrid-api-token': `SG.${'a'.repeat(22)}.${'b'.repeat(43)}`,
      jwt: 'eyJhbGciOiJIUzI1NiJ9x.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U',
      'authorization-bearer': 'Bearer abcdefghijklmnopqrstuvwxyz012345',
    };
    expect(Object.keys(samples).sort()).toEqual(SECRET_RULES.map((rule) => rule.id).sort());
    for (const [rule, sample] of Object.entries(samples))
      expect(found('secret', `token: ${sample} end`), rule).toEqual([sample]);
    expect(found('secret', 'ghp_short, AKIA123, sk_test_x, bearer token, -----BEGIN PUBLIC KEY-----')).toEqual([]);
  });
  it('every kind has a detector', () => {
    for (const kind of PII_KINDS) expect(builtInDetector(kind).kind).toBe(kind);
  });
  it('overlaps keep the earliest, then the longest finding', () => {
    const detectors = PII_KINDS.map(builtInDetector);
    const findings = findPii('IBAN DE89370400440532013000 mail a@corp.io', detectors);
    expect(findings.map((finding) => [finding.kind, finding.value])).toEqual([
      ['iban', 'DE89370400440532013000'],
      ['email', 'a@corp.io'],
    ]);
  });
});
