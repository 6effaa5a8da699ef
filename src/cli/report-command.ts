/** `govflow report`: one day's summary for auditors, as Markdown or HTML (issue 16). */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { isLogDate } from '../audit/audit-log-reader.js';
import { loadConfig } from '../config/config-loader.js';
import { UsageError } from '../errors.js';
import { compactInTimeZone } from '../message/zoned-time.js';
import { renderDayReportHtml, renderDayReportMarkdown } from '../report/day-report-render.js';
import { loadDayReport } from '../report/day-report-source.js';
import type { CommandDefinition } from './command-context.js';

export const reportCommand: CommandDefinition = {
  options: { date: { type: 'string' }, format: { type: 'string' }, out: { type: 'string' } },
  async run({ root, values, io }) {
    const format = (values.format as string | undefined) ?? 'md';
    if (format !== 'md' && format !== 'html' && format !== 'markdown') {
      throw new UsageError(`--format ${format} is not a report format; use --format md or --format html`);
    }
    const config = loadConfig(root, io.env);
    const date = (values.date as string | undefined) ?? compactInTimeZone(new Date(), config.timezone);
    if (!isLogDate(date))
      throw new UsageError(`--date ${date} is not a day; write it as YYYYMMDD, e.g. --date 20260127`);
    const report = await loadDayReport(config.paths, date);
    const text = format === 'html' ? renderDayReportHtml(report) : renderDayReportMarkdown(report);
    for (const warning of report.warnings) io.stderr(`warning: ${warning}\n`);
    const out = values.out as string | undefined;
    if (out) {
      const target = path.resolve(out);
      writeFileSync(target, text);
      io.stderr(`report for ${date} written to ${target}\n`);
    } else io.stdout(text);
    return 0;
  },
};
