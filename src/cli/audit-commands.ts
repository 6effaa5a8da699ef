/** `govflow logs` and `govflow verify`: the auditor's commands over system/logs. */
import { logsCommand } from '../audit/logs-command.js';
import { verifyCommand } from '../audit/verify-command.js';
import { systemPaths } from '../config/system-paths.js';
import type { CommandDefinition } from './command-context.js';
import { describedAs } from './command-list.js';

export const logsCliCommand: CommandDefinition = {
  ...describedAs('logs'),
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
  ...describedAs('verify'),
  options: {},
  allowPositionals: false,
  run({ root, io }) {
    const paths = systemPaths(root);
    return verifyCommand({ logsDir: paths.logs, stateDir: paths.state, write: io.stdout });
  },
};
