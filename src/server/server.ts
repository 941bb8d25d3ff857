/**
 * The server: a TCP listener, its connections, and the services commands run against
 * (catalog, cursors, clock, parameters, TTL engine). Several servers in one process share
 * nothing.
 */
import net from 'node:net';
import tls from 'node:tls';
import { Writable } from 'node:stream';
import type { Document } from '../bson/library.js';
import type { CompatMode, ServerCounters, ServerServices, ServerSettings } from './services.js';
import { createLogger, type LogLevel, type Logger } from '../logger.js';
import { AuthManager, type AuthOptions } from '../auth/auth_manager.js';
import { Catalog } from '../storage/catalog.js';
import { CursorManager } from '../storage/cursors.js';
import { Clock, type ClockMode } from '../ttl/clock.js';
import { TtlEngine } from '../ttl/engine.js';
import { TopologyVersion } from './topology_version.js';
import { resolveCosmosSettings, type CosmosOptions } from '../cosmos/settings.js';
import { cosmosDocumentTooLarge, cosmosMaxDocumentBytes } from '../cosmos/rules/document_size.js';
import { LogicalClock } from './logical_clock.js';
import { Connection } from './connection.js';
import { ParameterTable } from './parameters.js';
import { intParameter, registerServerParameters } from './server_parameters.js';
import { attachChangeLog } from '../storage/change_log.js';
import { checkPeer, classifyFirstBytes, EMBEDDED_TLS_LABELS, loadTlsConfig, type TlsConfig, type TlsOptionLabels, type TlsOptions } from './tls.js';
import { subjectNameOf } from '../auth/x509.js';
import { installRequestUnits, RequestUnits, requestUnitsOf } from '../cosmos/request_units/meter.js';
import { injectionMatches, parseThrottleInjection } from '../cosmos/request_units/injection.js';
import { cosmosThrottledPage } from '../cosmos/change_streams/throttled_page.js';
import { failPointsOf } from './fail_points.js';

/** Options of a server instance. */
export interface ServerOptions {
  /** TCP port; 0 picks a free one. Default 27017. */
  port?: number;
  /** Interface to listen on. Default 127.0.0.1. */
  host?: string;
  /** Compatibility mode: 'mongodb' (default) or 'cosmos'. */
  compat?: CompatMode;
  /** With compat 'cosmos': the server version, capabilities and rules (checked by the caller). */
  cosmos?: CosmosOptions;
  /** Log level. Default 'info'; 'silent' for none. */
  logLevel?: LogLevel;
  /** A logger to use instead of one on stdout. */
  logger?: Logger;
  /** 'system' (default) or 'manual' (moves only when told). */
  clock?: ClockMode;
  /** Startup values for server parameters (`--setParameter`-like). */
  parameters?: Record<string, unknown>;
  /** The command line as given, for getCmdLineOpts. */
  argv?: readonly string[];
  /** The parsed command line, for getCmdLineOpts. */
  parsed?: Document;
  /** Present the server as the primary of a one-node replica set of this name (WRITE_PATH.md). */
  replSet?: string;
  /** TLS (`net.tls`); checked, files read, when the server is made: throws `TlsConfigError`. */
  tls?: TlsOptions;
  /** How messages about `tls` name its options (default: the embedding API's `tls.<name>`). */
  tlsLabels?: TlsOptionLabels;
  /** Access control (`--auth`) and the root user created at start (src/auth/). */
  auth?: AuthOptions;
}

const RECENT_LOG_LINES = 1024;

/** One running Mayfly server. */
export class Server implements ServerServices {
  readonly catalog = new Catalog();
  readonly cursors = new CursorManager();
  readonly clock: Clock;
  readonly parameters = new ParameterTable();
  readonly logger: Logger;
  readonly settings: ServerSettings;
  readonly counters: ServerCounters = {
    connectionsCurrent: 0,
    connectionsTotal: 0,
    requests: 0,
    bytesIn: 0,
    bytesOut: 0,
    opcounters: { insert: 0, query: 0, update: 0, delete: 0, getmore: 0, command: 0 },
    tlsVersions: { '1.0': 0, '1.1': 0, '1.2': 0, '1.3': 0, unknown: 0 },
  };
  readonly startedAtMs: number;
  readonly ttl: TtlEngine;
  readonly logicalClock: LogicalClock;
  readonly recentLog: string[] = [];
  readonly auth: AuthManager;
  readonly topology = new TopologyVersion();
  private readonly listener: net.Server;
  private readonly connections = new Set<Connection>();
  private nextConnectionId = 1;
  private cursorTimer: NodeJS.Timeout | null = null;
  private address: { host: string; port: number } | null = null;
  /** The TLS configuration; null: TLS disabled. */
  readonly tlsConfig: TlsConfig | null;
  /** Takes the TLS handshake of each connection whose first bytes are a TLS record (never listens). */
  private readonly tlsServer: tls.Server | null = null;
  /** Sockets still being sniffed, and those under a TLS socket (closed by `close`). */
  private readonly pending = new Set<net.Socket>();

