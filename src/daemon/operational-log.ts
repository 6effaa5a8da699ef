/**
 * Operational logs (not the audit trail): winston, readable lines on a TTY, JSON lines otherwise,
 * on stderr so that stdout carries only the `ready` line a supervisor waits for.
 */
import winston from 'winston';
import TransportStream from 'winston-transport';
import type { OperationalLog } from '../log-contract.js';

const MESSAGE = Symbol.for('message');

/**
 * Formatted lines to stderr, one write per turn of the event loop: a burst of sessions logs
 * thousands of lines, and each write to a pipe wakes its reader. What is left is written by
 * `flush` (before stdout's `ready` and `stopped` lines, so the two streams keep their order) and at exit.
 */
class StderrLines extends TransportStream {
  private lines: string[] = [];
  private scheduled = false;
  private readonly atExit = () => this.flush();

  constructor() {
    super();
    process.once('exit', this.atExit);
  }

  override log(info: Record<symbol, unknown>, next: () => void): void {
    this.lines.push(`${String(info[MESSAGE])}\n`);
    if (!this.scheduled) {
      this.scheduled = true;
      setImmediate(() => this.flush());
    }
    next();
  }

  flush(): void {
    this.scheduled = false;
    if (this.lines.length === 0) return;
    const text = this.lines.join('');
    this.lines = [];
    process.stderr.write(text);
  }

  override close(): void {
    this.flush();
    process.off('exit', this.atExit);
  }
}

export function createOperationalLog(
  options: { json?: boolean; level?: string } = {},
): OperationalLog & { close(): void; flush(): void } {
  const json = options.json ?? !process.stderr.isTTY;
  const format = json
    ? winston.format.combine(winston.format.timestamp(), winston.format.json())
    : winston.format.combine(
        winston.format.timestamp({ format: 'HH:mm:ss' }),
        winston.format.printf(({ timestamp, level, message, ...fields }) => {
          const extra = Object.entries(fields)
            .map(([key, value]) => `${key}=${typeof value === 'string' ? value : JSON.stringify(value)}`)
            .join(' ');
          return `${String(timestamp)} ${level.padEnd(5)} ${String(message)}${extra ? `  ${extra}` : ''}`;
        }),
      );
  const lines = new StderrLines();
  const logger = winston.createLogger({
    level: options.level ?? process.env.GOVFLOW_LOG_LEVEL ?? 'info',
    format,
    transports: [lines],
  });
  return {
    // winston builds and formats an entry before it drops one below its level: per-step detail
    // is asked for on every step, so it is checked here first.
    debug: (message, fields) => {
      if (logger.isDebugEnabled()) logger.debug(message, fields);
    },
    info: (message, fields) => logger.info(message, fields),
    warn: (message, fields) => logger.warn(message, fields),
    error: (message, fields) => logger.error(message, fields),
    flush: () => lines.flush(),
    close: () => {
      lines.close();
      logger.close();
    },
  };
}
