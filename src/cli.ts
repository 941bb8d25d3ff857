/**
 * The command line: `mayfly [--port 27017] [--host 127.0.0.1] [--compat mongodb|cosmos] [--cosmos-...] ...`.
 * Starts a server on the in-memory store and closes it cleanly on SIGINT/SIGTERM.
 *
 * A user mistake (a bad flag or value, a port in use) is answered with one line on stderr that
 * says what is wrong and what to do, and exit code 2; never a stack trace.
 */
import { Command, CommanderError, InvalidArgumentError, Option } from 'commander';
import { Server } from './server/server.js';
import { parseRuPerSecondFlag, RequestUnitOptionError } from './cosmos/request_unit_options.js';
import { authSettings, checkParameterNames, replSetNameProblem, ClockModes, CompatModes, isPort, LogLevels, listenErrorMessage, probeListen, type ClockMode, type CompatMode, type LogLevel } from './options.js';
import { MAYFLY_VERSION } from './version.js';
import { CAPABILITY_NAMES } from './cosmos/capabilities.js';
import { RULE_NAMES } from './cosmos/rule_table.js';
import { COSMOS_SERVER_VERSIONS } from './cosmos/versions.js';
import { cosmosCmdLine, cosmosOptionsProblem, resolveCosmosSettings, type CosmosOptions } from './cosmos/settings.js';
import { TlsConfigError, tlsCmdLine, TlsModes, type TlsMode, type TlsOptionLabels, type TlsOptions } from './server/tls.js';

/** The TLS flags, by the option each sets (for the messages about a bad TLS configuration). */
const TLS_FLAGS: TlsOptionLabels = {
  mode: '--tls-mode',
  certificateKeyFile: '--tls-cert-key-file',
  certificateKeyFilePassword: '--tls-certificate-key-file-password',
  caFile: '--tls-ca-file',
  allowConnectionsWithoutCertificates: '--tls-allow-connections-without-certificates',
  allowInvalidCertificates: '--tls-allow-invalid-certificates',
};

/** The exit code of a user mistake (as commander's usage errors, in most CLIs). */
export const USAGE_EXIT_CODE = 2;

const SEE_HELP = "Run 'mayfly --help' to see every option.";

function parsePort(value: string): number {
  const n = value.trim() === '' ? NaN : Number(value);
  if (!isPort(n)) throw new InvalidArgumentError('The port must be an integer from 0 to 65535 (0 picks any free port).');
  return n;
}

function parseReplSet(value: string): string {
  const problem = replSetNameProblem(value);
  if (problem !== undefined) throw new InvalidArgumentError(`The replica set name ${problem}.`);
  return value;
}

function collectList(value: string, previous: string[]): string[] {
  return [...previous, ...value.split(',').map((s) => s.trim()).filter((s) => s !== '')];
}

/**
 * The Cosmos DB options of the command line (`--cosmos-server-version`, `--cosmos-capabilities`,
 * `--cosmos-rule-off`), checked: a usage error when one is given without `--compat cosmos`.
 */
function cosmosFromFlags(compat: CompatMode, version: string | undefined, capabilities: string[], rulesOff: string[]): CosmosOptions | undefined {
  const given = version !== undefined || capabilities.length > 0 || rulesOff.length > 0;
  if (!given) return undefined;
  if (compat !== 'cosmos') usageError('--cosmos-server-version, --cosmos-capabilities and --cosmos-rule-off need --compat cosmos (the default is --compat mongodb, a faithful mongod).');
  const options: Record<string, unknown> = {};
  if (version !== undefined) options.serverVersion = version;
  if (capabilities.length > 0) options.capabilities = capabilities;
  if (rulesOff.length > 0) options.rules = Object.fromEntries(rulesOff.map((name) => [name, false]));
  const problem = cosmosOptionsProblem(options);
  if (problem !== undefined) {
    const flag = problem.includes('capabilit') ? '--cosmos-capabilities' : problem.includes('rules') ? '--cosmos-rule-off' : '--cosmos-server-version';
    usageError(`${flag}: ${problem}.`);
  }
  return options as CosmosOptions;
}

function collectParameter(value: string, previous: Record<string, unknown>): Record<string, unknown> {
  const eq = value.indexOf('=');
  if (eq <= 0) throw new InvalidArgumentError('Write it as name=value, e.g. --set-parameter ttlMonitorSubPassTargetSecs=10.');
  return { ...previous, [value.slice(0, eq)]: value.slice(eq + 1) };
}

