/** `govflow start`: the daemon in the foreground; SIGINT/SIGTERM stop it gracefully, a second one at once. */
import { GovflowDaemon } from '../daemon/daemon.js';
import { installLastResortHandlers } from '../daemon/last-resort-handlers.js';
import { createOperationalLog } from '../daemon/operational-log.js';
import type { CommandDefinition } from './command-context.js';

export const startCommand: CommandDefinition = {
  name: 'start',
  usage: 'govflow start [--root DIR]',
  summary: 'run the daemon in the foreground (prints a line with "ready" once the inbox is watched)',
  options: {},
  allowPositionals: false,
  async run({ root, io }) {
    const log = createOperationalLog();
    const removeHandlers = installLastResortHandlers(log);
    const daemon = await GovflowDaemon.start(root, { env: io.env, log, announce: (line) => io.stdout(`${line}\n`) });
    await new Promise<void>((resolve) => {
      const onSignal = (signal: NodeJS.Signals) => {
        log.info(`received ${signal}`);
        daemon.stop().then(resolve, resolve);
      };
      process.on('SIGINT', onSignal);
      process.on('SIGTERM', onSignal);
    });
    io.stdout('govflow stopped\n');
    removeHandlers();
    log.close();
    return 0;
  },
};
