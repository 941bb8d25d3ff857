/**
 * The embedding API, modelled on mongodb-memory-server so test suites can switch:
 *
 *   const server = await MayflyServer.create();
 *   const client = new MongoClient(server.getUri());
 *   ...
 *   await server.stop();
 *
 * Each instance has its own catalog, cursors, clock and TTL engine.
 */
import { Server } from './server/server.js';
import type { Clock } from './ttl/clock.js';
import type { Document } from './bson/library.js';
import { TlsConfigError } from './server/tls.js';
import { authSettings, checkServerOptions, listenErrorMessage, MayflyOptionError, replSetNameProblem, type MayflyServerOptions } from './options.js';

export type { CompatMode, ClockMode, LogLevel, MayflyAuthOptions, MayflyServerOptions, TlsMode, TlsOptions } from './options.js';
export { MayflyOptionError } from './options.js';
export type { CosmosOptions } from './cosmos/settings.js';
export type { CosmosServerVersion } from './cosmos/versions.js';
export type { CapabilityName as CosmosCapability } from './cosmos/capabilities.js';
export type { RuleName as CosmosRule } from './cosmos/rule_table.js';

/** A running in-process Mayfly server. */
export class MayflyServer {
  private readonly server: Server;
  private stopped = false;

  private constructor(server: Server) {
    this.server = server;
  }

  /**
   * Starts a server and resolves once it accepts connections. Rejects with a `MayflyOptionError`
   * whose message says what to change for a bad option (an unknown name, a bad port, an unknown
   * compat mode, a bad server parameter) or a port already in use.
   */
  static async create(options: MayflyServerOptions = {}): Promise<MayflyServer> {
    const who = 'MayflyServer.create()';
    const checked = checkServerOptions(options, who);
    const port = checked.port ?? 0;
    const host = checked.host ?? '127.0.0.1';
    let server: Server;
    try {
      server = new Server({
        port,
        host,
        compat: checked.compat ?? 'mongodb',
        ...(checked.cosmos === undefined ? {} : { cosmos: checked.cosmos }),
        clock: checked.clock ?? 'system',
        logLevel: checked.logLevel ?? 'silent',
        parameters: checked.parameters,
        ...(checked.tls === undefined ? {} : { tls: checked.tls }),
        ...(checked.replSet === undefined ? {} : { replSet: checked.replSet }),
        auth: authSettings(checked.auth),
      });
    } catch (err) {
      if (err instanceof TlsConfigError) throw new MayflyOptionError(`${who}: ${err.message}`, { cause: err });
      // The server parameters are checked as the server sets them.
      throw new MayflyOptionError(`${who}: option 'parameters': ${err instanceof Error ? err.message : String(err)}`, { cause: err });
    }
    try {
      await server.listen();
    } catch (err) {
      const message = listenErrorMessage(err, host, port, "the option 'port'");
      if (message === undefined) throw err;
      throw new MayflyOptionError(`${who}: ${message}`, { code: (err as NodeJS.ErrnoException).code, cause: err });
    }
    return new MayflyServer(server);
  }

  /**
   * The connection string, `mongodb://127.0.0.1:<port>/` (a database name may be appended); on a
   * replica set it ends with `?replicaSet=<name>`, so drivers discover the set.
   */
  getUri(dbName?: string): string {
    const base = dbName ? `${this.server.uri}${dbName}` : this.server.uri;
    const setName = this.server.settings.replSetName;
    return setName === null ? base : `${base}?replicaSet=${encodeURIComponent(setName)}`;
  }

  /** The replica set's name; null on a standalone. */
  get replSetName(): string | null {
    return this.server.settings.replSetName;
  }

  /** The bound port. */
  get port(): number {
    return this.server.port;
  }

  /** The server's clock: `clock.advance(ms)` moves time (the only way on a manual clock). */
  get clock(): Clock {
    return this.server.clock;
  }

  /** Runs one TTL reaper pass now; resolves with what it deleted. */
  runTtlPass(): Promise<Document> {
    return this.server.ttl.runPass();
  }

  /** Stops listening and closes every connection. Safe to call twice. */
  async stop(): Promise<void> {
    if (this.stopped) return;
    this.stopped = true;
    await this.server.close();
  }
}

export { Server } from './server/server.js';

