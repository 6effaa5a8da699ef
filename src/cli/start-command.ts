/** `govflow start`: the daemon in the foreground; SIGINT/SIGTERM stop it gracefully, a second one at once. */
import { GovflowDaemon } from '../daemon/daemon.js';
import { createOperationalLog } from '../daemon/operational-log.js';
import type { CommandDefinition } from './command-context.js';

export const startCommand: CommandDefinition = {
  name: 'start',
  usage: 'govflow start [--root DIR] [--http HOST:PORT]',
  summary: 'run the daemon in the foreground (prints a line with "ready" once the inbox is watched); --http also serves the HTTP API',
  options: { http: { type: 'string' } },
  allowPositionals: false,
  async run({ root, io, values }) {
    const log = createOperationalLog();
    const httpListen = typeof values.http === 'string' ? values.http : undefined;
    const daemon = await GovflowDaemon.start(root, { env: io.env, log, announce: (line) => io.stdout(`${line}\n`), ...(httpListen ? { httpListen } : {}) });
    await new Promise<void>((resolve) => {
      const onSignal = (signal: NodeJS.Signals) => {
        log.info(`received ${signal}`);
        daemon.stop().then(resolve, resolve);
      };
      process.on('SIGINT', onSignal);
      process.on('SIGTERM', onSignal);
    });
    io.stdout('govflow stopped\n');
    log.close();
    return 0;
  },
};
