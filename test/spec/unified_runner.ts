/**
 * A runner for the MongoDB specifications' "Unified Test Format"
 * (mongodb/specifications source/unified-test-format/unified-test-format.md), for the subset a
 * standalone server supports, driving the official Node.js driver against the server under test.
 *
 * Supported: schema versions up to 1.23 (features this runner does not implement raise an error,
 * so the test fails instead of passing silently); entities client (uriOptions, observeEvents for
 * command, CMAP and SDAM events, ignoreCommandMonitoringEvents, observeSensitiveCommands,
 * storeEventsAsEntities, serverApi), database, collection, session, bucket, thread; cursor
 * entities from createFindCursor/createCommandCursor; `initialData` (with createOptions);
 * collection, database, client, session, bucket and cursor operations; the special operations
 * of the testRunner object that make sense against a standalone; `expectResult`, `expectError`,
 * `expectEvents` (command, cmap, sdam) and `outcome`.
 *
 * Every read whose result is matched is decoded with `promoteValues: false`, so that `$$type`
 * sees exact BSON types (an int32 1 and a double 1.0 are told apart); cursor reads take raw
 * bytes and decode them here, so the driver's own reply handling (retries) is untouched.
 */
import { readFileSync } from 'node:fs';
import {
  BSON,
  GridFSBucket,
  MongoBulkWriteError,
  MongoClient,
  MongoClientBulkWriteError,
  MongoServerError,
  ReadPreference,
  type AbstractCursor,
  type ClientSession,
  type Collection,
  type Db,
  type Document,
  type MongoClientOptions,
} from 'mongodb';
import { ErrorCodes } from '../../src/errors/codes.js';
import { describeValue, exactMismatch, isDocument, matchValue, MatchError, type MatchContext } from './matcher.js';
import { compareVersions, parseVersion, requirementsUnmet, type RunOnRequirement, type ServerFacts } from './requirements.js';

const { EJSON } = BSON;

/** The newest schema version this runner accepts (same major version only). */
export const SUPPORTED_SCHEMA_VERSION: readonly [number, number, number] = [1, 23, 0];

/** Options of reads whose results are matched: keep exact BSON types. */
const EXACT_TYPES = { promoteValues: false, promoteLongs: false } as const;

/**
 * Cursor reads take their documents as raw bytes and decode them with `EXACT_TYPES` here, so
 * that the driver's own reply handling (an error's code, which decides a retryable read's
 * retry) sees promoted values, as in an application.
 */
const RAW = { raw: true } as const;
const exactDocs = (raw: unknown[]): Document[] => raw.map((b) => BSON.deserialize(b as Uint8Array, EXACT_TYPES));

/**
 * An error reply of a raw read: its subdocuments arrive as bytes (a real binData is a `Binary`),
 * decoded here with `EXACT_TYPES`.
 */
function unraw(value: unknown): unknown {
  if (value instanceof Uint8Array) return BSON.deserialize(value, EXACT_TYPES);
  if (Array.isArray(value)) return value.map(unraw);
  if (isDocument(value)) return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, unraw(v)]));
  return value;
}

/** One operation of a test. */
export interface SpecOperation {
  name: string;
  object: string;
  arguments?: Record<string, unknown>;
  expectError?: ExpectedError;
  expectResult?: unknown;
  saveResultAsEntity?: string;
  ignoreResultAndError?: boolean;
}

/** `expectError`. */
export interface ExpectedError {
  isError?: boolean;
  isClientError?: boolean;
  isTimeoutError?: boolean;
  errorContains?: string;
  errorCode?: number;
  errorCodeName?: string;
  errorLabelsContain?: string[];
  errorLabelsOmit?: string[];
  writeErrors?: Record<string, unknown>;
  writeConcernErrors?: unknown[];
  errorResponse?: Document;
  expectResult?: unknown;
}

/** `collectionData` (initialData and outcome). */
export interface CollectionData {
  collectionName: string;
  databaseName: string;
  createOptions?: Document;
  documents: Document[];
}

/** `expectedEventsForClient`. */
export interface ExpectedEventsForClient {
  client: string;
  eventType?: 'command' | 'cmap' | 'sdam';
  events: Document[];
  ignoreExtraEvents?: boolean;
}

/** One test of a file. */
export interface SpecTest {
  description: string;
  runOnRequirements?: RunOnRequirement[];
  skipReason?: string;
  operations: SpecOperation[];
  expectEvents?: ExpectedEventsForClient[];
  expectLogMessages?: unknown[];
  outcome?: CollectionData[];
}

/** A test file. */
export interface SpecFile {
  description: string;
  schemaVersion: string;
  runOnRequirements?: RunOnRequirement[];
  createEntities?: Document[];
  initialData?: CollectionData[];
  tests: SpecTest[];
}

/** Loads a test file with an Extended JSON parser that keeps BSON types (canonical mode). */
export function loadSpecFile(path: string): SpecFile {
  return EJSON.parse(readFileSync(path, 'utf8'), { relaxed: false }) as unknown as SpecFile;
}

/** What a run needs: the server's URI, the internal client and the server's facts. */
export interface RunnerEnvironment {
  uri: string;
  /** The internal MongoClient (initialData, outcome, assert* operations). */
  internal: MongoClient;
  facts: ServerFacts;
  /**
   * Documented deviations of the driver from its specifications that this run neutralises
   * (`DRIVER_DEVIATIONS`); none in a normal run. The suite reruns a test listed as failing for
   * such a deviation with it neutralised, to check that the deviation is the only cause.
   */
  neutralise?: ReadonlySet<DriverDeviation>;
}

/**
 * Deviations of the Node.js driver from the specifications that a rerun can neutralise exactly:
 *   - `commitAbortWtimeout`: the driver 7.9 adds `wtimeout: 10000` to the writeConcern of every
 *     commitTransaction/abortTransaction whenever a writeConcern is set
 *     (`node_modules/mongodb/lib/sessions.js`, `WriteConcern.apply(command, { wtimeoutMS: 10000,
 *     w: 'majority', ...wc })`), where the transactions specification adds it only to a retried
 *     commit. Neutralised: in an observed commandStartedEvent of commitTransaction or
 *     abortTransaction, `writeConcern.wtimeout` equal to 10000 is dropped before matching, when
 *     the expected event's `command.writeConcern` is a document that does not name `wtimeout`
 *     (so a test that expects the retry's wtimeout still sees it). Nothing else is touched.
 */
export const DRIVER_DEVIATIONS = ['commitAbortWtimeout'] as const;
export type DriverDeviation = (typeof DRIVER_DEVIATIONS)[number];

/** The observed event as `neutralise` lets `expected` see it (see DRIVER_DEVIATIONS). */
export function neutralisedEvent(expected: Document, observed: { type: string; event: Record<string, unknown> }, neutralise: ReadonlySet<DriverDeviation> | undefined): { type: string; event: Record<string, unknown> } {
  if (neutralise === undefined || !neutralise.has('commitAbortWtimeout')) return observed;
  if (observed.type !== 'commandStartedEvent') return observed;
  const name = observed.event.commandName;
  if (name !== 'commitTransaction' && name !== 'abortTransaction') return observed;
  const wantedWc = (expected.commandStartedEvent as Document | undefined)?.command?.writeConcern;
  if (!isDocument(wantedWc) || Object.hasOwn(wantedWc, 'wtimeout')) return observed;
  const command = observed.event.command as Document | undefined;
  const wc = command?.writeConcern;
  if (!isDocument(wc) || !Object.hasOwn(wc, 'wtimeout') || Number(plain(wc.wtimeout)) !== 10000) return observed;
  const { wtimeout: _dropped, ...rest } = wc;
  return { type: observed.type, event: { ...observed.event, command: { ...command, writeConcern: rest } } };
}

/** Asks the server what `runOnRequirements` need: version, topology, parameters. */
export async function probeServer(internal: MongoClient): Promise<ServerFacts> {
  const admin = internal.db('admin');
  const build = await admin.command({ buildInfo: 1 });
  const hello = await admin.command({ hello: 1 });
  const versionArray = (build.versionArray as number[] | undefined) ?? parseVersion(String(build.version));
  let topology = 'single';
  if (hello.msg === 'isdbgrid') topology = 'sharded';
  else if (hello.setName !== undefined) topology = 'replicaset';
  let parameters: Record<string, unknown> = {};
  try {
    parameters = await admin.command({ getParameter: '*' });
  } catch {
    parameters = {};
  }
  return {
    version: [Number(versionArray[0] ?? 0), Number(versionArray[1] ?? 0), Number(versionArray[2] ?? 0)],
    topology,
    auth: false,
    serverless: false,
    csfle: false,
    parameters,
  };
}

/** Throws unless the file's schemaVersion is one this runner can process. */
export function checkSchemaVersion(file: SpecFile): void {
  const v = parseVersion(file.schemaVersion);
  if (v[0] !== SUPPORTED_SCHEMA_VERSION[0] || compareVersions(v, SUPPORTED_SCHEMA_VERSION) > 0) {
    throw new RunnerError(`schemaVersion ${file.schemaVersion} is not supported (runner supports ${SUPPORTED_SCHEMA_VERSION.join('.')})`);
  }
}

