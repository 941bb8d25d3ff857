/**
 * `MayflyReplSet`: the embedding API of a one-node replica set, shaped like mongodb-memory-server's
 * `MongoMemoryReplSet` so test suites can switch:
 *
 *   const replSet = await MayflyReplSet.create({ replSet: { name: 'rs0' } });
 *   const client = new MongoClient(replSet.getUri());   // mongodb://127.0.0.1:<port>/?replicaSet=rs0
 *   ...
 *   await replSet.stop();
 *
 * The one member is primary and writable as soon as it listens: there is no election to wait for.
 */
import { MayflyServer } from './index.js';
import { MayflyOptionError, replSetNameProblem, type MayflyServerOptions } from './options.js';

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
