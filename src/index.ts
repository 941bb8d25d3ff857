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
import { authSettings, checkServerOptions, listenErrorMessage, MayflyOptionError, type MayflyServerOptions } from './options.js';

export type { CompatMode, ClockMode, LogLevel, MayflyAuthOptions, MayflyServerOptions } from './options.js';
export { MayflyOptionError } from './options.js';

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
        compat: checked.compat ?? 'cosmos',
        clock: checked.clock ?? 'system',
        logLevel: checked.logLevel ?? 'silent',
        parameters: checked.parameters,
        auth: authSettings(checked.auth),
      });
    } catch (err) {
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