/** Why a test must not run against this server (runOnRequirements, skipReason), or undefined. */
export function notApplicableReason(file: SpecFile, test: SpecTest, facts: ServerFacts): string | undefined {
  const fileReason = requirementsUnmet(file.runOnRequirements, facts);
  if (fileReason) return fileReason;
  const testReason = requirementsUnmet(test.runOnRequirements, facts);
  if (testReason) return testReason;
  if (test.skipReason !== undefined) return `skipReason: ${test.skipReason}`;
  return undefined;
}

/** An error of the runner itself (unsupported feature, bad test file): never an expected error. */
export class RunnerError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'RunnerError';
  }
}

/** A failed assertion of a test. */
export class AssertionFailure extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'AssertionFailure';
  }
}

// ---------------------------------------------------------------------------------------------
// Entities

const COMMAND_EVENTS = { commandStartedEvent: 'commandStarted', commandSucceededEvent: 'commandSucceeded', commandFailedEvent: 'commandFailed' } as const;
const CMAP_EVENTS = {
  poolCreatedEvent: 'connectionPoolCreated',
  poolReadyEvent: 'connectionPoolReady',
  poolClearedEvent: 'connectionPoolCleared',
  poolClosedEvent: 'connectionPoolClosed',
  connectionCreatedEvent: 'connectionCreated',
  connectionReadyEvent: 'connectionReady',
  connectionClosedEvent: 'connectionClosed',
  connectionCheckOutStartedEvent: 'connectionCheckOutStarted',
  connectionCheckOutFailedEvent: 'connectionCheckOutFailed',
  connectionCheckedOutEvent: 'connectionCheckedOut',
  connectionCheckedInEvent: 'connectionCheckedIn',
} as const;
const SDAM_EVENTS = {
  serverDescriptionChangedEvent: 'serverDescriptionChanged',
  serverHeartbeatStartedEvent: 'serverHeartbeatStarted',
  serverHeartbeatSucceededEvent: 'serverHeartbeatSucceeded',
  serverHeartbeatFailedEvent: 'serverHeartbeatFailed',
  topologyDescriptionChangedEvent: 'topologyDescriptionChanged',
} as const;
const ALL_EVENTS: Record<string, string> = { ...COMMAND_EVENTS, ...CMAP_EVENTS, ...SDAM_EVENTS };
/** storeEventsAsEntities names (CamelCase, as in the CMAP and command monitoring specs). */
const STORED_EVENT_NAMES: Record<string, string> = {
  PoolCreatedEvent: 'connectionPoolCreated',
  PoolReadyEvent: 'connectionPoolReady',
  PoolClearedEvent: 'connectionPoolCleared',
  PoolClosedEvent: 'connectionPoolClosed',
  ConnectionCreatedEvent: 'connectionCreated',
  ConnectionReadyEvent: 'connectionReady',
  ConnectionClosedEvent: 'connectionClosed',
  ConnectionCheckOutStartedEvent: 'connectionCheckOutStarted',
  ConnectionCheckOutFailedEvent: 'connectionCheckOutFailed',
  ConnectionCheckedOutEvent: 'connectionCheckedOut',
  ConnectionCheckedInEvent: 'connectionCheckedIn',
  CommandStartedEvent: 'commandStarted',
  CommandSucceededEvent: 'commandSucceeded',
  CommandFailedEvent: 'commandFailed',
};
const SENSITIVE_COMMANDS = new Set(['authenticate', 'saslstart', 'saslcontinue', 'getnonce', 'createuser', 'updateuser', 'copydbgetnonce', 'copydbsaslstart', 'copydb']);
const HELLO_COMMANDS = new Set(['hello', 'ismaster']);

/** One observed event: its unified-format type name and the driver's event object. */
interface ObservedEvent {
  type: string;
  event: Record<string, unknown>;
}

/** A client entity and what it observed. */
interface ClientEntity {
  kind: 'client';
  client: MongoClient;
  observed: Set<string>;
  ignoredCommands: Set<string>;
  observeSensitive: boolean;
  events: ObservedEvent[];
  recording: boolean;
  checkedOut: number;
  /** requestIds of sensitive commands (their succeeded/failed events are ignored too). */
  sensitiveRequests: Set<unknown>;
}

type Entity =
  | ClientEntity
  | { kind: 'database'; db: Db }
  | { kind: 'collection'; coll: Collection }
  | { kind: 'session'; session: ClientSession; clientName: string }
  | { kind: 'bucket'; bucket: GridFSBucket }
  | { kind: 'cursor'; cursor: AbstractCursor }
  | { kind: 'thread'; queue: Promise<void>; error: unknown }
  | { kind: 'value'; value: unknown };

/** The per-test entity map. */
class EntityMap implements MatchContext {
  private readonly map = new Map<string, Entity>();

  set(name: string, entity: Entity): void {
    if (this.map.has(name)) throw new RunnerError(`entity ${name} already exists`);
    this.map.set(name, entity);
  }

  get<K extends Entity['kind']>(name: string, kind: K): Extract<Entity, { kind: K }> {
    const e = this.map.get(name);
    if (!e) throw new RunnerError(`no entity named ${name}`);
    if (e.kind !== kind) throw new RunnerError(`entity ${name} is a ${e.kind}, expected a ${kind}`);
    return e as Extract<Entity, { kind: K }>;
  }

  find(name: string): Entity | undefined {
    return this.map.get(name);
  }

  all(): IterableIterator<[string, Entity]> {
    return this.map.entries();
  }

  entity(name: string): unknown {
    return this.get(name, 'value').value;
  }

  sessionLsid(name: string): unknown {
    return this.get(name, 'session').session.id;
  }
}

function toReadConcern(value: unknown): Document | undefined {
  return isDocument(value) ? { level: value.level } : undefined;
}

function toWriteConcern(value: unknown): Document | undefined {
  if (!isDocument(value)) return undefined;
  const wc: Document = {};
  if (value.w !== undefined) wc.w = plain(value.w);
  if (value.journal !== undefined) wc.journal = value.journal;
  if (value.wtimeoutMS !== undefined) wc.wtimeoutMS = plain(value.wtimeoutMS);
  return wc;
}

function toReadPreference(value: unknown): ReadPreference | undefined {
  if (!isDocument(value)) return undefined;
  const maxStalenessSeconds = value.maxStalenessSeconds === undefined ? undefined : Number(plain(value.maxStalenessSeconds));
  return new ReadPreference(value.mode as never, value.tagSets as never, {
    ...(maxStalenessSeconds === undefined ? {} : { maxStalenessSeconds }),
    ...(value.hedge === undefined ? {} : { hedge: value.hedge as never }),
  });
}

/** A JS number for Int32/Double wrappers (driver options want plain numbers). */
function plain(value: unknown): unknown {
  const tag = (value as { _bsontype?: string } | null)?._bsontype;
  if (tag === 'Int32' || tag === 'Double') return (value as { valueOf(): number }).valueOf();
  if (tag === 'Long') return Number((value as { toString(): string }).toString());
  return value;
}

/** Plain numbers everywhere in an options object (not in documents sent to the server). */
function plainOptions(options: Document): Document {
  const out: Document = {};
  for (const [k, v] of Object.entries(options)) out[k] = plain(v);
  return out;
}

function collectionOrDatabaseOptions(value: unknown): Document {
  if (!isDocument(value)) return {};
  const out: Document = {};
  for (const [k, v] of Object.entries(value)) {
    if (k === 'readConcern') out.readConcern = toReadConcern(v);
    else if (k === 'writeConcern') out.writeConcern = toWriteConcern(v);
    else if (k === 'readPreference') out.readPreference = toReadPreference(v);
    else if (k === 'timeoutMS') out.timeoutMS = plain(v);
    else throw new RunnerError(`unsupported collection/database option ${k}`);
  }
  return out;
}

/** The client's URI: the server's plus `uriOptions`. */
function clientUri(base: string, uriOptions: Document | undefined): string {
  const url = new URL(base);
  for (const [key, raw] of Object.entries(uriOptions ?? {})) {
    const value = plain(raw);
    if (Array.isArray(value)) {
      for (const v of value) url.searchParams.append(key, String(v));
    } else if (isDocument(value)) {
      url.searchParams.set(key, Object.entries(value).map(([k, v]) => `${k}:${String(plain(v))}`).join(','));
    } else {
      url.searchParams.set(key, String(value));
    }
  }
  return url.toString();
}

// ---------------------------------------------------------------------------------------------
// Running a test

/** State of one running test. */
class TestRun {
  readonly entities = new EntityMap();
  /** Fail points to turn off after the test: [client, name]. */
  readonly failPoints: Array<[MongoClient, string]> = [];

  constructor(
    readonly env: RunnerEnvironment,
    readonly file: SpecFile,
  ) {}