  /** A server that is not yet listening. */
  constructor(options: ServerOptions = {}) {
    this.clock = new Clock(options.clock ?? 'system');
    this.startedAtMs = this.clock.now();
    this.logicalClock = new LogicalClock(this.clock);
    // Every commit of the write path takes its cluster time from the logical clock.
    this.catalog.writes.useClocks({ clusterTime: () => this.logicalClock.tick(), wallTimeMs: () => this.clock.now() });
    const recent = this.recentLog;
    const tee = new Writable({
      write(chunk: Buffer, _enc, cb) {
        const text = chunk.toString('utf8');
        for (const line of text.split('\n')) if (line) recent.push(line);
        if (recent.length > RECENT_LOG_LINES) recent.splice(0, recent.length - RECENT_LOG_LINES);
        if (options.logLevel !== 'silent') process.stdout.write(chunk);
        cb();
      },
    });
    this.logger = options.logger ?? createLogger(options.logLevel === 'silent' ? 'info' : (options.logLevel ?? 'info'), tee);
    const compat = options.compat ?? 'mongodb';
    const cosmos = compat === 'cosmos' ? resolveCosmosSettings(options.cosmos) : null;
    this.tlsConfig = loadTlsConfig(options.tls ?? {}, options.tlsLabels ?? EMBEDDED_TLS_LABELS, this.clock.now());
    const netSection = { bindIp: options.host ?? '127.0.0.1', port: options.port ?? 27017, ...(this.tlsConfig ? { tls: this.tlsConfig.cmdLine } : {}) };
    this.settings = {
      host: options.host ?? '127.0.0.1',
      port: options.port ?? 27017,
      compat,
      cosmos,
      replSetName: options.replSet ?? null,
      argv: options.argv ?? [],
      parsed: options.parsed ?? { net: netSection },
    };
    if (cosmos?.rules.documentSizeLimit) this.catalog.writes.documentLimit = { maxBytes: cosmosMaxDocumentBytes(cosmos.capabilities), tooLarge: cosmosDocumentTooLarge };
    const counters = this.counters;
    if (compat === 'cosmos') installRequestUnits(this, this.makeRequestUnits(options.cosmos));
    this.ttl = new TtlEngine({
      catalog: this.catalog,
      clock: this.clock,
      logger: this.logger,
      compat,
      ttlOnCustomPath: cosmos?.capabilities.has('EnableTtlOnCustomPath') ?? false,
      requestsReceived: () => counters.requests,
      deleteAllowance: () => requestUnitsOf(this)?.ttlDeleteAllowance() ?? Number.POSITIVE_INFINITY,
    });
    this.auth = new AuthManager(this.catalog, () => this.clock.now(), options.auth);
    registerServerParameters(this);
    if (this.settings.replSetName !== null) {
      // The replica set's change log: change streams and local.oplog.rs read it.
      const changeLog = attachChangeLog(this.catalog);
      intParameter(this.parameters, 'changeStreamHistorySize', () => changeLog.maxEvents, (n) => (changeLog.maxEvents = n), { gt: 0 });
    }
    for (const [name, value] of Object.entries(options.parameters ?? {})) {
      const param = this.parameters.lookup(name);
      if (!param || !param.set || !param.settableAtStartup) throw new Error(`unknown or read-only server parameter: ${name}`);
      param.set(value);
    }
    this.listener = net.createServer((socket) => this.accept(socket));
    if (this.tlsConfig !== null) {
      this.tlsServer = tls.createServer(this.tlsConfig.serverOptions, (secure) => this.acceptTls(secure));
      this.tlsServer.on('tlsClientError', (err, secure) => {
        this.logger.info({ remote: `${secure.remoteAddress}:${secure.remotePort}`, err: err.message }, 'TLS handshake failed; connection closed');
        secure.destroy();
      });
    }
    this.listener.on('error', (err) => this.logger.error({ err }, 'listener error'));
  }

  /** Cosmos mode's request-units meter, with the `cosmosThrottle` fail point as its injection. */
  private makeRequestUnits(cosmos: CosmosOptions | undefined): RequestUnits {
    return new RequestUnits({
      clock: this.clock,
      catalog: this.catalog,
      settings: { ruPerSecond: cosmos?.ruPerSecond ?? null, serverSideRetry: cosmos?.serverSideRetry === true },
      injected: (command, db, body) => {
        const failPoint = failPointsOf(this).cosmosThrottle;
        if (!failPoint.active) return undefined;
        const data = failPoint.check((d) => injectionMatches(d, command, db, body));
        return data === undefined ? undefined : parseThrottleInjection(data);
      },
      throttledAnswer: (command, db, body) => (this.settings.cosmos?.rules.changeStreamThrottledPage ? cosmosThrottledPage(this.cursors, command, db, body) : undefined),
    });
  }

