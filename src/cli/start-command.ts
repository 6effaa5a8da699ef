/** `govflow start`: the daemon in the foreground; SIGINT/SIGTERM stop it gracefully, a second one at once. */
import { loadConfig } from '../config/config-loader.js';
import { GovflowDaemon } from '../daemon/daemon.js';
import { installLastResortHandlers } from '../daemon/last-resort-handlers.js';
import { createOperationalLog } from '../daemon/operational-log.js';
import { RootLockedError } from '../daemon/root-lock.js';
import type { CommandDefinition } from './command-context.js';
import { describedAs } from './command-list.js';

export const startCommand: CommandDefinition = {
  ...describedAs('start'),
  options: { http: { type: 'string' } },
  allowPositionals: false,
  async run({ root, io, values }) {
    const log = createOperationalLog();
    const removeHandlers = installLastResortHandlers(log);
    let daemon: { stop(): Promise<void> };
    try {
      const httpListen = typeof values.http === 'string' ? values.http : undefined;
      const announce = (line: string) => io.stdout(`${line}\n`);
      if (loadConfig(root, io.env).store.kind === 'postgres') {
        // Cluster mode (SPEC §15): loaded only when configured, like the HTTP server.
        const { ClusterDaemon } = await import('../cluster/cluster-daemon.js');
        daemon = await ClusterDaemon.start(root, { env: io.env, log, announce, ...(httpListen ? { httpListen } : {}) });
      } else {
        daemon = await GovflowDaemon.start(root, { env: io.env, log, announce, ...(httpListen ? { httpListen } : {}) });
      }
    } catch (error) {
      removeHandlers();
      log.close();
      if (!(error instanceof RootLockedError)) throw error;
      // One writer per root (SPEC §8): exit 2 naming the owner's pid.
      io.stderr(`govflow start: ${error.message}\n`);
      return 2;
    }
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
