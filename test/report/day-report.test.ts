import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { buildDayReport } from '../../src/report/day-report.js';
import { renderDayReportHtml, renderDayReportMarkdown } from '../../src/report/day-report-render.js';
import { loadDayReport } from '../../src/report/day-report-source.js';
import { systemPaths } from '../../src/config/system-paths.js';
import {
  TWO_TASKS,
  agentMessage,
  exampleRoot,
  happyResponses,
  logFiles,
  makeTempDir,
  readResult,
  removeTempDirs,
  runCli,
  runRequest,
  scripted,
} from '../pipeline/pipeline-test-helpers.js';

afterEach(removeTempDirs);

const OUT_OF_SCOPE = agentMessage({
  content: null,
  contentType: 'objectives',
  status: 'failed',
  message: 'The request is out of scope',
  error: { code: 'OUT_OF_SCOPE', message: 'video <editing> is not supported' },
});

/** A root with a day of three sessions: one clean success, one with a compliance flag, one failed. */
async function dayWithSessions(): Promise<{ root: string; date: string; ids: Record<string, string> }> {
  const root = exampleRoot();
  const clean = await runRequest(root, scripted(happyResponses(TWO_TASKS)), 'Summarize: Ana sends the budget.', {
    requestId: 'req-clean',
  });
  const flaggedResponses = happyResponses(TWO_TASKS);
  flaggedResponses.objective_agent = [
    agentMessage({
      content: ['Summarize the note'],
      contentType: 'objectives',
      next: 'goal_agent',
      files: ['context/not-in-the-prompt.md'],
    }),
  ];
  const flagged = await runRequest(root, scripted(flaggedResponses), 'Summarize: Raj books the venue.', {
    requestId: 'req-flagged',
  });
  const failed = await runRequest(
    root,
    scripted({ objective_agent: [{ text: OUT_OF_SCOPE, usage: { input_tokens: 1000, output_tokens: 200 } }] }),
    'Edit my video.',
    { requestId: 'req-failed' },
  );
  const [file] = logFiles(root);
  return {
    root,
    date: file.slice(0, 8),
    ids: { clean: clean.sessionId, flagged: flagged.sessionId, failed: failed.sessionId },
  };
}