  async createEntities(defs: readonly Document[]): Promise<void> {
    for (const def of defs) {
      const keys = Object.keys(def);
      if (keys.length !== 1) throw new RunnerError(`an entity must have exactly one key: ${describeValue(def)}`);
      const kind = keys[0]!;
      const spec = def[kind] as Document;
      const id = spec.id as string;
      switch (kind) {
        case 'client':
          this.entities.set(id, await this.createClient(spec));
          break;
        case 'database': {
          const client = this.entities.get(spec.client as string, 'client').client;
          this.entities.set(id, { kind: 'database', db: client.db(spec.databaseName as string, collectionOrDatabaseOptions(spec.databaseOptions)) });
          break;
        }
        case 'collection': {
          const db = this.entities.get(spec.database as string, 'database').db;
          this.entities.set(id, {
            kind: 'collection',
            coll: db.collection(spec.collectionName as string, collectionOrDatabaseOptions(spec.collectionOptions)),
          });
          break;
        }
        case 'session': {
          const clientName = spec.client as string;
          const client = this.entities.get(clientName, 'client').client;
          const options = isDocument(spec.sessionOptions) ? sessionOptions(spec.sessionOptions) : {};
          // `snapshotTime` names a saved entity; the driver takes it as the session's (internal) snapshotTime.
          const snapshotTime = typeof options.snapshotTime === 'string' ? this.entities.get(options.snapshotTime, 'value').value : undefined;
          delete options.snapshotTime;
          const session = client.startSession(options);
          if (snapshotTime !== undefined) (session as unknown as { snapshotTime: unknown }).snapshotTime = snapshotTime;
          this.entities.set(id, { kind: 'session', session, clientName });
          break;
        }
        case 'bucket': {
          const db = this.entities.get(spec.database as string, 'database').db;
          const opts = isDocument(spec.bucketOptions) ? plainOptions(spec.bucketOptions) : {};
          this.entities.set(id, { kind: 'bucket', bucket: new GridFSBucket(db, opts) });
          break;
        }
        case 'thread':
          this.entities.set(id, { kind: 'thread', queue: Promise.resolve(), error: undefined });
          break;
        default:
          throw new RunnerError(`unsupported entity type ${kind}`);
      }
    }
  }

  private async createClient(spec: Document): Promise<ClientEntity> {
    for (const key of Object.keys(spec)) {
      if (!['id', 'uriOptions', 'useMultipleMongoses', 'observeEvents', 'ignoreCommandMonitoringEvents', 'observeSensitiveCommands', 'storeEventsAsEntities', 'serverApi'].includes(key)) {
        throw new RunnerError(`unsupported client option ${key}`);
      }
    }
    const uriOptions = (spec.uriOptions as Document | undefined) ?? {};
    const observed = new Set((spec.observeEvents as string[] | undefined) ?? []);
    for (const name of observed) if (!(name in ALL_EVENTS)) throw new RunnerError(`unsupported observeEvents entry ${name}`);
    // No connection is checked out by connect() itself (the driver's own unified runner does the
    // same): CMAP events then show only what the test's operations do.
    const options: MongoClientOptions = { monitorCommands: true, ...({ __skipPingOnConnect: true } as MongoClientOptions) };
    if (!('serverSelectionTimeoutMS' in uriOptions)) options.serverSelectionTimeoutMS = 5000;
    if (isDocument(spec.serverApi)) {
      options.serverApi = {
        version: spec.serverApi.version as '1',
        ...(spec.serverApi.strict === undefined ? {} : { strict: spec.serverApi.strict as boolean }),
        ...(spec.serverApi.deprecationErrors === undefined ? {} : { deprecationErrors: spec.serverApi.deprecationErrors as boolean }),
      };
    }
    const client = new MongoClient(clientUri(this.env.uri, uriOptions), options);
    const entity: ClientEntity = {
      kind: 'client',
      client,
      observed,
      ignoredCommands: new Set(((spec.ignoreCommandMonitoringEvents as string[] | undefined) ?? []).map((c) => c.toLowerCase())),
      observeSensitive: spec.observeSensitiveCommands === true,
      events: [],
      recording: true,
      checkedOut: 0,
      sensitiveRequests: new Set(),
    };
    client.on('connectionCheckedOut', () => entity.checkedOut++);
    client.on('connectionCheckedIn', () => entity.checkedOut--);
    for (const name of observed) {
      const driverEvent = ALL_EVENTS[name]!;
      client.on(driverEvent as 'commandStarted', (event: unknown) => {
        if (!entity.recording) return;
        if (!this.keepEvent(entity, name, event as Record<string, unknown>)) return;
        entity.events.push({ type: name, event: asSent(event as Record<string, unknown>) });
      });
    }
    for (const store of (spec.storeEventsAsEntities as Document[] | undefined) ?? []) {
      const list: Document[] = [];
      this.entities.set(store.id as string, { kind: 'value', value: list });
      for (const name of store.events as string[]) {
        const driverEvent = STORED_EVENT_NAMES[name];
        if (!driverEvent) throw new RunnerError(`unsupported storeEventsAsEntities event ${name}`);
        client.on(driverEvent as 'commandStarted', (event: unknown) => {
          const e = event as Record<string, unknown>;
          const doc: Document = { name, observedAt: Number(process.hrtime.bigint()) / 1e9 };
          for (const [k, v] of Object.entries(e)) if (typeof v !== 'function' && typeof v !== 'object') doc[k] = v;
          list.push(doc);
        });
      }
    }
    await client.connect();
    return entity;
  }

  /** Whether an observed event counts (configureFailPoint, ignored and sensitive commands do not). */
  private keepEvent(entity: ClientEntity, type: string, event: Record<string, unknown>): boolean {
    if (!(type in COMMAND_EVENTS)) return true;
    const name = String(event.commandName).toLowerCase();
    if (name === 'configurefailpoint') return false;
    if (entity.ignoredCommands.has(name)) return false;
    if (!entity.observeSensitive) {
      if (type === 'commandStartedEvent') {
        const command = event.command as Document | undefined;
        const redactedHello = HELLO_COMMANDS.has(name) && command !== undefined && Object.keys(command).length === 0;
        if (SENSITIVE_COMMANDS.has(name) || redactedHello) {
          entity.sensitiveRequests.add(event.requestId);
          return false;
        }
      } else if (SENSITIVE_COMMANDS.has(name) || entity.sensitiveRequests.has(event.requestId)) {
        return false;
      }
    }
    return true;
  }

  async setUpInitialData(): Promise<void> {
    for (const data of this.file.initialData ?? []) {
      const db = this.env.internal.db(data.databaseName);
      const majority = { writeConcern: { w: 'majority' as const } };
      await db.dropCollection(data.collectionName, majority).catch((err: unknown) => {
        if (!(err instanceof MongoServerError && err.code === 26)) throw err;
      });
      if (data.createOptions !== undefined) {
        await db.command({ create: data.collectionName, ...data.createOptions, writeConcern: { w: 'majority' } });
      }
      if (data.documents.length > 0) {
        await db.collection(data.collectionName).insertMany(data.documents.map((d) => ({ ...d })), majority);
      } else if (data.createOptions === undefined) {
        await db.command({ create: data.collectionName, writeConcern: { w: 'majority' } });
      }
    }
  }

  /**
   * Runs one operation and checks its outcome. `rethrow` (the operations of a `withTransaction`
   * callback, as the drivers' runners do): an expected or ignored error, once checked, is thrown
   * on, so that the callback fails and the driver aborts the transaction.
   */
  async runOperation(op: SpecOperation, rethrow = false): Promise<void> {
    if (op.object === 'testRunner') {
      await this.runSpecialOperation(op);
      return;
    }
    let result: OpResult | undefined;
    let error: unknown;
    try {
      result = await executeEntityOperation(this, op);
    } catch (err) {
      if (err instanceof RunnerError || err instanceof AssertionFailure || err instanceof MatchError) throw err;
      error = err;
    }
    const where = `operation ${op.name} on ${op.object}`;
    if (op.ignoreResultAndError) {
      // In a withTransaction callback the error still reaches withTransaction (mongodb/specifications
      // a386623: "Callback operation errors should always propagate to withTransaction").
      if (rethrow && error !== undefined) throw error;
      return;
    }
    if (op.expectError !== undefined) {
      if (error === undefined) throw new AssertionFailure(`${where}: expected an error, got ${describeValue(result?.value)}`);
      checkError(op.expectError, error, this.entities, where);
      if (rethrow) throw error;
      return;
    }
    if (error !== undefined) {
      const e = error as { message?: string; code?: unknown; codeName?: string };
      throw new AssertionFailure(`${where}: unexpected error ${e.codeName ?? ''}(${String(plain(e.code))}): ${e.message ?? String(error)}`);
    }
    if (op.expectResult !== undefined) {
      try {
        matchResult(op.expectResult, result!, this.entities);
      } catch (err) {
        if (err instanceof MatchError) throw new AssertionFailure(`${where}: result does not match: ${err.message}`);
        throw err;
      }
    }
    if (op.saveResultAsEntity !== undefined) {
      if (result === undefined) throw new RunnerError(`${where} returned nothing to save as ${op.saveResultAsEntity}`);
      this.entities.set(op.saveResultAsEntity, result.entity ?? { kind: 'value', value: result.value });
    }
  }

