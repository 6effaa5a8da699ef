import { describe, expect, it } from 'vitest';
import { complianceViolations } from '../../src/message/compliance-violations.js';
import { makeMessage } from '../audit/audit-test-helpers.js';

const PROMPT = ['governance/audit.md', 'governance/message_format.md', 'context/application.md'];

function withAudit(compliance_notes: string | null, governance_files_consulted: string[] | null) {
  return makeMessage({ audit: { compliance_notes, governance_files_consulted } });
}

describe('complianceViolations', () => {
  it('accepts notes and files that were in the prompt, by path or unambiguous basename', () => {
    expect(
      complianceViolations(
        withAudit('ok per audit.md', ['context/application.md', 'audit.md', './governance/message_format.md']),
        PROMPT,
      ),
    ).toEqual([]);
    expect(complianceViolations(withAudit('ok', []), PROMPT)).toEqual([]);
  });

  it('flags missing audit data', () => {
    expect(complianceViolations(withAudit(null, ['audit.md']), PROMPT)).toEqual([
      expect.stringMatching(/compliance_notes is null/),
    ]);
    expect(complianceViolations(withAudit('  ', ['audit.md']), PROMPT)).toEqual([
      expect.stringMatching(/compliance_notes is empty/),
    ]);
    expect(complianceViolations(withAudit('ok', null), PROMPT)).toEqual([
      expect.stringMatching(/governance_files_consulted is null/),
    ]);
    expect(complianceViolations(withAudit(null, null), PROMPT)).toHaveLength(2);
  });

  it('flags files that were not in the prompt', () => {
    expect(
      complianceViolations(withAudit('ok', ['audit.md', 'governance/secrets.md', 'other/audit.md']), PROMPT),
    ).toEqual([
      'governance_files_consulted names "governance/secrets.md", which was not in this agent\'s prompt',
      'governance_files_consulted names "other/audit.md", which was not in this agent\'s prompt',
    ]);
  });

  it('flags a basename that matches more than one prompt file', () => {
    const prompt = ['governance/audit.md', 'context/audit.md'];
    expect(complianceViolations(withAudit('ok', ['audit.md', 'context/audit.md']), prompt)).toEqual([
      expect.stringMatching(
        /"audit.md", which matches several prompt files \(governance\/audit.md, context\/audit.md\)/,
      ),
    ]);
  });
});
