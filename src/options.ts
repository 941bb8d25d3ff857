/**
 * What a user gives Mayfly to start a server, checked before anything starts, and the words for
 * what goes wrong: `MayflyServer.create()` (src/index.ts), the command line (src/cli.ts) and the
 * test-runner helpers (src/testing/) all check here, so that a user mistake is one clear sentence
 * saying what is wrong and what to do, never a stack trace.
 */
import net from 'node:net';
import { CompatModes, type CompatMode } from './server/services.js';
import { LogLevels, type LogLevel } from './logger.js';
import { ClockModes, type ClockMode } from './ttl/clock.js';
import { Server } from './server/server.js';
import { TLS_OPTION_NAMES, type TlsOptions } from './server/tls.js';
import { cosmosOptionsProblem, type CosmosOptions } from './cosmos/settings.js';

export { CompatModes, type CompatMode, LogLevels, type LogLevel, ClockModes, type ClockMode };
export { TlsModes, type TlsMode, type TlsOptions } from './server/tls.js';

/** Options of `MayflyServer.create()`. */
export interface MayflyServerOptions {
  /** TCP port; default 0 (any free port), unlike the CLI's 27017. */
  port?: number;
  /** Interface; default 127.0.0.1. */
  host?: string;
  /**
   * 'mongodb' (default): a faithful mongod 8.2; 'cosmos': Azure Cosmos DB for MongoDB (RU)'s
   * version, capabilities and rules (see `cosmos`). The `_ts` TTL policy works in both.
   */
  compat?: CompatMode;
  /**
   * With `compat: 'cosmos'`: `{ serverVersion: '7.0', capabilities: ['EnableTtlOnCustomPath'],
   * rules: { sortNeedsIndex: false } }` (every rule is on unless switched off), and the request
   * units: `ruPerSecond` (provisioned throughput; default unlimited) and `serverSideRetry`
   * (default false; docs/cosmos_request_units.md).
   */
  cosmos?: CosmosOptions;
  /** 'system' (default) or 'manual' (time moves only through `clock.advance`). */
  clock?: ClockMode;
  /** Log level; default 'silent' when embedded. */
  logLevel?: LogLevel;
  /** Startup values of server parameters, e.g. `{ ttlMonitorSleepSecs: 1 }`. */
  parameters?: Record<string, unknown>;
  /**
   * TLS, as mongod's `net.tls`: `{ mode: 'requireTLS', certificateKeyFile, caFile, ... }`;
   * default off. The files are read and checked before the server starts.
   */
  tls?: TlsOptions;
  /** Present the server as the primary of a one-node replica set of this name (`--replSet`). */
  replSet?: string;
  /**
   * Access control: `{ username, password }` creates that root user in admin and turns
   * authentication on (as `--auth` with MONGO_INITDB_ROOT_*); `{ enabled: true }` alone turns it
   * on with no user (the localhost exception lets the first one be created).
   */
  auth?: MayflyAuthOptions;
}

/** The `auth` option of `MayflyServer.create()`. */
export interface MayflyAuthOptions {
  username?: string;
  password?: string;
  /** Default: true. */
  enabled?: boolean;
}

/** The option names of `MayflyServer.create()`, in the order the messages list them. */
export const MAYFLY_SERVER_OPTION_NAMES = ['port', 'host', 'compat', 'cosmos', 'clock', 'logLevel', 'parameters', 'tls', 'replSet', 'auth'] as const;

/** mongodb-memory-server's option names, answered with where the Mayfly equivalent is. */
const MMS_OPTION_HINTS: Record<string, string> = {
  instance: "'instance' is a mongodb-memory-server option: give port and host at the top level ({ port, host })",
  binary: "'binary' is a mongodb-memory-server option: Mayfly downloads no binary, so it has no equivalent",
  spawn: "'spawn' is a mongodb-memory-server option: Mayfly runs in your process, so it has no equivalent",
};

/** A user's mistake in what they asked Mayfly to do; its message says what to do instead. */
export class MayflyOptionError extends Error {
  /** The Node error code behind it, when there is one (e.g. 'EADDRINUSE'). */
  readonly code?: string;

  constructor(message: string, options: { code?: string; cause?: unknown } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'MayflyOptionError';
    if (options.code !== undefined) this.code = options.code;
  }
}

function describe(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value);
  if (typeof value === 'bigint') return `${value}n`;
  if (value === null || typeof value !== 'object') return String(value);
  if (Array.isArray(value)) return 'an array';
  return 'an object';
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return false;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

/** Whether `value` is a TCP port number Mayfly can listen on (0 = any free port). */
export function isPort(value: unknown): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value >= 0 && value <= 65535;
}

