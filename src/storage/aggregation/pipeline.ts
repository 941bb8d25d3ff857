/**
 * Pipelines: parse → check constraints → (optimise: optimize.ts) → run. Every stage is parsed
 * before any document is read, in order (a stage document must have exactly one field, 40323;
 * an unknown name is 40324, a stage mongod has that Mayfly does not implement yet 238; each
 * stage parser checks its own specification with mongod's codes). Then the stage table's
 * constraints (stage.ts) are checked for the kind of pipeline (`PipelinePlace`): the target of
 * the first stage, the positions, what the place allows. The stages run as chained lazy
 * transforms (README.md).
 */
import type { Document } from '../../bson/library.js';
import { CommandError } from '../../errors/command_error.js';
import { isDocument } from '../values/paths.js';
import { predicateText } from '../query/compile_filter.js';
import type { MatchInstance } from './stages/match.js';
import { stageFacts, stageNamed, UNSUPPORTED_STAGES } from './registry.js';
import { MAX_PIPELINE_LENGTH } from './stages/_internal/sub_pipeline.js';
import type { ParsedPipeline, ParsedStage, PipelineParseContext, StageDefinition, StageInstance, SubPipelinePlace } from './stage.js';

/** The kinds of pipeline: an aggregate's (on a collection or `{aggregate: 1}`), a view's, a pipeline update's, the sub-pipelines. */
export type PipelinePlace = 'aggregate' | 'view' | 'update' | SubPipelinePlace;

/** The name of a stage document, validating its shape (14, 40323). */
export function stageName(stage: unknown): string {
  if (!isDocument(stage)) {
    throw new CommandError('TypeMismatch', "Each element of the 'pipeline' array must be an object");
  }
  const keys = Object.keys(stage);
  if (keys.length !== 1) {
    throw new CommandError(40323, 'A pipeline stage specification object must contain exactly one field.');
  }
  return keys[0]!;
}

/** The errors of a stage that a sub-pipeline does not allow. */
const NOT_ALLOWED_IN: Readonly<Record<'facet' | 'lookup' | 'unionWith', (name: string) => CommandError>> = {
  facet: (name) => new CommandError(40600, `${name} is not allowed to be used within a $facet stage`),
  lookup: (name) => new CommandError(51047, `${name} is not allowed within a $lookup's sub-pipeline`),
  unionWith: (name) => new CommandError(31441, `${name} is not allowed within a $unionWith's sub-pipeline`),
};

/**
 * Parses a pipeline in `ctx` for `place`, with mongod's order of checks: the stage documents'
 * shape (14, 40323) and names (40324), then each stage's specification (238 for a stage Mayfly
 * does not implement yet, after the checks below that need no parse; in a `$facet`, a first- or
 * last-only stage is 40600 even then), then what needs the parsed stages: `{aggregate: 1}` needs
 * a first stage that reads no collection (73), then where each stage may stand (the catalogue: a
 * first-only stage elsewhere is 40602, a last-only one 40601), then the sub-pipelines' rules
 * (40600, 51047, 31441), and a first stage that only `{aggregate: 1}` may start with, over a
 * collection, is 73 too.
 * A pipeline update parses what it can first (an unknown stage is 40324 there too), then refuses
 * any stage not allowed in an update (InvalidOptions), implemented or not.
 */
