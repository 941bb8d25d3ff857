/**
 * The shared TTL engine (TTL.md): clock, expiry schedule, policies and reaper. It attaches to
 * every collection through `CollectionHooks`, and the commands consult it for TTL indexes.
 */
import { Long, type Document } from '../bson.js';
import type { Logger } from '../logger.js';
import type { Catalog } from '../storage/catalog.js';
import type { Collection } from '../storage/collection.js';
import type { ParameterTable } from '../server/parameters.js';
import type { Clock } from './clock.js';

/** What the engine needs from the server. */
export interface TtlEngineOptions {
  readonly catalog: Catalog;
  readonly clock: Clock;
  readonly parameters: ParameterTable;
  readonly logger: Logger;
  readonly compat: 'cosmos' | 'mongodb';
}

/** The TTL engine of one server. */
export class TtlEngine {
  private readonly options: TtlEngineOptions;
  private readonly counters = { deletedDocuments: 0, passes: 0, subPasses: 0, invalidTTLIndexSkips: 0 };

  /** An engine bound to a server's catalog and clock. */
  constructor(options: TtlEngineOptions) {
    this.options = options;
  }

  /** Starts the background monitor. */
  start(): void {}

  /** Stops the background monitor. */
  async stop(): Promise<void> {}

  /** Runs one reaper pass now and reports what it deleted. */
  async runPass(): Promise<Document> {
    return { deleted: Long.fromNumber(0) };
  }

  /** `serverStatus().metrics.ttl`. */
  metrics(): Document {
    const c = this.counters;
    return {
      deletedDocuments: Long.fromNumber(c.deletedDocuments),
      invalidTTLIndexSkips: Long.fromNumber(c.invalidTTLIndexSkips),
      passes: Long.fromNumber(c.passes),
      subPasses: Long.fromNumber(c.subPasses),
    };
  }

  /** Validates the TTL options of a normalised createIndexes spec; returns the spec to store. */
  checkIndexSpec(spec: Document, _raw: Document): Document {
    return spec;
  }

  /** Fields that open a createIndexes reply (Cosmos adds `_t`). */
  createIndexesReplyPrefix(): Document {
    return {};
  }

  /** Told after an index is built. */
  indexCreated(_coll: Collection, _spec: Document): void {}

  /** Told after an index is dropped. */
  indexDropped(_coll: Collection, _spec: Document): void {}

  /** The compat mode the engine runs in. */
  get compat(): 'cosmos' | 'mongodb' {
    return this.options.compat;
  }
}