/** Writes one line about a user mistake to stderr and ends the process with exit code 2. */
function usageError(message: string): never {
  const line = message.replace(/^error: /, '').replace(/\s*\n\s*/g, ' ').trim();
  process.stderr.write(`mayfly: ${line}\n`);
  process.exit(USAGE_EXIT_CODE);
}

/** What commander reports: help and version end with 0, everything else is a usage error. */
function onCommanderExit(err: CommanderError): never {
  if (err.exitCode === 0) process.exit(0);
  if (/Did you mean/.test(err.message)) usageError(err.message);
  usageError(`${err.message}${err.message.endsWith('.') ? '' : '.'} ${SEE_HELP}`);
}

/** `argv` with the value of a password flag replaced by `<password>`, as mongod's getCmdLineOpts shows it. */
function redactPasswords(argv: readonly string[]): string[] {
  const flags = [TLS_FLAGS.certificateKeyFilePassword, '--password'];
  return argv.map((arg, i) => {
    for (const flag of flags) if (arg.startsWith(`${flag}=`)) return `${flag}=<password>`;
    return i > 0 && flags.includes(argv[i - 1]!) ? '<password>' : arg;
  });
}

/**
 * The root user to create at start: `--username/--password`, else MAYFLY_ROOT_USERNAME/
 * MAYFLY_ROOT_PASSWORD, else the Docker image's MONGO_INITDB_ROOT_USERNAME/PASSWORD; a name
 * without a password (or the reverse) is a usage error.
 */
export function rootUserFrom(username: string | undefined, password: string | undefined, env: NodeJS.ProcessEnv): { username: string; password: string } | undefined {
  const sources: Array<[string | undefined, string | undefined, string, string]> = [
    [username, password, '--username', '--password'],
    [env.MAYFLY_ROOT_USERNAME, env.MAYFLY_ROOT_PASSWORD, 'MAYFLY_ROOT_USERNAME', 'MAYFLY_ROOT_PASSWORD'],
    [env.MONGO_INITDB_ROOT_USERNAME, env.MONGO_INITDB_ROOT_PASSWORD, 'MONGO_INITDB_ROOT_USERNAME', 'MONGO_INITDB_ROOT_PASSWORD'],
  ];
  for (const [user, pwd, userName, pwdName] of sources) {
    if (!user && !pwd) continue;
    if (!user) usageError(`${pwdName} is given without ${userName}; give both to create the root user.`);
    if (!pwd) usageError(`${userName} is given without ${pwdName}; give both to create the root user.`);
    return { username: user, password: pwd };
  }
  return undefined;
}

