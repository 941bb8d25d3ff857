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
import { Server, type ServerOptions } from './server/server.js';
import type { Clock } from './ttl/clock.js';
import type { CompatMode } from './server/services.js';
import type { Document } from './bson/library.js';

export type { CompatMode } from './server/services.js';
export type { ClockMode } from './ttl/clock.js';

/** Options of `MayflyServer.create()`. */
export interface MayflyServerOptions {
  /** TCP port; default 0 (any free port), unlike the CLI's 27017. */
  port?: number;
  /** Interface; default 127.0.0.1. */
  host?: string;
  /** TTL compatibility mode; default 'cosmos'. */
  compat?: CompatMode;
  /** 'system' (default) or 'manual' (time moves only through `clock.advance`). */
  clock?: 'system' | 'manual';
  /** Log level; default 'silent' when embedded. */
  logLevel?: ServerOptions['logLevel'];
  /** Startup values of server parameters, e.g. `{ ttlMonitorSleepSecs: 1 }`. */
  parameters?: Record<string, unknown>;
}

/** A running in-process Mayfly server. */
export class MayflyServer {
  private readonly server: Server;
  private stopped = false;

  private constructor(server: Server) {
    this.server = server;
  }

  /** Starts a server and resolves once it accepts connections. */
  static async create(options: MayflyServerOptions = {}): Promise<MayflyServer> {
    const server = new Server({
      port: options.port ?? 0,
      host: options.host ?? '127.0.0.1',
      compat: options.compat ?? 'cosmos',
      clock: options.clock ?? 'system',
      logLevel: options.logLevel ?? 'silent',
      parameters: options.parameters,
    });
    await server.listen();
    return new MayflyServer(server);
  }

  /** The connection string, `mongodb://127.0.0.1:<port>/` (a database name may be appended). */
  getUri(dbName?: string): string {
    return dbName ? `${this.server.uri}${dbName}` : this.server.uri;
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