  private async runSpecialOperation(op: SpecOperation): Promise<void> {
    const args = op.arguments ?? {};
    const internal = this.env.internal;
    switch (op.name) {
      case 'createEntities':
        await this.createEntities(args.entities as Document[]);
        return;
      case 'failPoint': {
        const client = this.entities.get(args.client as string, 'client').client;
        const fp = args.failPoint as Document;
        await client.db('admin').command(fp);
        this.failPoints.push([client, fp.configureFailPoint as string]);
        return;
      }
      case 'assertCollectionExists':
      case 'assertCollectionNotExists': {
        const names = (await internal.db(args.databaseName as string).listCollections({}, { nameOnly: true }).toArray()).map((c) => c.name);
        const exists = names.includes(args.collectionName as string);
        if (exists !== (op.name === 'assertCollectionExists')) {
          throw new AssertionFailure(`collection ${String(args.databaseName)}.${String(args.collectionName)} ${exists ? 'exists' : 'does not exist'}`);
        }
        return;
      }
      case 'assertIndexExists':
      case 'assertIndexNotExists': {
        let names: string[] = [];
        try {
          names = (await internal.db(args.databaseName as string).collection(args.collectionName as string).listIndexes().toArray()).map((i) => i.name as string);
        } catch (err) {
          if (!(err instanceof MongoServerError && err.code === 26)) throw err;
        }
        const exists = names.includes(args.indexName as string);
        if (exists !== (op.name === 'assertIndexExists')) throw new AssertionFailure(`index ${String(args.indexName)} ${exists ? 'exists' : 'does not exist'}`);
        return;
      }
      case 'assertSessionDirty':
      case 'assertSessionNotDirty': {
        const session = this.entities.get(args.session as string, 'session').session;
        const dirty = session.serverSession?.isDirty === true;
        if (dirty !== (op.name === 'assertSessionDirty')) throw new AssertionFailure(`session is ${dirty ? '' : 'not '}dirty`);
        return;
      }
      case 'assertSessionTransactionState': {
        const session = this.entities.get(args.session as string, 'session').session as unknown as { transaction: { state: string } };
        const states: Record<string, string> = {
          NO_TRANSACTION: 'none',
          STARTING_TRANSACTION: 'starting',
          TRANSACTION_IN_PROGRESS: 'in_progress',
          TRANSACTION_COMMITTED: 'committed',
          TRANSACTION_COMMITTED_EMPTY: 'committed',
          TRANSACTION_ABORTED: 'aborted',
        };
        const state = states[session.transaction.state] ?? session.transaction.state;
        if (state !== args.state) throw new AssertionFailure(`session transaction state is ${state}, expected ${String(args.state)}`);
        return;
      }
      case 'assertSessionPinned':
      case 'assertSessionUnpinned': {
        const session = this.entities.get(args.session as string, 'session').session as unknown as { isPinned: boolean };
        if (session.isPinned !== (op.name === 'assertSessionPinned')) throw new AssertionFailure(`session is ${session.isPinned ? '' : 'not '}pinned`);
        return;
      }
      case 'assertSameLsidOnLastTwoCommands':
      case 'assertDifferentLsidOnLastTwoCommands': {
        const entity = this.entities.get(args.client as string, 'client');
        const started = entity.events.filter((e) => e.type === 'commandStartedEvent');
        if (started.length < 2) throw new AssertionFailure('fewer than two commandStartedEvents were observed');
        const [a, b] = started.slice(-2).map((e) => (e.event.command as Document).lsid);
        if (a === undefined || b === undefined) throw new AssertionFailure('a command has no lsid');
        const same = exactMismatch(a, b, 'lsid') === undefined;
        if (same !== (op.name === 'assertSameLsidOnLastTwoCommands')) throw new AssertionFailure(`the last two lsids are ${same ? 'the same' : 'different'}`);
        return;
      }
      case 'assertNumberConnectionsCheckedOut': {
        const entity = this.entities.get(args.client as string, 'client');
        const want = Number(plain(args.connections));
        if (entity.checkedOut !== want) throw new AssertionFailure(`${entity.checkedOut} connections checked out, expected ${want}`);
        return;
      }
      case 'runOnThread': {
        const thread = this.entities.get(args.thread as string, 'thread');
        const inner = args.operation as SpecOperation;
        thread.queue = thread.queue.then(() => this.runOperation(inner)).catch((err: unknown) => {
          thread.error ??= err;
        });
        return;
      }
      case 'waitForThread': {
        const thread = this.entities.get(args.thread as string, 'thread');
        await withTimeout(thread.queue, 10_000, `thread ${String(args.thread)} did not finish`);
        if (thread.error !== undefined) throw thread.error;
        return;
      }
      case 'wait':
        await new Promise((resolve) => setTimeout(resolve, Number(plain(args.ms))));
        return;
      case 'waitForEvent':
      case 'assertEventCount': {
        const entity = this.entities.get(args.client as string, 'client');
        const expected = args.event as Document;
        const want = Number(plain(args.count));
        const count = (): number => entity.events.filter((e) => eventMismatch(expected, e, this.entities) === undefined).length;
        if (op.name === 'assertEventCount') {
          if (count() !== want) throw new AssertionFailure(`observed ${count()} matching event(s), expected ${want}`);
          return;
        }
        const deadline = process.hrtime.bigint() + 10_000_000_000n;
        while (count() < want) {
          if (process.hrtime.bigint() > deadline) throw new AssertionFailure(`waited 10s for ${want} event(s) ${describeValue(expected)}`);
          await new Promise((resolve) => setTimeout(resolve, 10));
        }
        return;
      }
      default:
        throw new RunnerError(`unsupported special operation ${op.name}`);
    }
  }

  /** Stops recording events (before anything the runner does itself after the operations). */
  stopRecording(): void {
    for (const [, e] of this.entities.all()) if (e.kind === 'client') e.recording = false;
  }

  checkEvents(expectations: readonly ExpectedEventsForClient[]): void {
    for (const exp of expectations) {
      const entity = this.entities.get(exp.client, 'client');
      const category = exp.eventType ?? 'command';
      const table: Record<string, string> = category === 'command' ? COMMAND_EVENTS : category === 'cmap' ? CMAP_EVENTS : SDAM_EVENTS;
      const actual = entity.events.filter((e) => e.type in table);
      const where = `events of ${exp.client} (${category})`;
      if (exp.ignoreExtraEvents === true ? actual.length < exp.events.length : actual.length !== exp.events.length) {
        throw new AssertionFailure(
          `${where}: expected ${exp.events.length} event(s), observed ${actual.length}: ${actual.map((e) => describeEvent(e)).join(', ')}`,
        );
      }
      if (process.env.SPEC_DEBUG === '1') console.log(`OBSERVED ${where}: ${actual.map((e) => `${describeEvent(e)} ${JSON.stringify(e.event.command ?? e.event.reply ?? {})}`).join('\n  ')}`);
      exp.events.forEach((expected, i) => {
        const why = eventMismatch(expected, neutralisedEvent(expected, actual[i]!, this.env.neutralise), this.entities);
        if (why) throw new AssertionFailure(`${where}[${i}]: ${why}`);
      });
    }
  }

  async checkOutcome(outcome: readonly CollectionData[]): Promise<void> {
    for (const data of outcome) {
      const docs = await this.env.internal
        .db(data.databaseName)
        .collection(data.collectionName)
        .find({}, { sort: { _id: 1 }, readPreference: ReadPreference.primary, readConcern: { level: 'local' }, ...EXACT_TYPES })
        .toArray();
      const ns = `${data.databaseName}.${data.collectionName}`;
      if (docs.length !== data.documents.length) {
        throw new AssertionFailure(`outcome ${ns}: expected ${data.documents.length} document(s), found ${docs.length}: ${describeValue(docs)}`);
      }
      data.documents.forEach((expected, i) => {
        const why = exactMismatch(expected, docs[i], `[${i}]`);
        if (why) throw new AssertionFailure(`outcome ${ns}: ${why}`);
      });
    }
  }

  async cleanUp(): Promise<void> {
    this.stopRecording();
    for (const [client, name] of this.failPoints) {
      await client.db('admin').command({ configureFailPoint: name, mode: 'off' }).catch(() => undefined);
    }
    for (const [, e] of this.entities.all()) {
      if (e.kind === 'cursor') await e.cursor.close().catch(() => undefined);
    }
    for (const [, e] of this.entities.all()) {
      if (e.kind === 'session') await e.session.endSession().catch(() => undefined);
    }
    for (const [, e] of this.entities.all()) {
      if (e.kind === 'client') await e.client.close().catch(() => undefined);
    }
  }
}

function sessionOptions(spec: Document): Document {
  const out: Document = {};
  for (const [k, v] of Object.entries(spec)) {
    if (k === 'defaultTransactionOptions' && isDocument(v)) {
      const t: Document = {};
      for (const [tk, tv] of Object.entries(v)) {
        if (tk === 'readConcern') t.readConcern = toReadConcern(tv);
        else if (tk === 'writeConcern') t.writeConcern = toWriteConcern(tv);
        else if (tk === 'readPreference') t.readPreference = toReadPreference(tv);
        else t[tk] = plain(tv);
      }
      out.defaultTransactionOptions = t;
    } else {
      out[k] = plain(v);
    }
  }
  return out;
}

async function withTimeout<T>(promise: Promise<T>, ms: number, message: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new AssertionFailure(message)), ms);
  });
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * A command event with its command copied as it is now, when it is sent. The driver's event
 * holds the command document it sent, whose subdocuments may be shared with its own options
 * and changed by later commands (7.9 sets a transaction's first `readConcern` to the client's
 * readConcern object itself, then adds `afterClusterTime` to that same object when the next
 * transaction starts): the event must show what went on the wire, not what the object became.
 */
function asSent(event: Record<string, unknown>): Record<string, unknown> {
  if (!isDocument(event.command) && !(event.command instanceof Map)) return event;
  const copy = Object.assign(Object.create(Object.getPrototypeOf(event) as object) as Record<string, unknown>, event);
  copy.command = copyDocuments(event.command);
  return copy;
}

/** A copy of the documents and arrays in `value` (BSON values shared). */
function copyDocuments(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(copyDocuments);
  if (value instanceof Map) return new Map([...value].map(([k, v]) => [k, copyDocuments(v)]));
  // Plain objects and the driver's option classes (a ReadConcern) alike: their own fields.
  if (isDocument(value)) {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = copyDocuments(v);
    return out;
  }
  return value;
}

