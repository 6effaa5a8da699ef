/**
 * Operational logs (not the audit trail): winston, readable lines on a TTY, JSON lines otherwise,
 * on stderr so that stdout carries only the `ready` line a supervisor waits for.
 */
import winston from 'winston';
import type { OperationalLog } from '../log-contract.js';

export function createOperationalLog(
  options: { json?: boolean; level?: string } = {},
): OperationalLog & { close(): void } {
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
  const logger = winston.createLogger({
    level: options.level ?? process.env.GOVFLOW_LOG_LEVEL ?? 'info',
    format,
    transports: [new winston.transports.Stream({ stream: process.stderr })],
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
    close: () => logger.close(),
  };
}
