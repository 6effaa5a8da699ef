/** `govflow start`: the daemon in the foreground; SIGINT/SIGTERM stop it gracefully, a second one at once. */
import { setFlagsFromString } from 'node:v8';
import { GovflowDaemon } from '../daemon/daemon.js';
import { installLastResortHandlers } from '../daemon/last-resort-handlers.js';
import { createOperationalLog } from '../daemon/operational-log.js';
import type { CommandDefinition } from './command-context.js';
import { startingWrapper, watchParent } from './wrapper-watch.js';
import { setRunTimeMemoryFlag } from './daemon-node-flags.js';

export const startCommand: CommandDefinition = {
  options: { http: { type: 'string' } },
  async run({ root, io, values }) {
    // bin/govflow.js already restarted Node with the memory flags where Node can; a user who gave
    // either chose the runtime (docs/deploy.md).
    setRunTimeMemoryFlag(setFlagsFromString);
    const log = createOperationalLog();
    const removeHandlers = installLastResortHandlers(log);
    // Signals are handled from the first moment: one that comes while the daemon starts (or just
    // after its ready line) stops it gracefully once it is up, instead of killing the process.
    let daemon: { stop(): Promise<void> } | null = null;
    let signalled = false;
    let stopped = () => {};
    const done = new Promise<void>((resolve) => (stopped = resolve));
    const onSignal = (signal: NodeJS.Signals) => {
      log.info(`received ${signal}`);
      if (daemon === null && signalled) {
        // A second one while starting: at once, as a killed process (nothing is lost: README "CLI: killed runs, exit codes, retries").
        log.warn('a second signal while starting: exiting at once');
        process.exit(1);
      }
      signalled = true;
      daemon?.stop().then(stopped, stopped);
    };
    process.on('SIGINT', onSignal);
    process.on('SIGTERM', onSignal);
    // Under npm or npx a SIGTERM to the wrapper never reaches this process (wrapper-watch.ts): its exit stops the daemon.
    const wrapper = startingWrapper(io.env);
    const stopWatching =
      wrapper === null
        ? () => {}
        : watchParent((parentPid) => {
            log.info(`the process that started govflow (${wrapper}, pid ${parentPid}) has exited: stopping`);
            if (signalled) return; // already stopping
            signalled = true;
            daemon?.stop().then(stopped, stopped);
          });
    const removeSignalHandlers = () => {
      stopWatching();
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
    };
    try {
      const httpListen = typeof values.http === 'string' ? values.http : undefined;
      const announce = (line: string) => {
        log.flush(); // the lines logged before it come before it
        io.stdout(`${line}\n`);
      };
      daemon = await GovflowDaemon.start(root, { env: io.env, log, announce, ...(httpListen ? { httpListen } : {}) });
    } catch (error) {
      removeSignalHandlers();
      removeHandlers();
      log.close();
      // One writer per root (docs/exit-codes.md): a RootLockedError is a usage error, exit 2 naming the owner's pid.
      throw error;
    }
    if (signalled) daemon.stop().then(stopped, stopped);
    await done;
    removeSignalHandlers();
    log.flush();
    io.stdout('govflow stopped\n');
    removeHandlers();
    log.close();
    // Stopped: a handle a step left behind past its time (docs/deploy.md) does not keep the process alive.
    setTimeout(() => process.exit(), 1000).unref();
    return 0;
  },
};
