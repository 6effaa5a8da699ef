/**
 * The built-in PII detectors: a candidate regex plus a validator (a checksum or a numbering plan).
 * ibantools checks IBANs and libphonenumber-js supplies calling codes, but candidates come from our
 * regexes: both libraries' text scanners are far slower than one regex pass.
 */
import { isIPv4, isIPv6 } from 'node:net';
import { createRequire } from 'node:module';
import { electronicFormatIBAN, isValidIBAN } from 'ibantools';
import { hasCardIssuerPrefix, passesLuhn, passesNricCheck, passesVerhoeff } from './checksums.js';
import { SECRET_PATTERN } from './secret-rules.js';
import { PII_KINDS } from '../config/config-vocabulary.js';

/** The kinds `pii.redact` accepts; the key used in `[PII_REDACTED]` counts. */
export type PiiKind = (typeof PII_KINDS)[number];

/** One value found in a text. */
export interface PiiFinding {
  kind: string;
  start: number;
  end: number;
  value: string;
}

/** A detector: every match of `pattern` (global) that `accept` keeps is a finding of `kind`. */
export interface PiiDetector {
  kind: string;
  pattern: RegExp;
  /** Checksum or plausibility test on the matched text; absent = every match counts. */
  accept?: (match: string) => boolean;
  /** A hand-written search used instead of `pattern` (same matches, faster). */
  find?: (text: string) => Array<[number, number]>;
}

const digitsOnly = (text: string) => text.replace(/\D/g, '');

function acceptCard(match: string): boolean {
  const digits = digitsOnly(match);
  if (digits.length < 13 || digits.length > 19) return false;
  // Separators, when used, must be used alike: "4111 1111 1111 1111", not "41-11 111 1...".
  const separators = new Set(match.replace(/\d/g, ''));
  if (separators.size > 1) return false;
  return hasCardIssuerPrefix(digits) && passesLuhn(digits);
}

function acceptIban(match: string): boolean {
  const electronic = electronicFormatIBAN(match);
  return electronic !== null && isValidIBAN(electronic);
}

/**
 * Country calling codes from libphonenumber's metadata (1, 44, 91, ...), built on the first phone
 * candidate: the library and its metadata (~90 modules) load only where phones are redacted.
 */
let callingCodes: Set<string> | null = null;
function isCallingCode(code: string): boolean {
  if (callingCodes === null) {
    const { getCountries, getCountryCallingCode } = createRequire(import.meta.url)(
      'libphonenumber-js/min',
    ) as typeof import('libphonenumber-js/min');
    callingCodes = new Set(getCountries().map((country) => getCountryCallingCode(country) as string));
  }
  return callingCodes.has(code);
}

/**
 * A real calling code and an E.164 length (a valid area code and exchange for NANP). Not
 * libphonenumber's full check: ~0.1–0.2 ms per candidate held throughput under 5 MB/s.
 */
function acceptPhone(match: string): boolean {
  const digits = digitsOnly(match);
  if (digits.length < 8 || digits.length > 15) return false;
  if (/^(\d)\1+$/.test(digits)) return false; // a run of one repeated digit
  if (!match.startsWith('+')) return NANP_NUMBER.test(digits);
  for (let length = 1; length <= 3; length++) {
    const code = digits.slice(0, length);
    if (!isCallingCode(code)) continue;
    const national = digits.slice(length);
    if (code === '1') return NANP_NUMBER.test(national);
    return national.length >= 6 && national.length <= 13;
  }
  return false;
}

/** North American Numbering Plan: area code and exchange start with 2-9, N11 codes excluded. */
const NANP_NUMBER = /^(?!\d11)[2-9]\d{2}(?!\d11)[2-9]\d{6}$/;

function acceptNationalId(match: string): boolean {
  if (/^[STFG]\d{7}[A-Z]$/.test(match)) return passesNricCheck(match);
  if (/^\d{4}[ -]\d{4}[ -]\d{4}$/.test(match)) {
    if (match[4] !== match[9]) return false;
    return passesVerhoeff(digitsOnly(match));
  }
  return true; // SSN and NINO: the regex holds every rule they have
}

function acceptIp(match: string): boolean {
  // An IPv6 candidate needs a digit: "A::B" (C++ scope) is valid IPv6 syntax but never an address here.
  return match.includes(':') ? /\d/.test(match) && isIPv6(match) : isIPv4(match);
}

const EMAIL_DOMAIN = String.raw`[A-Za-z0-9](?:[A-Za-z0-9-]{0,62}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,62}[A-Za-z0-9])?)*\.[A-Za-z]{2,24}(?![\w-])`;
const EMAIL_DOMAIN_AT = new RegExp(EMAIL_DOMAIN, 'y');

/** [A-Za-z0-9._%+-]: characters of an email's local part (and of what may not precede it). */
function isLocalPartChar(code: number): boolean {
  return (
    (code >= 97 && code <= 122) ||
    (code >= 65 && code <= 90) ||
    (code >= 48 && code <= 57) ||
    code === 46 ||
    code === 95 ||
    code === 37 ||
    code === 43 ||
    code === 45
  );
}

function isAlphanumeric(code: number): boolean {
  return (code >= 97 && code <= 122) || (code >= 65 && code <= 90) || (code >= 48 && code <= 57);
}