/**
 * Checks the options of `MayflyServer.create()` (`who` names the caller in messages) and
 * returns them; throws a `MayflyOptionError` naming the first bad one.
 */
export function checkServerOptions(options: unknown, who = 'MayflyServer.create()'): MayflyServerOptions {
  if (options === undefined) return {};
  if (!isPlainObject(options)) throw new MayflyOptionError(`${who}: the options must be an object such as { port: 0, compat: 'mongodb' }, not ${describe(options)}`);
  for (const name of Object.keys(options)) {
    if ((MAYFLY_SERVER_OPTION_NAMES as readonly string[]).includes(name)) continue;
    const hint = MMS_OPTION_HINTS[name];
    throw new MayflyOptionError(
      hint ? `${who}: ${hint}` : `${who}: unknown option '${name}'; the options are ${MAYFLY_SERVER_OPTION_NAMES.join(', ')}`,
    );
  }
  const { port, host, compat, clock, logLevel, parameters, tls, replSet } = options;
  if (port !== undefined && !isPort(port)) {
    throw new MayflyOptionError(`${who}: option 'port' must be an integer from 0 to 65535 (0 picks any free port), not ${describe(port)}`);
  }
  if (host !== undefined && (typeof host !== 'string' || host === '')) {
    throw new MayflyOptionError(`${who}: option 'host' must be a non-empty string such as '127.0.0.1', not ${describe(host)}`);
  }
  if (replSet !== undefined) {
    const problem = replSetNameProblem(replSet);
    if (problem !== undefined) throw new MayflyOptionError(`${who}: option 'replSet' ${problem}, not ${describe(replSet)}`);
  }
  checkChoice(who, 'compat', compat, CompatModes);
  checkCosmosOption(who, compat, options.cosmos);
  checkChoice(who, 'clock', clock, ClockModes);
  checkChoice(who, 'logLevel', logLevel, LogLevels);
  if (parameters !== undefined && !isPlainObject(parameters)) {
    throw new MayflyOptionError(`${who}: option 'parameters' must be an object of server parameters such as { ttlMonitorSleepSecs: 1 }, not ${describe(parameters)}`);
  }
  if (parameters !== undefined) checkParameterNames(parameters, `${who}: option 'parameters': `);
  if (tls !== undefined) checkTlsOptionNames(tls, who);
  checkAuthOption(who, options.auth);
  return options as MayflyServerOptions;
}

/** `cosmos` must be valid Cosmos DB options, and is only meaningful with `compat: 'cosmos'`. */
function checkCosmosOption(who: string, compat: unknown, cosmos: unknown): void {
  if (cosmos === undefined) return;
  if (compat !== 'cosmos') throw new MayflyOptionError(`${who}: option 'cosmos' needs compat: 'cosmos' (the default compat is 'mongodb', a faithful mongod)`);
  const problem = cosmosOptionsProblem(cosmos);
  if (problem !== undefined) throw new MayflyOptionError(`${who}: ${problem}`);
}

/** `tls` must be an object of known TLS option names (their values are checked as the server reads the files). */
function checkTlsOptionNames(tls: unknown, who: string): void {
  if (!isPlainObject(tls)) {
    throw new MayflyOptionError(`${who}: option 'tls' must be an object such as { mode: 'requireTLS', certificateKeyFile: 'server.pem', caFile: 'ca.pem' }, not ${describe(tls)}`);
  }
  for (const name of Object.keys(tls)) {
    if ((TLS_OPTION_NAMES as readonly string[]).includes(name)) continue;
    throw new MayflyOptionError(`${who}: unknown option 'tls.${name}'; the TLS options are ${TLS_OPTION_NAMES.join(', ')}`);
  }
}

/**
 * What is wrong with a replica set name (undefined: nothing): mongod wants a non-empty name
 * without '/' (it separates the name from the seed list in `--replSet name/host,...`).
 */
export function replSetNameProblem(name: unknown): string | undefined {
  if (typeof name !== 'string' || name === '') return "must be a non-empty string such as 'rs0'";
  if (name.includes('/') || name.includes(',')) return "must be a plain name such as 'rs0' (no '/' or ',', no seed list)";
  return undefined;
}