export function parsePipeline(stages: readonly unknown[], ctx: PipelineParseContext, place: PipelinePlace = 'aggregate'): ParsedPipeline {
  if (place !== 'update' && place !== 'view' && stages.length > MAX_PIPELINE_LENGTH) {
    throw new CommandError(7749501, `Pipeline length must be no longer than ${MAX_PIPELINE_LENGTH} stages.`);
  }
  const names = stages.map(stageName);
  if (place === 'update') return parseUpdatePipeline(stages as Document[], names, ctx);
  const facts = names.map((name) => {
    const known = stageFacts(name);
    if (known === undefined) throw new CommandError(40324, `Unrecognized pipeline stage name: '${name}'`);
    return known;
  });
  const collectionless = ctx.collection === null;
  if (place === 'aggregate' && collectionless && names.length === 0) throw new CommandError('InvalidNamespace', '{aggregate: 1} is not valid for an empty pipeline.');
  // `{aggregate: 1}` over a first stage that needs a collection: mongod finds it once the stages
  // are parsed (a $facet's sub-pipeline errors come first); before a stage Mayfly lacks.
  const checkCollectionless = (): void => {
    if (place === 'aggregate' && collectionless && facts[0]!.target === 'collection') {
      throw new CommandError('InvalidNamespace', `{aggregate: 1} is not valid for '${names[0]}'; a collection is required.`);
    }
  };
  // Where each stage may stand (the catalogue's facts): checked once the stages are parsed and
  // `{aggregate: 1}`'s first stage is checked, as mongod's validateCommon; before a stage Mayfly lacks.
  const checkPositions = (): void => {
    facts.forEach(({ position }, i) => {
      if (position === 'first' && i > 0) {
        throw stageNamed(names[i]!)?.constraints.notFirst?.(names[i]!) ?? new CommandError(40602, `${names[i]} is only valid as the first stage in a pipeline`);
      }
      if (position === 'last' && i !== names.length - 1) throw new CommandError(40601, `${names[i]} can only be the final stage in the pipeline`);
    });
  };
  const parsed: ParsedStage[] = names.map((name, i) => {
    const definition = stageNamed(name);
    if (definition === undefined) {
      // A stage that must stand first or last reads or writes beyond a $facet's input: mongod
      // refuses it there, whether Mayfly implements it yet or not.
      if (place === 'facet' && facts[i]!.position !== 'any') throw NOT_ALLOWED_IN.facet(name);
      checkCollectionless();
      checkPositions();
      throw new CommandError('NotImplemented', `${name} is not supported by Mayfly yet`);
    }
    const stage = stages[i] as Document;
    return { name, stage, definition, instance: definition.parse(stage[name], ctx) };
  });
  checkCollectionless();
  // A $facet refuses the stages it does not allow before asking where they stand (mongod's
  // validateFacetPipeline, then validateCommon); $lookup and $unionWith ask the other way round.
  const checkAllowed = (): void => {
    for (const { name, definition } of parsed) if (!definition.constraints.allowedIn[place as 'facet']) throw NOT_ALLOWED_IN[place as 'facet'](name);
  };
  if (place === 'facet') checkAllowed();
  checkPositions();
  // A $text query is answered by the collection's text index: only in the first stage's $match.
  for (let i = 1; i < parsed.length; i++) {
    const predicate = (parsed[i]!.instance as Partial<MatchInstance>).predicate;
    if (parsed[i]!.name === '$match' && predicate !== undefined && predicateText(predicate) !== null) {
      throw new CommandError(17313, '$match with $text is only allowed as the first pipeline stage');
    }
  }
  for (let i = 0; i < parsed.length - 1; i++) parsed[i]!.instance.followed?.();
  if (place === 'lookup' || place === 'unionWith') checkAllowed();
  if (!collectionless && facts[0]?.target === 'database') throw new CommandError('InvalidNamespace', `'${names[0]}' can only be run with {aggregate: 1}`);
  return { stages: parsed };
}

/** An update's pipeline (pipeline_executor.cpp): parsed, then only the stages an update allows. */
function parseUpdatePipeline(stages: readonly Document[], names: readonly string[], ctx: PipelineParseContext): ParsedPipeline {
  const parsed: ParsedStage[] = [];
  names.forEach((name, i) => {
    const definition = stageNamed(name);
    if (definition === undefined) {
      if (!UNSUPPORTED_STAGES.has(name)) throw new CommandError(40324, `Unrecognized pipeline stage name: '${name}'`);
      return;
    }
    parsed.push({ name, stage: stages[i]!, definition, instance: definition.parse(stages[i]![name], ctx) });
  });
  for (const name of names) {
    if (!stageNamed(name)?.constraints.allowedIn.update) {
      throw new CommandError('InvalidOptions', `${name} is not allowed to be used within an update`);
    }
  }
  return { stages: parsed };
}

/**
 * The documents `stages` make of `input`, lazily (each stage a transform of the one before);
 * `onOutput`, when given, is told of each document stage `i` produces (explain's `nReturned`).
 */
export function runStages(stages: readonly ParsedStage[], input: Iterable<Document>, onOutput?: (i: number) => void): Iterable<Document> {
  let docs = input;
  stages.forEach(({ instance }, i) => {
    docs = instance.run(docs);
    if (onOutput !== undefined) docs = counted(docs, i, onOutput);
  });
  return docs;
}

function* counted(docs: Iterable<Document>, i: number, onOutput: (i: number) => void): Generator<Document> {
  for (const doc of docs) {
    onOutput(i);
    yield doc;
  }
}

/**
 * A pipeline as one transform (views checked at create, pipeline updates, tests): parsed and
 * checked for `place`, then its stages chained. The first stage's own documents are used when it
 * reads no input.
 */
export function compilePipeline(stages: readonly unknown[], ctx: PipelineParseContext, place: PipelinePlace = 'aggregate'): (input: Iterable<Document>) => Iterable<Document> {
  const parsed = parsePipeline(stages, ctx, place);
  return (input) => runStages(parsed.stages, input);
}
