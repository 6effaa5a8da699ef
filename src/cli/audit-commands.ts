/** `govflow logs` and `govflow verify`: the auditor's commands over system/logs. */
import { logsCommand } from '../audit/logs-command.js';
import { verifyCommand } from '../audit/verify-command.js';
import { systemPaths } from '../config/system-paths.js';
import type { CommandDefinition } from './command-context.js';

export const logsCliCommand: CommandDefinition = {
  name: 'logs',
  usage: 'govflow logs [--date YYYYMMDD] [--session S] [--agent A] [--status C] [--json] [--root DIR]',
  summary: 'read audit entries back, filtered',
  options: {
    date: { type: 'string' },
    session: { type: 'string' },
    agent: { type: 'string' },
    status: { type: 'string' },
    json: { type: 'boolean' },
  },
  allowPositionals: false,
  run({ root, values, io }) {
    return logsCommand({
      logsDir: systemPaths(root).logs,
      date: values.date as string | undefined,
      session: values.session as string | undefined,
      agent: values.agent as string | undefined,
      status: values.status as string | undefined,
      json: values.json === true,
      write: io.stdout,
    });
  },
};

export const verifyCliCommand: CommandDefinition = {
  name: 'verify',
  usage: 'govflow verify [--root DIR]',
  summary: 'check the hash chain of all audit logs; names the first bad entry (exit 0 intact, 1 not)',
  options: {},
  allowPositionals: false,
  run({ root, io }) {
    const paths = systemPaths(root);
    return verifyCommand({ logsDir: paths.logs, stateDir: paths.state, write: io.stdout });
  },
};
