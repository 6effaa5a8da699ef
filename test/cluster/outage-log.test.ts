/** One warning per store outage, not one per retry (src/cluster/outage-log.ts). */
import { describe, expect, it } from 'vitest';
import { OutageLog } from '../../src/cluster/outage-log.js';

describe('OutageLog', () => {
  it('warns once per outage and kind, says when the work goes on again, and never prints credentials', () => {
    const lines: Array<[string, string, Record<string, unknown> | undefined]> = [];
    const log = {
      info: (message: string, fields?: Record<string, unknown>) => lines.push(['info', message, fields]),
      warn: (message: string, fields?: Record<string, unknown>) => lines.push(['warn', message, fields]),
      error: (message: string, fields?: Record<string, unknown>) => lines.push(['error', message, fields]),
    };
    const outages = new OutageLog(log);
    outages.succeeded('claim work from the store');
    expect(lines).toEqual([]);
    for (let attempt = 0; attempt < 5; attempt++)
      outages.failed('claim work from the store', new Error('connect to postgres://app:s3cret@db:5432/x refused'));
    outages.failed('write results to the outbox', new Error('ECONNRESET'));
    expect(lines.map(([level, message]) => `${level} ${message}`)).toEqual([
      'warn cannot claim work from the store; retrying (one warning per outage)',
      'warn cannot write results to the outbox; retrying (one warning per outage)',
    ]);
    expect(JSON.stringify(lines)).not.toContain('s3cret');
    outages.succeeded('claim work from the store');
    expect(lines.at(-1)).toEqual(['info', 'can claim work from the store again', { failed_attempts: 5 }]);
    outages.failed('claim work from the store', new Error('down again'));
    expect(lines.at(-1)?.[1]).toBe('cannot claim work from the store; retrying (one warning per outage)');
  });
});