/** Every email in `text`, found from its "@": the local part leftwards, the domain rightwards. */
function findEmails(text: string): Array<[number, number]> {
  const spans: Array<[number, number]> = [];
  for (let at = text.indexOf('@'); at !== -1; at = text.indexOf('@', at + 1)) {
    let start = at;
    while (start > 0 && at - start < 64 && isLocalPartChar(text.charCodeAt(start - 1))) start--;
    if (
      start === at ||
      (start > 0 && isLocalPartChar(text.charCodeAt(start - 1))) ||
      !isAlphanumeric(text.charCodeAt(start))
    )
      continue;
    EMAIL_DOMAIN_AT.lastIndex = at + 1;
    const domain = EMAIL_DOMAIN_AT.exec(text);
    if (!domain) continue;
    spans.push([start, at + 1 + domain[0].length]);
    at += domain[0].length;
  }
  return spans;
}

const OCTET = '(?:25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)';

/** Sources of the built-in detectors, one per kind (alternatives inside one kind share a pass). */
const SOURCES: Record<
  PiiKind,
  { pattern: string; accept?: (match: string) => boolean; find?: (text: string) => Array<[number, number]> }
> = {
  email: {
    // RFC 5321 in practice: dot-atom local part, a domain with a letter TLD (so "pkg@1.2.3" is not one).
    // Searched from each "@" by findEmails (a regex that must try every word start is 10× slower).
    pattern: String.raw`(?<![\w.%+-])[A-Za-z0-9][A-Za-z0-9._%+-]{0,63}@${EMAIL_DOMAIN}`,
    find: findEmails,
  },
  phone: {
    // International "+CC ..." or North American "(212) 555-0143" / "212-555-0143" / "212.555.0143".
    pattern:
      String.raw`(?<![\w+.-])(?:\+[1-9]\d{0,2}(?:[ .-]?\(\d{1,4}\))?(?:[ .-]?\d{6,14}|(?:[ .-]\d{1,8}){2,6})` +
      String.raw`|(?:\(\d{3}\) ?|\d{3}[-.])\d{3}[-.]\d{4})(?![\w-]|\.\d)`,
    accept: acceptPhone,
  },
  credit_card: {
    pattern: String.raw`(?<![\d.-])\d(?:[ -]?\d){12,18}(?![\d-]|\.\d)`,
    accept: acceptCard,
  },
  iban: {
    pattern: String.raw`\b[A-Z]{2}\d{2}(?: ?[A-Z0-9]{4}){2,7}(?: ?[A-Z0-9]{1,3})?\b`,
    accept: acceptIban,
  },
  national_id: {
    // US SSN (no 000/666/9xx area, 00 group, 0000 serial); UK NINO (HMRC prefix rules);
    // Aadhaar printed 4-4-4 (Verhoeff); Singapore NRIC/FIN (check letter).
    pattern: [
      String.raw`(?<![\d-])(?!000|666|9\d\d)\d{3}-(?!00)\d{2}-(?!0000)\d{4}(?![\d-])`,
      String.raw`\b(?!BG|GB|NK|KN|TN|NT|ZZ)[A-CEGHJ-PR-TW-Z][A-CEGHJ-NPR-TW-Z] ?\d{2} ?\d{2} ?\d{2} ?[A-D]\b`,
      String.raw`(?<!\d[ -]?)[2-9]\d{3}[ -]\d{4}[ -]\d{4}(?![ -]?\d)`,
      String.raw`\b[STFG]\d{7}[A-Z]\b`,
    ].join('|'),
    accept: acceptNationalId,
  },
  ip_address: {
    pattern: `(?<![\\w.:])${OCTET}(?:\\.${OCTET}){3}(?!\\w|\\.\\d)|(?<![\\w:.])(?:[0-9A-Fa-f]{0,4}:){2,7}[0-9A-Fa-f]{0,4}(?![\\w:.])`,
    accept: acceptIp,
  },
  secret: { pattern: SECRET_PATTERN },
};

/** A fresh detector for one built-in kind (regexes are stateful with `g`: one per user). */
export function builtInDetector(kind: PiiKind): PiiDetector {
  const source = SOURCES[kind];
  return {
    kind,
    pattern: new RegExp(source.pattern, 'g'),
    ...(source.accept ? { accept: source.accept } : {}),
    ...(source.find ? { find: source.find } : {}),
  };
}

/** `text` with each finding (in order, not overlapping) replaced by `replacement(finding)`. */
export function replaceFindings(
  text: string,
  findings: readonly PiiFinding[],
  replacement: (finding: PiiFinding) => string,
): string {
  let result = '';
  let position = 0;
  for (const finding of findings) {
    result += text.slice(position, finding.start) + replacement(finding);
    position = finding.end;
  }
  return result + text.slice(position);
}

/** Every finding of every detector in `text`, overlaps resolved: earliest start, then longest. */
export function findPii(text: string, detectors: readonly PiiDetector[]): PiiFinding[] {
  const found: PiiFinding[] = [];
  for (const detector of detectors) {
    if (detector.find) {
      for (const [start, end] of detector.find(text)) {
        const value = text.slice(start, end);
        if (!detector.accept || detector.accept(value)) found.push({ kind: detector.kind, start, end, value });
      }
      continue;
    }
    const pattern = detector.pattern;
    pattern.lastIndex = 0;
    for (let match = pattern.exec(text); match !== null; match = pattern.exec(text)) {
      const value = match[0];
      if (value.length === 0) {
        pattern.lastIndex++;
        continue;
      }
      if (detector.accept && !detector.accept(value)) continue;
      found.push({ kind: detector.kind, start: match.index, end: match.index + value.length, value });
    }
  }
  if (found.length < 2) return found;
  found.sort((a, b) => a.start - b.start || b.end - a.end);
  const kept: PiiFinding[] = [];
  let reached = -1;
  for (const finding of found) {
    if (finding.start < reached) continue;
    kept.push(finding);
    reached = finding.end;
  }
  return kept;
}
