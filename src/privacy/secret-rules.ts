/**
 * Secret patterns from gitleaks' default rule set (config/gitleaks.toml, gitleaks v8), under its
 * rule ids, translated from Go RE2 (no `(?i)` groups; the keyword prefilter and entropy thresholds
 * replaced by the literal prefixes the regexes require). `authorization-bearer` is ours: gitleaks
 * has none for a bare `Bearer <token>`, which README "Privacy and guardrails" lists as a secret.
 */

/** Each rule's gitleaks id (or ours) and JavaScript pattern source, used with the `g` flag. */
export const SECRET_RULES: ReadonlyArray<{ id: string; pattern: string }> = [
  {
    id: 'private-key',
    pattern: String.raw`-----BEGIN[ A-Z0-9_-]{0,100}PRIVATE KEY(?: BLOCK)?-----[\s\S]{64,}?-----END[ A-Z0-9_-]{0,100}PRIVATE KEY(?: BLOCK)?-----`,
  },
  { id: 'aws-access-token', pattern: String.raw`\b(?:A3T[A-Z0-9]|AKIA|ASIA|ABIA|ACCA)[A-Z2-7]{16}\b` },
  { id: 'github-fine-grained-pat', pattern: String.raw`\bgithub_pat_\w{82}\b` },
  { id: 'github-pat', pattern: String.raw`\bghp_[0-9a-zA-Z]{36}\b` },
  { id: 'github-oauth', pattern: String.raw`\bgho_[0-9a-zA-Z]{36}\b` },
  { id: 'github-app-token', pattern: String.raw`\b(?:ghu|ghs)_[0-9a-zA-Z]{36}\b` },
  { id: 'github-refresh-token', pattern: String.raw`\bghr_[0-9a-zA-Z]{36}\b` },
  { id: 'gitlab-pat', pattern: String.raw`\bglpat-[\w-]{20}\b` },
  { id: 'slack-bot-token', pattern: String.raw`\bxoxb-[0-9]{10,13}-[0-9]{10,13}[a-zA-Z0-9-]*` },
  { id: 'slack-user-token', pattern: String.raw`\bxox[pe](?:-[0-9]{10,13}){3}-[a-zA-Z0-9-]{28,34}` },
  { id: 'slack-app-token', pattern: String.raw`\bxapp-\d-[A-Z0-9]+-\d+-[a-z0-9]+` },
  { id: 'stripe-access-token', pattern: String.raw`\b(?:sk|rk)_(?:test|live|prod)_[a-zA-Z0-9]{10,99}\b` },
  { id: 'anthropic-api-key', pattern: String.raw`\bsk-ant-(?:api03|admin01)-[a-zA-Z0-9_-]{93}AA\b` },
  {
    id: 'openai-api-key',
    pattern:
      String.raw`\bsk-(?:proj|svcacct|admin)-(?:[A-Za-z0-9_-]{74}|[A-Za-z0-9_-]{58})T3BlbkFJ(?:[A-Za-z0-9_-]{74}|[A-Za-z0-9_-]{58})\b` +
      String.raw`|\bsk-[a-zA-Z0-9]{20}T3BlbkFJ[a-zA-Z0-9]{20}\b`,
  },
  { id: 'gcp-api-key', pattern: String.raw`\bAIza[\w-]{35}(?![\w-])` },
  { id: 'npm-access-token', pattern: String.raw`\bnpm_[a-zA-Z0-9]{36}\b` },
  { id: 'sendgrid-api-token', pattern: String.raw`\bSG\.[a-zA-Z0-9=_-]{22}\.[a-zA-Z0-9=_-]{43}\b` },
  { id: 'jwt', pattern: String.raw`\bey[a-zA-Z0-9]{17,}\.ey[a-zA-Z0-9/_-]{17,}\.(?:[a-zA-Z0-9/_-]{10,}={0,2})?` },
  { id: 'authorization-bearer', pattern: String.raw`\b[Bb]earer[ \t]+[A-Za-z0-9._~+/-]{20,}=*` },
];

/** Every rule as one alternation: one pass over the text instead of one per rule. */
export const SECRET_PATTERN = SECRET_RULES.map((rule) => `(?:${rule.pattern})`).join('|');