  /** Starts listening; resolves with the bound address. */
  async listen(): Promise<{ host: string; port: number }> {
    await new Promise<void>((resolve, reject) => {
      const onError = (err: Error) => reject(err);
      this.listener.once('error', onError);
      this.listener.listen(this.settings.port, this.settings.host, () => {
        this.listener.off('error', onError);
        resolve();
      });
    });
    const addr = this.listener.address() as net.AddressInfo;
    this.address = { host: this.settings.host, port: addr.port };
    this.ttl.start();
    this.cursorTimer = setInterval(() => this.cursors.expire(this.clock.now()), 60_000);
    this.cursorTimer.unref();
    this.logger.info({ uri: this.uri, host: this.address.host, port: this.address.port, compat: this.settings.compat }, `Waiting for connections on ${this.uri}`);
    return this.address;
  }

  /** `mongodb://host:port/` of the listening server. */
  get uri(): string {
    if (!this.address) throw new Error('server is not listening');
    const host = this.address.host.includes(':') ? `[${this.address.host}]` : this.address.host;
    return `mongodb://${host}:${this.address.port}/`;
  }

  /** The bound port (after listen). */
  get port(): number {
    if (!this.address) throw new Error('server is not listening');
    return this.address.port;
  }

  /** Closes the listener and every connection, stops the TTL monitor. */
  async close(): Promise<void> {
    if (this.cursorTimer) clearInterval(this.cursorTimer);
    this.cursorTimer = null;
    await this.ttl.stop();
    for (const conn of this.connections) conn.destroy();
    for (const socket of this.pending) socket.destroy();
    await new Promise<void>((resolve) => {
      if (!this.listener.listening) return resolve();
      this.listener.close(() => resolve());
    });
    this.cursors.closeAll();
    this.logger.info('server stopped');
  }

  /**
   * A new TCP connection: plain at once without TLS; with TLS, its first bytes say whether it
   * speaks TLS (handed to the TLS server for the handshake) or plain messages (refused under
   * requireTLS, as mongod does).
   */
  private accept(socket: net.Socket): void {
    const config = this.tlsConfig;
    if (config === null || this.tlsServer === null) return this.open(socket, null);
    const tlsServer = this.tlsServer;
    const remote = `${socket.remoteAddress}:${socket.remotePort}`;
    this.pending.add(socket);
    socket.on('close', () => this.pending.delete(socket));
    socket.on('error', (err) => this.logger.debug({ remote, err: err.message }, 'socket error before the first message'));
    let seen: Buffer = Buffer.alloc(0);
    const onData = (chunk: Buffer) => {
      seen = seen.length === 0 ? chunk : Buffer.concat([seen, chunk]);
      const kind = classifyFirstBytes(seen);
      if (kind === 'more') return;
      socket.off('data', onData);
      socket.pause();
      socket.unshift(seen);
      if (kind === 'tls') {
        tlsServer.emit('connection', socket);
      } else if (config.mode === 'requireTLS') {
        this.logger.info({ remote }, 'SSLHandshakeFailed: The server is configured to only allow SSL connections; connection closed');
        socket.destroy();
      } else {
        this.pending.delete(socket);
        this.open(socket, null);
      }
    };
    socket.on('data', onData);
  }

  /** A finished TLS handshake: mongod's rules for the client certificate, then a connection. */
  private acceptTls(secure: tls.TLSSocket): void {
    const remote = `${secure.remoteAddress}:${secure.remotePort}`;
    const verdict = checkPeer(secure, this.tlsConfig!);
    if (!verdict.accept) {
      this.logger.warn({ remote }, verdict.reason);
      secure.destroy();
      return;
    }
    if (verdict.warning !== undefined) this.logger.warn({ remote }, verdict.warning);
    const version = /^TLSv(1\.[0-3])$/.exec(secure.getProtocol() ?? '')?.[1] ?? (secure.getProtocol() === 'TLSv1' ? '1.0' : 'unknown');
    this.counters.tlsVersions[version as keyof ServerCounters['tlsVersions']]++;
    let subject: string | null = null;
    if (verdict.certificate !== null) {
      try {
        subject = subjectNameOf(verdict.certificate);
      } catch (err) {
        // A certificate OpenSSL verified but whose subject this reader cannot parse: no X509 for it.
        this.logger.warn({ remote, err: err instanceof Error ? err.message : String(err) }, 'cannot read the client certificate subject');
      }
    }
    this.open(secure, subject);
  }

  private open(socket: net.Socket, tlsPeerSubject: string | null): void {
    const id = this.nextConnectionId++;
    const conn = new Connection(this, socket, id, () => {
      this.connections.delete(conn);
      this.counters.connectionsCurrent--;
    }, tlsPeerSubject);
    this.connections.add(conn);
    this.counters.connectionsCurrent++;
    this.counters.connectionsTotal++;
  }
}