function describeEvent(e: ObservedEvent): string {
  const name = e.event.commandName;
  return name === undefined ? e.type : `${e.type}(${String(name)})`;
}

/** Why an observed event does not match an expected one, or undefined. */
function eventMismatch(expected: Document, observed: ObservedEvent, ctx: MatchContext): string | undefined {
  const keys = Object.keys(expected);
  if (keys.length !== 1) throw new RunnerError(`an expected event must have exactly one key: ${describeValue(expected)}`);
  const type = keys[0]!;
  if (!(type in ALL_EVENTS)) throw new RunnerError(`unsupported expected event ${type}`);
  if (observed.type !== type) return `expected ${type}, observed ${describeEvent(observed)}`;
  const spec = expected[type] as Document;
  const e = observed.event;
  try {
    for (const [key, value] of Object.entries(spec)) {
      switch (key) {
        case 'command':
          matchValue(value, e.command, ctx, 'command', true);
          break;
        case 'reply':
          matchValue(value, e.reply, ctx, 'reply', true);
          break;
        case 'commandName':
        case 'databaseName':
          if (e[key] !== value) return `${key} is ${String(e[key])}, expected ${String(value)}`;
          break;
        case 'hasServiceId': {
          const has = e.serviceId !== undefined && e.serviceId !== null && !/^0+$/.test(String((e.serviceId as { toHexString?: () => string }).toHexString?.() ?? ''));
          if (has !== value) return `serviceId is ${has ? 'set' : 'not set'}`;
          break;
        }
        case 'hasServerConnectionId': {
          const id = e.serverConnectionId;
          const has = id !== undefined && id !== null && Number(id) > 0;
          if (has !== value) return `serverConnectionId is ${has ? 'set' : 'not set'}`;
          break;
        }
        case 'interruptInUseConnections':
          if (e.interruptInUseConnections !== value) return `interruptInUseConnections is ${String(e.interruptInUseConnections)}`;
          break;
        case 'reason':
          if (e.reason !== value) return `reason is ${String(e.reason)}, expected ${String(value)}`;
          break;
        case 'awaited':
          if (e.awaited !== value) return `awaited is ${String(e.awaited)}`;
          break;
        case 'previousDescription':
        case 'newDescription': {
          const desc = e[key] as { type?: string } | undefined;
          const want = value as Document;
          if (want.type !== undefined && desc?.type !== want.type) return `${key}.type is ${String(desc?.type)}, expected ${String(want.type)}`;
          break;
        }
        default:
          throw new RunnerError(`unsupported expected event field ${type}.${key}`);
      }
    }
  } catch (err) {
    if (err instanceof MatchError) return `${type}: ${err.message}`;
    throw err;
  }
  return undefined;
}

// ---------------------------------------------------------------------------------------------
// Results and errors

/** An operation's result: its value, how expectResult treats it, and an entity to save. */
interface OpResult {
  value: unknown;
  /** 'documents': an iterable of root-level documents; 'document': a root-level document. */
  shape: 'documents' | 'document' | 'value';
  entity?: Entity;
}

function matchResult(expected: unknown, result: OpResult, ctx: MatchContext): void {
  if (result.shape === 'documents' && Array.isArray(expected)) {
    const actual = result.value as unknown[];
    if (!Array.isArray(actual)) throw new MatchError('', `expected an array, got ${describeValue(actual)}`);
    if (actual.length !== expected.length) {
      throw new MatchError('', `expected ${expected.length} document(s), got ${actual.length}: ${describeValue(actual)}`);
    }
    expected.forEach((el, i) => matchValue(el, actual[i], ctx, `[${i}]`, true));
    return;
  }
  matchValue(expected, result.value, ctx, '', result.shape !== 'value' || isDocument(result.value));
}

function errorCodeOf(codeName: string): number | undefined {
  return (ErrorCodes as Record<string, number>)[codeName];
}

/** Server errors inside a bulk write error (write errors, write concern errors), as documents. */
function aggregatedErrors(error: unknown): Array<{ code?: number; codeName?: string; message: string }> {
  const out: Array<{ code?: number; codeName?: string; message: string }> = [];
  if (error instanceof MongoBulkWriteError) {
    for (const we of error.writeErrors as unknown as Array<{ code: number; errmsg?: string }>) {
      out.push({ code: Number(plain(we.code)), message: we.errmsg ?? '' });
    }
    const wce = (error.result as unknown as { getWriteConcernError?: () => { code: number; errmsg: string } | undefined }).getWriteConcernError?.();
    if (wce) out.push({ code: Number(plain(wce.code)), message: wce.errmsg });
  }
  if (error instanceof MongoClientBulkWriteError) {
    for (const [, we] of error.writeErrors) out.push({ code: Number(plain(we.code)), message: we.message });
    for (const wce of error.writeConcernErrors) out.push({ code: Number(plain(wce.code)), codeName: wce.codeName as string | undefined, message: String(wce.errmsg ?? wce.message ?? '') });
  }
  return out;
}

/** Converts a driver result model to the document the spec's CRUD API describes. */
function bulkWriteResultDoc(result: unknown): Document {
  const r = result as {
    insertedCount: number;
    matchedCount: number;
    modifiedCount: number;
    deletedCount: number;
    upsertedCount: number;
    insertedIds: Record<number, unknown>;
    upsertedIds: Record<number, unknown>;
  };
  return {
    deletedCount: r.deletedCount,
    insertedCount: r.insertedCount,
    insertedIds: { ...r.insertedIds },
    matchedCount: r.matchedCount,
    modifiedCount: r.modifiedCount,
    upsertedCount: r.upsertedCount,
    upsertedIds: { ...r.upsertedIds },
  };
}

function mapToDocument(map: ReadonlyMap<number, unknown> | undefined): Document | undefined {
  if (map === undefined) return undefined;
  const out: Document = {};
  for (const [k, v] of map) out[String(k)] = isDocument(v) ? stripUndefined(v) : v;
  return out;
}

function stripUndefined(doc: Document): Document {
  const out: Document = {};
  for (const [k, v] of Object.entries(doc)) if (v !== undefined) out[k] = v;
  return out;
}

function clientBulkWriteResultDoc(result: unknown): Document {
  const r = result as {
    acknowledged: boolean;
    insertedCount: number;
    upsertedCount: number;
    matchedCount: number;
    modifiedCount: number;
    deletedCount: number;
    insertResults?: ReadonlyMap<number, unknown>;
    updateResults?: ReadonlyMap<number, unknown>;
    deleteResults?: ReadonlyMap<number, unknown>;
  };
  const doc: Document = {
    acknowledged: r.acknowledged,
    insertedCount: r.insertedCount,
    upsertedCount: r.upsertedCount,
    matchedCount: r.matchedCount,
    modifiedCount: r.modifiedCount,
    deletedCount: r.deletedCount,
  };
  const ins = mapToDocument(r.insertResults);
  const upd = mapToDocument(r.updateResults);
  const del = mapToDocument(r.deleteResults);
  if (ins) doc.insertResults = ins;
  if (upd) {
    for (const v of Object.values(upd)) if (isDocument(v)) delete v.didUpsert;
    doc.updateResults = upd;
  }
  if (del) doc.deleteResults = del;
  return doc;
}

