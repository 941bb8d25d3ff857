/**
 * The command line: `mayfly [--port 27017] [--host 127.0.0.1] [--compat cosmos|mongodb] ...`.
 * Starts a server on the in-memory store and closes it cleanly on SIGINT/SIGTERM.
 */
import { Command, InvalidArgumentError, Option } from 'commander';
import { Server } from './server/server.js';
import { CompatModes, type CompatMode } from './server/services.js';
import { LogLevels, type LogLevel } from './logger.js';
import { ClockModes, type ClockMode } from './ttl/clock.js';
import { MAYFLY_VERSION } from './version.js';

function parsePort(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0 || n > 65535) throw new InvalidArgumentError('must be an integer from 0 to 65535.');
  return n;
}

function collectParameter(value: string, previous: Record<string, unknown>): Record<string, unknown> {
  const eq = value.indexOf('=');
  if (eq <= 0) throw new InvalidArgumentError('must be name=value.');
  return { ...previous, [value.slice(0, eq)]: value.slice(eq + 1) };
}

/** The CLI program (exported for tests). */
export function buildProgram(): Command {
  return new Command('mayfly')
    .description('A MongoDB-compatible in-memory database server with Cosmos DB, MongoDB and Tablestore TTL')
    .version(MAYFLY_VERSION)
    .addOption(new Option('--port <port>', 'TCP port to listen on (0 = any free port)').default(27017).argParser(parsePort))
    .addOption(new Option('--host <host>', 'interface to listen on').default('127.0.0.1'))
    .addOption(new Option('--compat <mode>', 'TTL compatibility mode').choices(CompatModes).default('cosmos'))
    .addOption(new Option('--log-level <level>', 'log level').choices(LogLevels).default('info'))
    .addOption(new Option('--quiet', 'log only the listening line, warnings and errors'))
    .addOption(new Option('--clock <mode>', "'system', or 'manual' for tests (time moves only when told)").choices(ClockModes).default('system'))
    .addOption(new Option('--ttl-monitor-enabled <bool>', 'run the TTL monitor (ttlMonitorEnabled)'))
    .addOption(new Option('--ttl-monitor-sleep-secs <n>', 'seconds between TTL passes (ttlMonitorSleepSecs)'))
    .addOption(new Option('--ttl-index-delete-target-docs <n>', 'documents per index per sub-pass (ttlIndexDeleteTargetDocs)'))
    .addOption(new Option('--ttl-index-delete-target-time-ms <n>', 'ms per index per sub-pass (ttlIndexDeleteTargetTimeMS)'))
    .addOption(new Option('--set-parameter <name=value>', 'set a server parameter at startup (repeatable)').argParser(collectParameter).default({}));
}

/** Runs the CLI with `argv` (process.argv). */
export async function main(argv: string[]): Promise<void> {
  // A closed stdout (`mayfly | head`) silences the log instead of killing the server.
  process.stdout.on('error', (err: NodeJS.ErrnoException) => {
    if (err.code !== 'EPIPE' && err.code !== 'ERR_STREAM_DESTROYED') throw err;
  });
  const program = buildProgram();
  program.parse(argv);
  const opts = program.opts<{
    port: number;
    host: string;
    compat: CompatMode;
    logLevel: LogLevel;
    quiet?: boolean;
    clock: ClockMode;
    ttlMonitorEnabled?: string;
    ttlMonitorSleepSecs?: string;
    ttlIndexDeleteTargetDocs?: string;
    ttlIndexDeleteTargetTimeMs?: string;
    setParameter: Record<string, unknown>;
  }>();
  const parameters: Record<string, unknown> = { ...opts.setParameter };
  if (opts.ttlMonitorEnabled !== undefined) parameters.ttlMonitorEnabled = opts.ttlMonitorEnabled;
  if (opts.ttlMonitorSleepSecs !== undefined) parameters.ttlMonitorSleepSecs = opts.ttlMonitorSleepSecs;
  if (opts.ttlIndexDeleteTargetDocs !== undefined) parameters.ttlIndexDeleteTargetDocs = opts.ttlIndexDeleteTargetDocs;
  if (opts.ttlIndexDeleteTargetTimeMs !== undefined) parameters.ttlIndexDeleteTargetTimeMS = opts.ttlIndexDeleteTargetTimeMs;
  let server: Server;
  try {
    server = new Server({
      port: opts.port,
      host: opts.host,
      compat: opts.compat,
      logLevel: opts.logLevel,
      clock: opts.clock,
      parameters,
      argv: ['mayfly', ...argv.slice(2)],
      parsed: { net: { bindIp: opts.host, port: opts.port }, mayfly: { compat: opts.compat, clock: opts.clock }, setParameter: parameters },
    });
  } catch (err) {
    return program.error(`error: ${err instanceof Error ? err.message : String(err)}`);
  }
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    server.logger.info({ signal }, 'shutting down');
    server.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));
  server.logger.info({ version: MAYFLY_VERSION, node: process.version }, 'mayfly starting');
  await server.listen();
  if (opts.quiet) server.logger.level = 'warn';
}
