/**
 * Structured JSON logging through pino. One logger per server; components take child loggers.
 */
import { pino, type Logger } from 'pino';

export type { Logger };

/** Log levels accepted by `--log-level`. */
export const LogLevels = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
/** One of `LogLevels`. */
export type LogLevel = (typeof LogLevels)[number];

/** A pino logger writing JSON lines to `destination` (stdout by default). */
export function createLogger(level: LogLevel = 'info', destination?: NodeJS.WritableStream): Logger {
  return pino({ name: 'mayfly', level, base: { pid: process.pid } }, destination ?? pino.destination({ sync: true }));
}
