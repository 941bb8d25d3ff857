/**
 * The contracts of the stage table (README.md): a stage definition (name, constraints, parser)
 * and the instance a parse gives, which runs as a lazy transform of its input documents. The
 * constraints are the one statement of where a stage may stand; `pipeline.ts` checks them for
 * every kind of pipeline (an aggregate's, a view's, an update's, the sub-pipelines).
 */
import type { Document } from '../../bson/library.js';
import type { ExpressionContext } from '../expression/context.js';
import type { StoredDocument } from '../record.js';
import type { PipelineRuntime } from './runtime.js';

/** Where a stage may stand and what it may do (mongod's `StageConstraints`, the parts Mayfly uses). */
export interface StageConstraints {
  /** Whether a document passes through (`streaming`) or the whole input is read first (`blocking`). */
  readonly stream: 'streaming' | 'blocking';
  /** `first`: only as a pipeline's first stage (40602); `last`: only as its last (40601). */
  readonly position: 'any' | 'first' | 'last';
  /**
   * What it reads: the documents before it (`documents`), or none: it makes its own (a first
   * stage such as `$documents`, `$collStats`), so nothing is read from the collection.
   */
  readonly input: 'documents' | 'none';
  /**
   * What the aggregate a pipeline starting with it must name: a collection, the database
   * (`{aggregate: 1}`), or either.
   */
  readonly target: 'collection' | 'database' | 'either';
  /** The pipelines besides an aggregate's it may stand in. */
  readonly allowedIn: Readonly<{ update?: true; view?: true; facet?: true; lookup?: true; unionWith?: true; transaction?: true }>;
  /** It writes to a collection (`$out`, `$merge`): never in a view, a sub-pipeline or explain's run. */
  readonly writes?: true;
  /**
   * The error of a `first` stage standing elsewhere, when mongod gives its own (the hybrid
   * search stages' 10170100, `$geoNear`'s 40603) rather than 40602.
   */
  readonly notFirst?: (name: string) => Error;
  /**
   * The read concerns it refuses (mongod's `LiteParsed*::supportsReadConcern`): all but `local`
   * (the diagnostic stages), or `linearizable` (the writing stages); absent: none.
   */
  readonly readConcern?: 'localOnly' | 'notLinearizable';
}

/** What a stage is parsed with: the command's expressions, its ports, where the pipeline runs. */
export interface PipelineParseContext {
  readonly expressions: ExpressionContext;
  readonly runtime: PipelineRuntime;
  /** The collection the pipeline reads, or null for `{aggregate: 1}`. */
  readonly collection: string | null;
  /**
   * pipeline.ts's `parsePipeline`, handed down so that the stages with sub-pipelines (`$facet`,
   * `$lookup`, `$unionWith`) parse them, in a context of their choosing, without the stage table
   * importing the parser that imports it.
   */
  readonly parseSubPipeline: (stages: readonly unknown[], ctx: PipelineParseContext, place: SubPipelinePlace) => ParsedPipeline;
}

/** The places of sub-pipelines (pipeline.ts's `PipelinePlace` has them too). */
export type SubPipelinePlace = 'facet' | 'lookup' | 'unionWith';

/** One parsed stage of a pipeline. */
export interface ParsedStage {
  readonly name: string;
  /** The stage document as written (`{$name: spec}`). */
  readonly stage: Document;
  readonly definition: StageDefinition;
  readonly instance: StageInstance;
}

/** A parsed pipeline whose constraints hold. */
export interface ParsedPipeline {
  readonly stages: readonly ParsedStage[];
}

/** A parsed stage: a lazy transform (one generator, so a cursor can stop after a batch). */
export interface StageInstance {
  run(input: Iterable<Document>): Iterable<Document>;
  /**
   * `run`, for a stage standing first after the query layer, over the query's records rather
   * than documents (a blocking stage that reads a few fields of each: `$group` reads them from
   * the stored bytes, decoding no document). `forEach` hands every record to its visitor at once
   * (the scan as one loop); `fields` are the top-level fields the rest of the pipeline reads
   * (null: all), what the stage decodes of a record when it needs a document. Lazy as `run`: no
   * record is read before the first document is pulled. Absent: the stage is given documents.
   */
  runRecords?(forEach: (visit: (rec: StoredDocument) => void) => void, fields: readonly string[] | null): Iterable<Document>;
  /**
   * Told by the parser when another stage follows this one in its pipeline: mongod 8.2 renders
   * some values of a `$group` that feeds another stage differently (see group.ts).
   */
  followed?(): void;
}

/** One stage: a file of `stages/`, one entry of `stages/index.ts`. */
export interface StageDefinition {
  /** The name as written, with its `$` (`'$match'`). */
  readonly name: `$${string}`;
  readonly constraints: StageConstraints;
  /** Parses the stage's specification (the value of `{<name>: spec}`); throws CommandError. */
  parse(spec: unknown, ctx: PipelineParseContext): StageInstance;
}

/** The constraints of a stage that transforms the documents it reads, allowed anywhere a sub-pipeline is. */
export const TRANSFORM: StageConstraints = Object.freeze({
  stream: 'streaming',
  position: 'any',
  input: 'documents',
  target: 'collection',
  allowedIn: Object.freeze({ view: true, facet: true, lookup: true, unionWith: true, transaction: true }),
});

/** `TRANSFORM`, but reading its whole input first (`$sort`, `$group`). */
export const BLOCKING: StageConstraints = Object.freeze({ ...TRANSFORM, stream: 'blocking' });
