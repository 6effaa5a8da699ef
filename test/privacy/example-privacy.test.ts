/** The privacy example (examples/privacy/) runs as its README says and shows its redactions. */
import { cpSync, readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { REPOSITORY_ROOT, makeTempDir, removeTempDirs, runCli } from '../pipeline/pipeline-test-helpers.js';

afterEach(removeTempDirs);

describe('examples/privacy', () => {
  it('validates, runs with the scripted model, and keeps PII out of its result and log', async () => {
    const root = makeTempDir('govflow-privacy-example-');
    cpSync(path.join(REPOSITORY_ROOT, 'examples', 'privacy'), root, { recursive: true });
    expect((await runCli(['validate', '--root', root])).code).toBe(0);
    const run = await runCli(['run', path.join(root, 'request.json'), '--root', root, '--json']);
    expect(run.code).toBe(0);
    const result = JSON.parse(run.stdout) as { status: string; output: { reply: string } };
    expect(result.status).toBe('success');
    expect(result.output.reply).toContain('card [CREDIT_CARD_1]');
    expect(result.output.reply).toContain('email [EMAIL_1]');
    const logs = path.join(root, 'system', 'logs');
    const log = readdirSync(logs)
      .filter((name) => name.endsWith('.log'))
      .map((name) => readFileSync(path.join(logs, name), 'utf8'))
      .join('');
    expect(log).toContain('[INPUT]: Hi, my card [CREDIT_CARD_1] was blocked');
    expect(log).toContain('[PII_REDACTED]: {"credit_card":1,"email":2,"phone":1,"customer_id":1}');
    for (const original of ['4111 1111 1111 1111', 'jane.doe@example.com', '+44 20 7946 0958', 'CUST-204518']) {
      expect(log).not.toContain(original);
      expect(run.stdout + run.stderr).not.toContain(original);
    }
  });
});