function checkError(expected: ExpectedError, error: unknown, ctx: MatchContext, where: string): void {
  const e = error as {
    message?: string;
    code?: unknown;
    codeName?: string;
    errorResponse?: Document;
    hasErrorLabel?: (label: string) => boolean;
    cause?: unknown;
    name?: string;
  };
  // A client bulk write's top-level server error is its cause.
  const top = error instanceof MongoClientBulkWriteError && error.cause instanceof MongoServerError ? (error.cause as typeof e) : e;
  const fail = (what: string): never => {
    throw new AssertionFailure(`${where}: ${what}; the error was ${e.name ?? 'Error'} ${top.codeName ?? ''}(${String(plain(top.code))}): ${top.message ?? String(error)}`);
  };
  const isServer = error instanceof MongoServerError;
  if (expected.isClientError !== undefined && expected.isClientError === isServer) fail(`expected ${expected.isClientError ? 'a client' : 'a server'} error`);
  if (expected.isTimeoutError !== undefined) {
    const timeout = e.name === 'MongoOperationTimeoutError';
    if (timeout !== expected.isTimeoutError) fail(`expected ${expected.isTimeoutError ? 'a' : 'no'} timeout error`);
  }
  const aggregated = aggregatedErrors(error);
  if (expected.errorContains !== undefined) {
    const needle = expected.errorContains.toLowerCase();
    const messages = [top.message ?? '', e.message ?? '', ...aggregated.map((a) => a.message)];
    if (!messages.some((m) => m.toLowerCase().includes(needle))) fail(`expected the message to contain "${expected.errorContains}"`);
  }
  if (expected.errorCode !== undefined) {
    const want = Number(plain(expected.errorCode));
    const codes = [top.code, ...aggregated.map((a) => a.code)].filter((c) => c !== undefined).map((c) => Number(plain(c)));
    if (!isServer || !codes.includes(want)) fail(`expected error code ${want}`);
  }
  if (expected.errorCodeName !== undefined) {
    const want = expected.errorCodeName.toLowerCase();
    const wantCode = errorCodeOf(expected.errorCodeName);
    const ok =
      (top.codeName ?? '').toLowerCase() === want ||
      aggregated.some((a) => (a.codeName ?? '').toLowerCase() === want || (a.codeName === undefined && wantCode !== undefined && a.code === wantCode));
    if (!isServer || !ok) fail(`expected code name ${expected.errorCodeName}`);
  }
  // The labels of a client bulk write's top-level server error are its cause's.
  const hasLabel = (label: string): boolean => (e.hasErrorLabel?.(label) ?? false) || (top !== e && (top.hasErrorLabel?.(label) ?? false));
  for (const label of expected.errorLabelsContain ?? []) {
    if (!hasLabel(label)) fail(`expected error label ${label}`);
  }
  for (const label of expected.errorLabelsOmit ?? []) {
    if (hasLabel(label)) fail(`expected no error label ${label}`);
  }
  try {
    if (expected.errorResponse !== undefined) {
      const response = top.errorResponse ?? (error instanceof MongoServerError ? (error as unknown as { errorResponse: Document }).errorResponse : undefined);
      if (response === undefined) fail('expected a server response');
      matchValue(expected.errorResponse, unraw(response), ctx, 'errorResponse', true);
    }
    if (expected.expectResult !== undefined) {
      let partial: unknown;
      if (error instanceof MongoBulkWriteError) partial = bulkWriteResultDoc(error.result);
      else if (error instanceof MongoClientBulkWriteError) partial = error.partialResult === undefined ? undefined : clientBulkWriteResultDoc(error.partialResult);
      matchValue(expected.expectResult, partial, ctx, 'expectError.expectResult', true);
    }
    if (expected.writeErrors !== undefined) {
      if (!(error instanceof MongoClientBulkWriteError)) fail('expected a client bulk write error with writeErrors');
      const actual = (error as MongoClientBulkWriteError).writeErrors;
      const keys = [...actual.keys()].map(String).sort();
      const want = Object.keys(expected.writeErrors).sort();
      if (keys.join(',') !== want.join(',')) fail(`expected write errors at ${want.join(',')}, got ${keys.join(',')}`);
      for (const [k, v] of Object.entries(expected.writeErrors)) {
        const we = actual.get(Number(k)) as unknown as Document;
        matchValue(v, stripUndefined({ ...we }), ctx, `writeErrors.${k}`, true);
      }
    }
    if (expected.writeConcernErrors !== undefined) {
      if (!(error instanceof MongoClientBulkWriteError)) fail('expected a client bulk write error with writeConcernErrors');
      const actual = (error as MongoClientBulkWriteError).writeConcernErrors;
      if (actual.length !== expected.writeConcernErrors.length) fail(`expected ${expected.writeConcernErrors.length} write concern error(s), got ${actual.length}`);
      expected.writeConcernErrors.forEach((v, i) => matchValue(v, actual[i], ctx, `writeConcernErrors[${i}]`, true));
    }
  } catch (err) {
    if (err instanceof MatchError) fail(err.message);
    throw err;
  }
}

// ---------------------------------------------------------------------------------------------
// Entity operations

/** The argument names each operation accepts besides the generic options. */
type Args = Record<string, unknown>;

/** Splits `args` into the named positional values and the rest (options, with conversions). */
function prepare(run: TestRun, args: Args | undefined, positional: readonly string[], allowed?: readonly string[]): { pos: Args; opts: Document } {
  const pos: Args = {};
  const opts: Document = {};
  for (const [key, value] of Object.entries(args ?? {})) {
    if (positional.includes(key)) {
      pos[key] = value;
      continue;
    }
    if (allowed !== undefined && !allowed.includes(key)) throw new RunnerError(`unsupported argument ${key}`);
    switch (key) {
      case 'session':
        opts.session = run.entities.get(value as string, 'session').session;
        break;
      case 'readConcern':
        opts.readConcern = toReadConcern(value);
        break;
      case 'writeConcern':
        opts.writeConcern = toWriteConcern(value);
        break;
      case 'readPreference':
        opts.readPreference = toReadPreference(value);
        break;
      case 'returnDocument': {
        const v = String(value).toLowerCase();
        if (v !== 'before' && v !== 'after') throw new RunnerError(`returnDocument must be Before or After, got ${String(value)}`);
        opts.returnDocument = v;
        break;
      }
      case 'batchSize':
      case 'limit':
      case 'skip':
      case 'maxTimeMS':
      case 'maxCommitTimeMS':
      case 'timeoutMS':
      case 'maxAwaitTimeMS':
      case 'chunkSizeBytes':
        opts[key] = plain(value);
        break;
      case 'cursorType': {
        if (value === 'tailable') opts.tailable = true;
        else if (value === 'tailableAwait') {
          opts.tailable = true;
          opts.awaitData = true;
        } else if (value !== 'nonTailable') throw new RunnerError(`unsupported cursorType ${String(value)}`);
        break;
      }
      default:
        opts[key] = value;
    }
  }
  return { pos, opts };
}

function requireArg(pos: Args, name: string, op: string): unknown {
  if (pos[name] === undefined) throw new RunnerError(`${op} needs argument ${name}`);
  return pos[name];
}

const FIND_OPTIONS = [
  'sort', 'skip', 'limit', 'batchSize', 'projection', 'collation', 'comment', 'hint', 'let', 'allowDiskUse', 'maxTimeMS', 'min', 'max',
  'returnKey', 'showRecordId', 'noCursorTimeout', 'cursorType', 'timeoutMS', 'timeoutMode', 'session', 'rawData', 'allowPartialResults',
  'maxAwaitTimeMS', 'singleBatch', 'readConcern', 'readPreference', 'oplogReplay',
];
const WRITE_OPTIONS = ['session', 'comment', 'let', 'hint', 'collation', 'bypassDocumentValidation', 'rawData', 'writeConcern', 'timeoutMS', 'maxTimeMS'];
const UPDATE_OPTIONS = [...WRITE_OPTIONS, 'upsert', 'arrayFilters', 'sort'];
const FAM_OPTIONS = [...WRITE_OPTIONS, 'sort', 'projection', 'upsert', 'returnDocument', 'arrayFilters'];

function convertBulkModel(model: Document): Document {
  const keys = Object.keys(model);
  if (keys.length !== 1) throw new RunnerError(`a write model must have exactly one key: ${describeValue(model)}`);
  const name = keys[0]!;
  if (!['insertOne', 'updateOne', 'updateMany', 'replaceOne', 'deleteOne', 'deleteMany'].includes(name)) throw new RunnerError(`unsupported write model ${name}`);
  return { [name]: model[name] };
}

function convertClientBulkModel(model: Document): Document {
  const keys = Object.keys(model);
  if (keys.length !== 1) throw new RunnerError(`a write model must have exactly one key: ${describeValue(model)}`);
  const name = keys[0]!;
  if (!['insertOne', 'updateOne', 'updateMany', 'replaceOne', 'deleteOne', 'deleteMany'].includes(name)) throw new RunnerError(`unsupported write model ${name}`);
  return { name, ...(model[name] as Document) };
}

function updateResultDoc(r: { matchedCount: number; modifiedCount: number; upsertedCount: number; upsertedId: unknown }): Document {
  const doc: Document = { matchedCount: r.matchedCount, modifiedCount: r.modifiedCount, upsertedCount: r.upsertedCount };
  if (r.upsertedId !== null && r.upsertedId !== undefined) doc.upsertedId = r.upsertedId;
  return doc;
}

const docs = (value: unknown): OpResult => ({ value, shape: 'documents' });
const doc = (value: unknown): OpResult => ({ value, shape: 'document' });
const val = (value: unknown): OpResult => ({ value, shape: 'value' });

async function executeEntityOperation(run: TestRun, op: SpecOperation): Promise<OpResult | undefined> {
  const entity = run.entities.find(op.object);
  if (!entity) throw new RunnerError(`no entity named ${op.object}`);
  switch (entity.kind) {
    case 'collection':
      return collectionOperation(run, entity.coll, op);
    case 'database':
      return databaseOperation(run, entity.db, op);
    case 'client':
      return clientOperation(run, entity, op);
    case 'session':
      return sessionOperation(run, entity.session, op);
    case 'bucket':
      return bucketOperation(run, entity.bucket, op);
    case 'cursor':
      return cursorOperation(entity.cursor, op);
    default:
      throw new RunnerError(`operation ${op.name} on a ${entity.kind} entity is not supported`);
  }
}

