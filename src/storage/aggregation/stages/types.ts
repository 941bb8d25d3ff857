/** The shape shared by every pipeline stage file. */
import type { Document } from '../../../bson/library.js';
import type { PipelineContext } from '../pipeline_context.js';

/** A lazy document transform: one generator per stage, so a cursor can stop after a batch. */
export type Stage = (input: Iterable<Document>) => Iterable<Document>;

/** Compiles a stage's specification (the value of `{$name: spec}`); throws CommandError. */
export type StageParser = (spec: unknown, ctx: PipelineContext, name: string) => Stage;