/** The CLI program (exported for tests). */
export function buildProgram(): Command {
  return new Command('mayfly')
    .description('A MongoDB-compatible in-memory database server with Cosmos DB, MongoDB and Tablestore TTL')
    .version(MAYFLY_VERSION)
    .addOption(new Option('--port <port>', 'TCP port to listen on (0 = any free port)').default(27017).argParser(parsePort))
    .addOption(new Option('--host <host>', 'interface to listen on').default('127.0.0.1'))
    .addOption(new Option('--compat <mode>', "'mongodb' (a faithful mongod 8.2) or 'cosmos' (Azure Cosmos DB for MongoDB's rules); the _ts TTL works in both").choices(CompatModes).default('mongodb'))
    .addOption(new Option('--cosmos-server-version <version>', 'with --compat cosmos: the Cosmos DB server version (buildInfo, wire version, features; default 7.0)').choices(COSMOS_SERVER_VERSIONS))
    .addOption(new Option('--cosmos-capabilities <list>', `with --compat cosmos: account capabilities, comma-separated (${CAPABILITY_NAMES.join(', ')})`).argParser(collectList).default([]))
    .addOption(new Option('--cosmos-rule-off <rule>', `with --compat cosmos: switch one Cosmos DB rule off (repeatable or comma-separated: ${RULE_NAMES.join(', ')})`).argParser(collectList).default([]))
    .addOption(new Option('--cosmos-ru-per-second <n>', 'with --compat cosmos: provisioned throughput in RU/s; requests over it answer 16500 (default: unlimited)'))
    .addOption(new Option('--cosmos-server-side-retry', 'with --compat cosmos: a throttled request waits (up to 60 s, then 50) instead of answering 16500'))
    .addOption(new Option('--log-level <level>', 'log level').choices(LogLevels).default('info'))
    .addOption(new Option('--quiet', 'log only the listening line, warnings and errors'))
    .addOption(new Option('--clock <mode>', "'system', or 'manual' for tests (time moves only when told)").choices(ClockModes).default('system'))
    .addOption(new Option('--ttl-monitor-enabled <bool>', 'run the TTL monitor (ttlMonitorEnabled)'))
    .addOption(new Option('--ttl-monitor-sleep-secs <n>', 'seconds between TTL passes (ttlMonitorSleepSecs)'))
    .addOption(new Option('--ttl-index-delete-target-docs <n>', 'documents per index per sub-pass (ttlIndexDeleteTargetDocs)'))
    .addOption(new Option('--ttl-index-delete-target-time-ms <n>', 'ms per index per sub-pass (ttlIndexDeleteTargetTimeMS)'))
    .addOption(new Option('--tls-mode <mode>', "TLS: 'disabled', 'allowTLS'/'preferTLS' (TLS and plain on one port) or 'requireTLS'").choices(TlsModes))
    .addOption(new Option('--tls-cert-key-file <file>', "PEM file with the server's certificate and private key"))
    .addOption(new Option('--tls-certificate-key-file-password <password>', 'password of an encrypted key in --tls-cert-key-file'))
    .addOption(new Option('--tls-ca-file <file>', 'PEM file of the CA that client certificates must chain to'))
    .addOption(new Option('--tls-allow-connections-without-certificates', 'accept TLS clients that present no certificate'))
    .addOption(new Option('--tls-allow-invalid-certificates', 'accept TLS clients whose certificate does not verify'))
    .addOption(new Option('--replSet <name>', 'present the server as the primary of a one-node replica set of this name').argParser(parseReplSet))
    .addOption(new Option('--auth', 'require authentication (SCRAM-SHA-1/256) for every command but the handshake'))
    .addOption(new Option('--username <name>', 'a root user created in admin at start (turns --auth on); also MAYFLY_ROOT_USERNAME, MONGO_INITDB_ROOT_USERNAME'))
    .addOption(new Option('--password <password>', "the root user's password; also MAYFLY_ROOT_PASSWORD, MONGO_INITDB_ROOT_PASSWORD"))
    .addOption(new Option('--set-parameter <name=value>', 'set a server parameter at startup (repeatable)').argParser(collectParameter).default({}))
    .configureOutput({ outputError: () => {} }) // onCommanderExit writes the one line
    .exitOverride(onCommanderExit);
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
    cosmosServerVersion?: string;
    cosmosCapabilities: string[];
    cosmosRuleOff: string[];
    logLevel: LogLevel;
    quiet?: boolean;
    clock: ClockMode;
    ttlMonitorEnabled?: string;
    ttlMonitorSleepSecs?: string;
    ttlIndexDeleteTargetDocs?: string;
    ttlIndexDeleteTargetTimeMs?: string;
    setParameter: Record<string, unknown>;
    tlsMode?: TlsMode;
    tlsCertKeyFile?: string;
    tlsCertificateKeyFilePassword?: string;
    tlsCaFile?: string;
    tlsAllowConnectionsWithoutCertificates?: boolean;
    tlsAllowInvalidCertificates?: boolean;
    replSet?: string;
    auth?: boolean;
    username?: string;
    password?: string;
    cosmosRuPerSecond?: string;
    cosmosServerSideRetry?: boolean;
  }>();
  const tls: TlsOptions = {};
  if (opts.tlsMode !== undefined) tls.mode = opts.tlsMode;
  if (opts.tlsCertKeyFile !== undefined) tls.certificateKeyFile = opts.tlsCertKeyFile;
  if (opts.tlsCertificateKeyFilePassword !== undefined) tls.certificateKeyFilePassword = opts.tlsCertificateKeyFilePassword;
  if (opts.tlsCaFile !== undefined) tls.caFile = opts.tlsCaFile;
  if (opts.tlsAllowConnectionsWithoutCertificates) tls.allowConnectionsWithoutCertificates = true;
  if (opts.tlsAllowInvalidCertificates) tls.allowInvalidCertificates = true;
  const netTls = tlsCmdLine(tls);
  const rootUser = rootUserFrom(opts.username, opts.password, process.env);
  const cosmos: CosmosOptions = cosmosFromFlags(opts.compat, opts.cosmosServerVersion, opts.cosmosCapabilities, opts.cosmosRuleOff) ?? {};
  const parameters: Record<string, unknown> = { ...opts.setParameter };
  /** The flag that gave each parameter, for the error about its value. */
  const flags: Record<string, string> = {};
  const fromFlag = (name: string, flag: string, value: string | undefined) => {
    if (value === undefined) return;
    parameters[name] = value;
    flags[name] = flag;
  };
  fromFlag('ttlMonitorEnabled', '--ttl-monitor-enabled', opts.ttlMonitorEnabled);
  fromFlag('ttlMonitorSleepSecs', '--ttl-monitor-sleep-secs', opts.ttlMonitorSleepSecs);
  fromFlag('ttlIndexDeleteTargetDocs', '--ttl-index-delete-target-docs', opts.ttlIndexDeleteTargetDocs);
  fromFlag('ttlIndexDeleteTargetTimeMS', '--ttl-index-delete-target-time-ms', opts.ttlIndexDeleteTargetTimeMs);
  if (opts.cosmosRuPerSecond !== undefined || opts.cosmosServerSideRetry === true) {
    const flag = opts.cosmosRuPerSecond !== undefined ? '--cosmos-ru-per-second' : '--cosmos-server-side-retry';
    if (opts.compat !== 'cosmos') return usageError(`${flag} applies to Cosmos DB mode only: add --compat cosmos`);
    try {
      if (opts.cosmosRuPerSecond !== undefined) cosmos.ruPerSecond = parseRuPerSecondFlag(opts.cosmosRuPerSecond);
    } catch (err) {
      if (err instanceof RequestUnitOptionError) return usageError(err.message);
      throw err;
    }
    if (opts.cosmosServerSideRetry === true) cosmos.serverSideRetry = true;
  }
  let server: Server;
  try {
    checkParameterNames(opts.setParameter, '--set-parameter: ');
    server = new Server({
      port: opts.port,
      host: opts.host,
      compat: opts.compat,
      ...(opts.compat === 'cosmos' ? { cosmos } : {}),
      logLevel: opts.logLevel,
      clock: opts.clock,
      parameters,
      tls,
      tlsLabels: TLS_FLAGS,
      ...(opts.replSet === undefined ? {} : { replSet: opts.replSet }),
      auth: authSettings(rootUser, opts.auth === true),
      argv: ['mayfly', ...redactPasswords(argv.slice(2))],
      parsed: {
        net: { bindIp: opts.host, port: opts.port, ...(netTls === undefined ? {} : { tls: netTls }) },
        ...(opts.replSet === undefined ? {} : { replication: { replSet: opts.replSet } }),
        mayfly: { compat: opts.compat, clock: opts.clock, ...(opts.compat === 'cosmos' ? { cosmos: { ...cosmosCmdLine(resolveCosmosSettings(cosmos)), ruPerSecond: cosmos.ruPerSecond ?? 'unlimited', serverSideRetry: cosmos.serverSideRetry === true } } : {}) },
        ...(opts.auth === true || rootUser ? { security: { authorization: 'enabled' } } : {}),
        setParameter: parameters,
      },
    });
  } catch (err) {
    // A TLS flag naming a missing file, a key that does not fit its certificate, ...
    if (err instanceof TlsConfigError) return usageError(err.message);
    // A bad server parameter: an unknown name, or a bad value from a --ttl-* flag or --set-parameter.
    const message = err instanceof Error ? err.message : String(err);
    const name = /parameter (\w+)/.exec(message)?.[1];
    const flag = name === undefined ? undefined : (flags[name] ?? '--set-parameter');
    return usageError(flag === undefined || message.includes('--set-parameter') ? message : `${message} (given with ${flag})`);
  }
  // A port in use (or a host that is not this machine's) is answered before anything is logged:
  // the server's listener logs its errors.
  try {
    await probeListen(opts.host, opts.port);
  } catch (err) {
    const message = listenErrorMessage(err, opts.host, opts.port, '--port');
    if (message !== undefined) return usageError(message);
    throw err;
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
  try {
    await server.listen();
  } catch (err) {
    // Taken between the probe and now.
    const message = listenErrorMessage(err, opts.host, opts.port, '--port');
    if (message !== undefined) return usageError(message);
    throw err;
  }
  if (opts.quiet) server.logger.level = 'warn';
}