describe('day report', () => {
  it('summarizes a real day: sessions by status, agents, failures with reasons, compliance flags, cost, verify', async () => {
    const { root, date, ids } = await dayWithSessions();
    const report = await loadDayReport(systemPaths(root), date);
    expect(report.date).toBe(date);
    expect(report.sessions.map((session) => session.sessionId)).toEqual([ids.clean, ids.flagged, ids.failed]);
    expect(report.byStatus).toEqual({ success: 2, failed: 1 });
    expect(report.sessions.find((session) => session.sessionId === ids.failed)).toMatchObject({
      requestId: 'req-failed',
      status: 'failed',
      messages: 1,
      agents: ['objective_agent'],
    });
    expect(report.entries).toBe(13);
    expect(report.agents.find((agent) => agent.agent === 'objective_agent')).toEqual({
      agent: 'objective_agent',
      messages: 3,
      byStatus: { success: 2, failed: 1 },
    });
    expect(report.failures).toEqual([
      expect.objectContaining({
        sessionId: ids.failed,
        agent: 'objective_agent',
        sequence: 1,
        code: 'OUT_OF_SCOPE',
        reason: 'video <editing> is not supported',
      }),
    ]);
    expect(report.flags).toHaveLength(1);
    // The SPEC §6 line; the older [COMPLIANCE VIOLATIONS] line beside it is not counted twice.
    expect(report.flags[0]).toMatchObject({ sessionId: ids.flagged, agent: 'objective_agent', kind: 'VIOLATIONS' });
    expect(report.flags[0].detail).toContain('not-in-the-prompt.md');
    expect(report.cost.sessionsWithoutResult).toBe(0);
    const results = ['req-clean', 'req-flagged', 'req-failed'].map((id) => readResult(root, id));
    expect(report.cost.inputTokens).toBe(results.reduce((sum, result) => sum + result.usage.input_tokens, 0));
    expect(report.cost.inputTokens).toBeGreaterThanOrEqual(1000);
    expect(report.cost.usd).toBeGreaterThan(0);
    expect(report.cost.usd).toBeCloseTo(
      results.reduce((sum, result) => sum + result.usage.cost_usd, 0),
      6,
    );
    expect(report.verify).toMatchObject({ ok: true, firstBadEntry: null });
    expect(report.verify.summary).toBe('audit chain intact: 13 entries in 1 file');

    const markdown = renderDayReportMarkdown(report);
    expect(markdown).toContain(`# govflow day report ${date}`);
    expect(markdown).toContain('| success | 2 |');
    expect(markdown).toContain('| failed | 1 |');
    expect(markdown).toContain('OUT_OF_SCOPE');
    expect(markdown).toContain('not-in-the-prompt.md');
    const html = renderDayReportHtml(report);
    expect(html).toContain('video &#60;editing&#62; is not supported');
    expect(html).not.toContain('<editing>');
  });

  it('says "verify failed" and names the first bad entry when the day was tampered with', async () => {
    const { root, date } = await dayWithSessions();
    const logFile = path.join(root, 'system', 'logs', `${date}.log`);
    const text = readFileSync(logFile, 'utf8');
    writeFileSync(logFile, text.replace('[AGENT: goal_agent]', '[AGENT: goal_agenT]'));
    const tamperedLine = text.split('\n').findIndex((line) => line === '[AGENT: goal_agent]');
    const report = await loadDayReport(systemPaths(root), date);
    expect(report.verify.ok).toBe(false);
    expect(report.verify.summary).toMatch(
      new RegExp(`^verify failed: first bad entry at ${date}\\.log:\\d+ \\(message_id [0-9a-f-]+\\): hash mismatch`),
    );
    expect(report.verify.firstBadEntry).not.toBeNull();
    // The bad entry starts a line or two before its AGENT line.
    expect(report.verify.firstBadEntry!.line).toBeLessThanOrEqual(tamperedLine + 1);
    expect(report.verify.firstBadEntry!.line).toBeGreaterThan(tamperedLine - 3);
    expect(renderDayReportMarkdown(report)).toContain('**Verify:** verify failed: first bad entry at');
    expect(renderDayReportHtml(report)).toContain('verify failed');
  });

  it('govflow report writes Markdown to stdout, HTML with --out, and rejects a bad date or format with exit 2', async () => {
    const { root, date, ids } = await dayWithSessions();
    const markdown = await runCli(['report', '--root', root, '--date', date]);
    expect(markdown.code).toBe(0);
    expect(markdown.stdout).toContain(ids.failed);
    expect(markdown.stdout).toContain('## Compliance flags');
    const out = path.join(makeTempDir('govflow-report-'), 'day.html');
    const html = await runCli(['report', '--root', root, '--date', date, '--format', 'html', '--out', out]);
    expect(html.code).toBe(0);
    expect(html.stdout).toBe('');
    expect(readFileSync(out, 'utf8')).toMatch(/^<!doctype html>[\s\S]*Sessions by status[\s\S]*<\/html>\n$/);
    const badDate = await runCli(['report', '--root', root, '--date', '2026-01-27']);
    expect(badDate.code).toBe(2);
    expect(badDate.stderr).toContain('write it as YYYYMMDD');
    const badFormat = await runCli(['report', '--root', root, '--date', date, '--format', 'pdf']);
    expect(badFormat.code).toBe(2);
    expect(badFormat.stderr).toContain('--format md or --format html');
    const emptyDay = await runCli(['report', '--root', root, '--date', '20200101']);
    expect(emptyDay.code).toBe(0);
    expect(emptyDay.stdout).toContain('No session logged an entry this day.');
  });

  it('is a pure function of entries, verify result and sessions (what the web view reuses)', () => {
    const entry = {
      file: '20260127.log',
      line: 1,
      time: '10:00:00',
      agent: 'objective_agent',
      status: { code: 'success', message: 'ok' },
      error: null,
      messageId: 'm1',
      sessionId: 's1',
      requestId: 'r1',
      sequence: 1,
      complianceViolations: [],
      hash: 'h',
      body: '[TIMESTAMP: 10:00:00]\n[GUARDRAILS]: [{"rule":"english-only","action":"retry"}]\n[PII_REDACTED]: {"email":2}',
    };
    const report = buildDayReport({
      date: '20260127',
      entries: [entry],
      verify: { ok: true, files: 1, entries: 1, warnings: [] },
      sessions: [],
    });
    expect(report.sessions[0]).toMatchObject({ sessionId: 's1', status: 'unknown', usage: null });
    expect(report.cost.sessionsWithoutResult).toBe(1);
    expect(report.flags.map((flag) => flag.kind)).toEqual(['GUARDRAILS', 'PII_REDACTED']);
  });
});
