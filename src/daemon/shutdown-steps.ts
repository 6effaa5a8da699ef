/** A daemon's shutdown: its steps in order; a step that fails is logged and the next one runs. */
import { errorMessage } from '../errors.js';
import type { OperationalLog } from '../pipeline/runner-contract.js';

export type ShutdownStep = readonly [name: string, step: () => unknown];

export async function runShutdownSteps(steps: readonly ShutdownStep[], log: OperationalLog, describe: (error: unknown) => string = errorMessage): Promise<void> {
  for (const [name, step] of steps) {
    try {
      await step();
    } catch (error) {
      log.error(`shutdown: ${name} failed to close`, { error: describe(error) });
    }
  }
}