function checkAuthOption(who: string, auth: unknown): void {
  if (auth === undefined) return;
  const example = "such as { username: 'root', password: 'example' }";
  if (!isPlainObject(auth)) throw new MayflyOptionError(`${who}: option 'auth' must be an object ${example}, not ${describe(auth)}`);
  for (const key of Object.keys(auth)) {
    if (key === 'enable' || key === 'customRootName' || key === 'customRootPwd') {
      throw new MayflyOptionError(`${who}: option 'auth.${key}' is mongodb-memory-server's spelling: give { username, password } (a root user, access control on) or { enabled: true }`);
    }
    if (key !== 'username' && key !== 'password' && key !== 'enabled') {
      throw new MayflyOptionError(`${who}: option 'auth' has an unknown field '${key}'; its fields are username, password, enabled`);
    }
  }
  const { username, password, enabled } = auth;
  if (username !== undefined && (typeof username !== 'string' || username === '')) {
    throw new MayflyOptionError(`${who}: option 'auth.username' must be a non-empty string, not ${describe(username)}`);
  }
  if (password !== undefined && (typeof password !== 'string' || password === '')) {
    throw new MayflyOptionError(`${who}: option 'auth.password' must be a non-empty string, not ${describe(password)}`);
  }
  if ((username === undefined) !== (password === undefined)) {
    throw new MayflyOptionError(`${who}: option 'auth' needs both username and password (or neither, with enabled: true), ${example}`);
  }
  if (enabled !== undefined && typeof enabled !== 'boolean') throw new MayflyOptionError(`${who}: option 'auth.enabled' must be true or false, not ${describe(enabled)}`);
}

/**
 * The server's access control from `auth` (embedding) or the command line: a root user turns
 * authentication on unless `enabled` says otherwise.
 */
export function authSettings(auth: MayflyAuthOptions | undefined, flag = false): { enabled: boolean; rootUser?: { username: string; password: string } } {
  const rootUser = auth?.username !== undefined && auth.password !== undefined ? { username: auth.username, password: auth.password } : undefined;
  const enabled = flag || (auth !== undefined && (auth.enabled ?? true));
  return rootUser ? { enabled, rootUser } : { enabled };
}

let startupNames: readonly string[] | undefined;

/** The server parameters that can be set at startup (`parameters`, `--set-parameter`), by name. */
export function startupParameterNames(): readonly string[] {
  // Each component registers its own parameters on a server: ask one that never listens.
  startupNames ??= new Server({ logLevel: 'silent' }).parameters
    .all()
    .filter((p) => p.set !== undefined && p.settableAtStartup)
    .map((p) => p.name);
  return startupNames;
}

/**
 * Checks that every name in `parameters` is a server parameter settable at startup; throws a
 * `MayflyOptionError` that lists them otherwise. (Values are checked by the server as it sets them.)
 */
export function checkParameterNames(parameters: Record<string, unknown>, prefix: string): void {
  for (const name of Object.keys(parameters)) {
    if (startupParameterNames().includes(name)) continue;
    throw new MayflyOptionError(`${prefix}unknown server parameter '${name}'; the parameters settable at startup are ${startupParameterNames().join(', ')}`);
  }
}

function checkChoice(who: string, name: string, value: unknown, choices: readonly string[]): void {
  if (value === undefined || (typeof value === 'string' && choices.includes(value))) return;
  throw new MayflyOptionError(`${who}: option '${name}' must be one of ${choices.map((c) => `'${c}'`).join(', ')}, not ${describe(value)}`);
}

/**
 * What to tell a user whose server could not listen on `host:port`: one sentence for the errors a
 * user causes (port in use, no permission, an address that is not this machine's, a name that
 * does not resolve), or undefined for anything else. `portHint` says how this caller picks
 * another port (`--port` or `port:`).
 */
export function listenErrorMessage(err: unknown, host: string, port: number, portHint: string): string | undefined {
  const code = (err as NodeJS.ErrnoException | undefined)?.code;
  switch (code) {
    case 'EADDRINUSE':
      return `port ${port} on ${host} is already in use (by another mongod or Mayfly?); stop that server, or choose another port with ${portHint} (0 picks any free port)`;
    case 'EACCES':
      return `no permission to listen on port ${port} of ${host} (ports below 1024 need privileges); choose a port from 1024 up with ${portHint}`;
    case 'EADDRNOTAVAIL':
      return `${host} is not an address of this machine; listen on 127.0.0.1, 0.0.0.0 or one of this machine's addresses`;
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return `the host name ${host} does not resolve; listen on an IP address such as 127.0.0.1, or a name this machine resolves`;
    default:
      return undefined;
  }
}

/**
 * Tries to listen on `host:port` and closes again at once: resolves when a server could listen
 * there now, rejects with the listen error otherwise. The command line asks this first, so that a
 * port in use is answered before the server (and its log) starts.
 */
export function probeListen(host: string, port: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once('error', reject);
    probe.listen({ port, host, exclusive: true }, () => probe.close(() => resolve()));
  });
}