async function collectionOperation(run: TestRun, coll: Collection, op: SpecOperation): Promise<OpResult | undefined> {
  const a = op.arguments;
  switch (op.name) {
    case 'aggregate': {
      const { pos, opts } = prepare(run, a, ['pipeline'], ['allowDiskUse', 'batchSize', 'bypassDocumentValidation', 'collation', 'comment', 'hint', 'let', 'maxTimeMS', 'maxAwaitTimeMS', 'session', 'rawData', 'readConcern', 'readPreference', 'writeConcern', 'timeoutMS', 'timeoutMode']);
      return docs(exactDocs(await coll.aggregate(requireArg(pos, 'pipeline', op.name) as Document[], { ...opts, ...RAW }).toArray()));
    }
    case 'bulkWrite': {
      const { pos, opts } = prepare(run, a, ['requests'], ['ordered', 'bypassDocumentValidation', 'comment', 'let', 'session', 'rawData', 'writeConcern', 'timeoutMS']);
      const requests = (requireArg(pos, 'requests', op.name) as Document[]).map(convertBulkModel);
      return doc(bulkWriteResultDoc(await coll.bulkWrite(requests as never, opts)));
    }
    case 'count': {
      const { pos, opts } = prepare(run, a, ['filter'], ['skip', 'limit', 'collation', 'comment', 'hint', 'maxTimeMS', 'session', 'rawData', 'readConcern', 'readPreference']);
      return val(await coll.count((pos.filter as Document | undefined) ?? {}, opts));
    }
    case 'countDocuments': {
      const { pos, opts } = prepare(run, a, ['filter'], ['skip', 'limit', 'collation', 'comment', 'hint', 'maxTimeMS', 'session', 'rawData', 'readConcern', 'readPreference', 'timeoutMS']);
      return val(await coll.countDocuments(requireArg(pos, 'filter', op.name) as Document, opts));
    }
    case 'estimatedDocumentCount': {
      const { opts } = prepare(run, a, [], ['maxTimeMS', 'comment', 'rawData', 'readConcern', 'readPreference', 'timeoutMS']);
      return val(await coll.estimatedDocumentCount(opts));
    }
    case 'distinct': {
      const { pos, opts } = prepare(run, a, ['fieldName', 'filter'], ['collation', 'comment', 'hint', 'maxTimeMS', 'session', 'rawData', 'readConcern', 'readPreference', 'timeoutMS']);
      return val(await coll.distinct(requireArg(pos, 'fieldName', op.name) as string, requireArg(pos, 'filter', op.name) as Document, { ...opts, ...EXACT_TYPES }));
    }
    case 'find': {
      const { pos, opts } = prepare(run, a, ['filter'], FIND_OPTIONS);
      return docs(exactDocs(await coll.find((pos.filter as Document | undefined) ?? {}, { ...opts, ...RAW }).toArray()));
    }
    case 'findOne': {
      const { pos, opts } = prepare(run, a, ['filter'], FIND_OPTIONS);
      return doc(await coll.findOne((pos.filter as Document | undefined) ?? {}, { ...opts, ...EXACT_TYPES }));
    }
    case 'createFindCursor': {
      const { pos, opts } = prepare(run, a, ['filter'], FIND_OPTIONS);
      const cursor = coll.find((pos.filter as Document | undefined) ?? {}, { ...opts, ...EXACT_TYPES });
      await cursor.hasNext(); // runs `find` now; the first document stays buffered
      return { value: undefined, shape: 'value', entity: { kind: 'cursor', cursor } };
    }
    case 'findOneAndDelete': {
      const { pos, opts } = prepare(run, a, ['filter'], FAM_OPTIONS);
      return doc(await coll.findOneAndDelete(requireArg(pos, 'filter', op.name) as Document, { ...opts, ...EXACT_TYPES }));
    }
    case 'findOneAndReplace': {
      const { pos, opts } = prepare(run, a, ['filter', 'replacement'], FAM_OPTIONS);
      return doc(await coll.findOneAndReplace(requireArg(pos, 'filter', op.name) as Document, requireArg(pos, 'replacement', op.name) as Document, { ...opts, ...EXACT_TYPES }));
    }
    case 'findOneAndUpdate': {
      const { pos, opts } = prepare(run, a, ['filter', 'update'], FAM_OPTIONS);
      return doc(await coll.findOneAndUpdate(requireArg(pos, 'filter', op.name) as Document, requireArg(pos, 'update', op.name) as Document, { ...opts, ...EXACT_TYPES }));
    }
    case 'insertOne': {
      const { pos, opts } = prepare(run, a, ['document'], ['bypassDocumentValidation', 'comment', 'session', 'rawData', 'writeConcern', 'timeoutMS']);
      const r = await coll.insertOne(requireArg(pos, 'document', op.name) as Document, opts);
      return doc({ insertedId: r.insertedId });
    }
    case 'insertMany': {
      const { pos, opts } = prepare(run, a, ['documents'], ['ordered', 'bypassDocumentValidation', 'comment', 'session', 'rawData', 'writeConcern', 'timeoutMS']);
      const r = await coll.insertMany(requireArg(pos, 'documents', op.name) as Document[], opts);
      return doc({ insertedCount: r.insertedCount, insertedIds: { ...r.insertedIds } });
    }
    case 'deleteOne':
    case 'deleteMany': {
      const { pos, opts } = prepare(run, a, ['filter'], WRITE_OPTIONS);
      const filter = requireArg(pos, 'filter', op.name) as Document;
      const r = op.name === 'deleteOne' ? await coll.deleteOne(filter, opts) : await coll.deleteMany(filter, opts);
      return doc(r.acknowledged ? { deletedCount: r.deletedCount } : { acknowledged: false });
    }
    case 'replaceOne': {
      const { pos, opts } = prepare(run, a, ['filter', 'replacement'], UPDATE_OPTIONS);
      const r = await coll.replaceOne(requireArg(pos, 'filter', op.name) as Document, requireArg(pos, 'replacement', op.name) as Document, opts);
      return doc(r.acknowledged ? updateResultDoc(r) : { acknowledged: false });
    }
    case 'updateOne':
    case 'updateMany': {
      const { pos, opts } = prepare(run, a, ['filter', 'update'], UPDATE_OPTIONS);
      const filter = requireArg(pos, 'filter', op.name) as Document;
      const update = requireArg(pos, 'update', op.name) as Document;
      const r = op.name === 'updateOne' ? await coll.updateOne(filter, update, opts) : await coll.updateMany(filter, update, opts);
      return doc(r.acknowledged ? updateResultDoc(r) : { acknowledged: false });
    }
    case 'createIndex': {
      const { pos, opts } = prepare(run, a, ['keys']);
      return val(await coll.createIndex(requireArg(pos, 'keys', op.name) as Document, opts));
    }
    case 'dropIndex': {
      const { pos, opts } = prepare(run, a, ['name']);
      await coll.dropIndex(requireArg(pos, 'name', op.name) as string, opts);
      return undefined;
    }
    case 'dropIndexes': {
      const { opts } = prepare(run, a, []);
      await coll.dropIndexes(opts);
      return undefined;
    }
    case 'listIndexes': {
      const { opts } = prepare(run, a, [], ['batchSize', 'session', 'comment', 'timeoutMS', 'rawData']);
      return docs(await coll.listIndexes({ ...opts, ...EXACT_TYPES }).toArray());
    }
    case 'listIndexNames': {
      const { opts } = prepare(run, a, [], ['batchSize', 'session', 'comment']);
      return val((await coll.listIndexes(opts).toArray()).map((i) => i.name));
    }
    case 'drop': {
      const { opts } = prepare(run, a, []);
      await coll.drop(opts);
      return undefined;
    }
    case 'rename': {
      const { pos, opts } = prepare(run, a, ['to']);
      await coll.rename(requireArg(pos, 'to', op.name) as string, opts);
      return undefined;
    }
    case 'createChangeStream': {
      const { pos, opts } = prepare(run, a, ['pipeline']);
      const stream = coll.watch((pos.pipeline as Document[] | undefined) ?? [], opts);
      await openChangeStream(stream);
      return { value: undefined, shape: 'value', entity: { kind: 'cursor', cursor: stream as unknown as AbstractCursor } };
    }
    default:
      throw new RunnerError(`unsupported collection operation ${op.name}`);
  }
}

async function databaseOperation(run: TestRun, db: Db, op: SpecOperation): Promise<OpResult | undefined> {
  const a = op.arguments;
  switch (op.name) {
    case 'aggregate': {
      const { pos, opts } = prepare(run, a, ['pipeline'], ['allowDiskUse', 'batchSize', 'bypassDocumentValidation', 'collation', 'comment', 'hint', 'let', 'maxTimeMS', 'maxAwaitTimeMS', 'session', 'rawData', 'readConcern', 'readPreference', 'writeConcern', 'timeoutMS']);
      return docs(exactDocs(await db.aggregate(requireArg(pos, 'pipeline', op.name) as Document[], { ...opts, ...RAW }).toArray()));
    }
    case 'runCommand': {
      const { pos, opts } = prepare(run, a, ['command', 'commandName'], ['readPreference', 'session', 'timeoutMS']);
      const command = requireArg(pos, 'command', op.name) as Document;
      return doc(await db.command(command, { ...opts, ...EXACT_TYPES }));
    }
    case 'runCursorCommand':
    case 'createCommandCursor': {
      const { pos, opts } = prepare(run, a, ['command', 'commandName'], ['readPreference', 'session', 'batchSize', 'maxTimeMS', 'comment', 'cursorType', 'timeoutMode', 'timeoutMS']);
      const command = requireArg(pos, 'command', op.name) as Document;
      const { batchSize, maxTimeMS, comment, tailable, awaitData, ...rest } = opts;
      const cursor = db.runCursorCommand(command, { ...rest, ...EXACT_TYPES, ...(tailable ? { tailable: true } : {}), ...(awaitData ? { awaitData: true } : {}) } as never);
      if (batchSize !== undefined) cursor.setBatchSize(batchSize as number);
      if (maxTimeMS !== undefined) cursor.setMaxTimeMS(maxTimeMS as number);
      if (comment !== undefined) cursor.setComment(comment);
      if (op.name === 'runCursorCommand') return docs(await cursor.toArray());
      await cursor.hasNext();
      return { value: undefined, shape: 'value', entity: { kind: 'cursor', cursor } };
    }
    case 'createCollection': {
      const { pos, opts } = prepare(run, a, ['collection']);
      await db.createCollection(requireArg(pos, 'collection', op.name) as string, opts);
      return undefined;
    }
    case 'dropCollection': {
      const { pos, opts } = prepare(run, a, ['collection']);
      await db.dropCollection(requireArg(pos, 'collection', op.name) as string, opts);
      return undefined;
    }
    case 'listCollections': {
      const { pos, opts } = prepare(run, a, ['filter'], ['batchSize', 'session', 'comment', 'nameOnly', 'authorizedCollections', 'timeoutMS', 'rawData']);
      return docs(await db.listCollections((pos.filter as Document | undefined) ?? {}, { ...opts, ...EXACT_TYPES }).toArray());
    }
    case 'listCollectionNames': {
      const { pos, opts } = prepare(run, a, ['filter'], ['batchSize', 'session', 'comment']);
      return val((await db.listCollections((pos.filter as Document | undefined) ?? {}, { ...opts, nameOnly: true }).toArray()).map((c) => c.name));
    }
    case 'modifyCollection': {
      const { pos, opts } = prepare(run, a, ['collection']);
      const { session, ...fields } = opts;
      return doc(await db.command({ collMod: requireArg(pos, 'collection', op.name), ...fields }, session === undefined ? {} : { session: session as ClientSession }));
    }
    case 'drop': {
      const { opts } = prepare(run, a, []);
      await db.dropDatabase(opts);
      return undefined;
    }
    case 'createChangeStream': {
      const { pos, opts } = prepare(run, a, ['pipeline']);
      const stream = db.watch((pos.pipeline as Document[] | undefined) ?? [], opts);
      await openChangeStream(stream);
      return { value: undefined, shape: 'value', entity: { kind: 'cursor', cursor: stream as unknown as AbstractCursor } };
    }
    default:
      throw new RunnerError(`unsupported database operation ${op.name}`);
  }
}