/*
 * `MayflyReplSet`: a one-node replica set, shaped like mongodb-memory-server's `MongoMemoryReplSet`
 * so test suites can switch:
 *
 *   const replSet = await MayflyReplSet.create({ replSet: { name: 'rs0' } });
 *   const client = new MongoClient(replSet.getUri());   // mongodb://127.0.0.1:<port>/?replicaSet=rs0
 *   ...
 *   await replSet.stop();
 *
 * The one member is primary and writable as soon as it listens: there is no election to wait for.
 */

/** Options of `MayflyReplSet.create()`. */
export interface MayflyReplSetOptions {
  /** The set: its `name` (default 'testset', as mongodb-memory-server), `count` (1, the only one), `dbName` for `getUri`. */
  replSet?: { name?: string; count?: number; dbName?: string };
  /** The member's server options (port, host, compat, clock, logLevel, parameters). */
  instance?: Omit<MayflyServerOptions, 'replSet'>;
}

/** The states of a `MayflyReplSet`, as mongodb-memory-server names them. */
export type MayflyReplSetState = 'stopped' | 'init' | 'running';

const WHO = 'MayflyReplSet.create()';

/** A one-node replica set running in this process. */
export class MayflyReplSet {
  private member: MayflyServer | undefined;
  private starting: Promise<void> | undefined;
  private currentState: MayflyReplSetState = 'stopped';
  private readonly name: string;
  private readonly dbName: string | undefined;
  private readonly instance: Omit<MayflyServerOptions, 'replSet'>;

  /** A set that is not started yet (`start()` starts it); `create()` does both. */
  constructor(options: MayflyReplSetOptions = {}) {
    const set = options.replSet ?? {};
    for (const key of Object.keys(set)) {
      if (key !== 'name' && key !== 'count' && key !== 'dbName') throw new MayflyOptionError(`${WHO}: unknown replSet option '${key}'; the options are name, count, dbName`);
    }
    const name = set.name ?? 'testset';
    const problem = replSetNameProblem(name);
    if (problem !== undefined) throw new MayflyOptionError(`${WHO}: option 'replSet.name' ${problem}`);
    if (set.count !== undefined && set.count !== 1) {
      throw new MayflyOptionError(`${WHO}: option 'replSet.count' must be 1: Mayfly presents a one-member replica set, primary from the start`);
    }
    if (options.instance !== undefined && 'replSet' in options.instance) {
      throw new MayflyOptionError(`${WHO}: give the set's name as replSet.name, not instance.replSet`);
    }
    this.name = name;
    this.dbName = set.dbName;
    this.instance = options.instance ?? {};
  }

  /** Starts a set and resolves once its member accepts writes. */
  static async create(options: MayflyReplSetOptions = {}): Promise<MayflyReplSet> {
    const set = new MayflyReplSet(options);
    await set.start();
    return set;
  }

  /** Starts the member (a no-op when running). */
  async start(): Promise<void> {
    if (this.currentState === 'running') return;
    if (this.starting === undefined) {
      this.currentState = 'init';
      this.starting = MayflyServer.create({ ...this.instance, replSet: this.name }).then(
        (server) => {
          this.member = server;
          this.currentState = 'running';
          this.starting = undefined;
        },
        (err: unknown) => {
          this.currentState = 'stopped';
          this.starting = undefined;
          throw err;
        },
      );
    }
    await this.starting;
  }

  /** Resolves once the set is running (the member is primary as soon as it listens). */
  async waitUntilRunning(): Promise<void> {
    if (this.currentState === 'running') return;
    if (this.starting !== undefined) return this.starting;
    throw new Error('MayflyReplSet.waitUntilRunning(): the set is stopped; call start() first');
  }

  /** `mongodb://host:port/<db>?replicaSet=<name>` (the given database, else replSet.dbName). */
  getUri(otherDb?: string): string {
    if (this.member === undefined || this.currentState !== 'running') throw new Error('MayflyReplSet.getUri(): the set is not running; await start() or create() first');
    return this.member.getUri(otherDb ?? this.dbName);
  }

  /** The members (one), as mongodb-memory-server's `servers`. */
  get servers(): readonly MayflyServer[] {
    return this.member === undefined ? [] : [this.member];
  }

  /** 'stopped', 'init' (starting) or 'running'. */
  get state(): MayflyReplSetState {
    return this.currentState;
  }

  /** The set's name. */
  get replSetName(): string {
    return this.name;
  }

  /** Stops the member. Safe to call twice. */
  async stop(): Promise<void> {
    if (this.starting !== undefined) await this.starting.catch(() => undefined);
    const member = this.member;
    this.member = undefined;
    this.currentState = 'stopped';
    await member?.stop();
  }
}