async function clientOperation(run: TestRun, entity: ClientEntity, op: SpecOperation): Promise<OpResult | undefined> {
  const a = op.arguments;
  const client = entity.client;
  switch (op.name) {
    case 'listDatabases': {
      const { pos, opts } = prepare(run, a, ['filter'], ['session', 'nameOnly', 'authorizedDatabases', 'comment', 'timeoutMS']);
      const r = await client.db('admin').admin().listDatabases({ ...opts, ...(pos.filter === undefined ? {} : { filter: pos.filter as Document }) } as never);
      return docs(r.databases);
    }
    case 'listDatabaseNames': {
      const { opts } = prepare(run, a, [], ['session', 'comment']);
      const r = await client.db('admin').admin().listDatabases({ ...opts, nameOnly: true } as never);
      return val(r.databases.map((d) => d.name));
    }
    case 'clientBulkWrite': {
      const { pos, opts } = prepare(run, a, ['models'], ['ordered', 'verboseResults', 'bypassDocumentValidation', 'comment', 'let', 'session', 'writeConcern', 'rawData', 'timeoutMS']);
      const models = (requireArg(pos, 'models', op.name) as Document[]).map(convertClientBulkModel);
      return doc(clientBulkWriteResultDoc(await client.bulkWrite(models as never, opts)));
    }
    case 'close':
      entity.recording = false;
      await client.close();
      return undefined;
    case 'createChangeStream': {
      const { pos, opts } = prepare(run, a, ['pipeline']);
      const stream = client.watch((pos.pipeline as Document[] | undefined) ?? [], opts);
      await openChangeStream(stream);
      return { value: undefined, shape: 'value', entity: { kind: 'cursor', cursor: stream as unknown as AbstractCursor } };
    }
    default:
      throw new RunnerError(`unsupported client operation ${op.name}`);
  }
}

async function sessionOperation(run: TestRun, session: ClientSession, op: SpecOperation): Promise<OpResult | undefined> {
  const a = op.arguments;
  switch (op.name) {
    case 'endSession':
      await session.endSession();
      return undefined;
    case 'startTransaction': {
      const { opts } = prepare(run, a, []);
      session.startTransaction(opts);
      return undefined;
    }
    case 'commitTransaction':
      await session.commitTransaction();
      return undefined;
    case 'abortTransaction':
      await session.abortTransaction();
      return undefined;
    case 'withTransaction': {
      const { pos, opts } = prepare(run, a, ['callback']);
      const callback = requireArg(pos, 'callback', op.name) as SpecOperation[];
      await session.withTransaction(async () => {
        for (const inner of callback) await run.runOperation(inner, true);
      }, opts);
      return undefined;
    }
    case 'getSnapshotTime':
      return val((session as unknown as { snapshotTime?: unknown }).snapshotTime);
    default:
      throw new RunnerError(`unsupported session operation ${op.name}`);
  }
}

function hexBytes(source: unknown): Buffer {
  if (!isDocument(source) || typeof source.$$hexBytes !== 'string' || !/^([0-9a-fA-F]{2})*$/.test(source.$$hexBytes)) {
    throw new RunnerError(`malformed upload source ${describeValue(source)}`);
  }
  return Buffer.from(source.$$hexBytes, 'hex');
}

async function readStream(stream: NodeJS.ReadableStream): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.from(chunk as Uint8Array));
  return Buffer.concat(chunks);
}

async function bucketOperation(run: TestRun, bucket: GridFSBucket, op: SpecOperation): Promise<OpResult | undefined> {
  const a = op.arguments;
  switch (op.name) {
    case 'upload':
    case 'uploadWithId': {
      const { pos, opts } = prepare(run, a, ['filename', 'source', 'id'], ['chunkSizeBytes', 'metadata', 'contentType', 'aliases', 'disableMD5']);
      const { chunkSizeBytes, ...rest } = opts;
      const streamOptions = { ...rest, ...(chunkSizeBytes === undefined ? {} : { chunkSizeBytes: chunkSizeBytes as number }) };
      const stream =
        op.name === 'uploadWithId'
          ? bucket.openUploadStreamWithId(pos.id as never, requireArg(pos, 'filename', op.name) as string, streamOptions)
          : bucket.openUploadStream(requireArg(pos, 'filename', op.name) as string, streamOptions);
      await new Promise<void>((resolve, reject) => {
        stream.once('error', reject);
        stream.end(hexBytes(pos.source), () => resolve());
      });
      return val(stream.id);
    }
    case 'download': {
      const { pos } = prepare(run, a, ['id'], []);
      return val(await readStream(bucket.openDownloadStream(requireArg(pos, 'id', op.name) as never)));
    }
    case 'downloadByName': {
      const { pos, opts } = prepare(run, a, ['filename'], ['revision']);
      return val(await readStream(bucket.openDownloadStreamByName(requireArg(pos, 'filename', op.name) as string, plainOptions(opts))));
    }
    case 'delete': {
      const { pos } = prepare(run, a, ['id'], []);
      await bucket.delete(requireArg(pos, 'id', op.name) as never);
      return undefined;
    }
    case 'drop':
      await bucket.drop();
      return undefined;
    case 'rename': {
      const { pos } = prepare(run, a, ['id', 'newFilename'], []);
      await bucket.rename(requireArg(pos, 'id', op.name) as never, requireArg(pos, 'newFilename', op.name) as string);
      return undefined;
    }
    case 'find': {
      const { pos, opts } = prepare(run, a, ['filter']);
      return docs(await bucket.find((pos.filter as Document | undefined) ?? {}, { ...opts, ...EXACT_TYPES }).toArray());
    }
    default:
      throw new RunnerError(`unsupported bucket operation ${op.name}`);
  }
}

/**
 * Sends a new change stream's aggregate, and nothing more (the unified format: the server-side
 * cursor exists once createChangeStream returns; its first getMore is the first iteration's), as
 * the driver's own runner does, through the cursor's initialisation.
 */
async function openChangeStream(stream: unknown): Promise<void> {
  await (stream as { cursor: { cursorInit(): Promise<void> } }).cursor.cursorInit();
}

async function cursorOperation(cursor: AbstractCursor, op: SpecOperation): Promise<OpResult | undefined> {
  switch (op.name) {
    case 'iterateUntilDocumentOrError': {
      for (;;) {
        const next = await cursor.tryNext();
        if (next !== null) return doc(next);
        // An exhausted cursor never produces another document: its result is null.
        if (cursor.closed || cursor.id?.isZero()) return doc(null);
      }
    }
    case 'iterateOnce':
      return doc(await cursor.tryNext());
    case 'close':
      await cursor.close().catch(() => undefined);
      return undefined;
    default:
      throw new RunnerError(`unsupported cursor operation ${op.name}`);
  }
}

// ---------------------------------------------------------------------------------------------
// Entry point

/**
 * Runs one test of a file (the caller has checked applicability): initialData, entities,
 * operations, then expectEvents and outcome. Throws AssertionFailure/MatchError when the test
 * fails and RunnerError when the runner cannot execute it.
 */
export async function runUnifiedTest(file: SpecFile, test: SpecTest, env: RunnerEnvironment): Promise<void> {
  checkSchemaVersion(file);
  if (test.expectLogMessages !== undefined) throw new RunnerError('expectLogMessages is not supported by this runner');
  const run = new TestRun(env, file);
  try {
    await run.setUpInitialData();
    await run.createEntities(file.createEntities ?? []);
    for (const op of test.operations) await run.runOperation(op);
    run.stopRecording();
    if (test.expectEvents !== undefined) run.checkEvents(test.expectEvents);
    if (test.outcome !== undefined) await run.checkOutcome(test.outcome);
  } finally {
    await run.cleanUp();
  }
}
