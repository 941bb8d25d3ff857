/**
 * The rules a change stream meets when it is opened in Cosmos DB mode (Microsoft's page "Change
 * streams in Azure Cosmos DB's API for MongoDB"; where it is silent, docs/cosmos.md says what
 * Mayfly chose), checked in this order:
 *
 * - `changeStreamScope`: only a collection can be watched. A database or cluster stream (the
 *   driver's `aggregate: 1`) answers what Cosmos DB answers (MicrosoftDocs/azure-docs#52077):
 *   2 BadValue `Expected type string but found int.`
 * - `changeStreamPipeline`: `$changeStream` followed by a `$match` and then a `$project`, nothing
 *   else (rwynn/monstache#624: 2 BadValue `Change stream must be followed by a match and then a
 *   project stage`), and `fullDocument: 'updateLookup'` ("The $match stage, $project stage, and
 *   fullDocument option are required").
 * - `changeStreamOptions`: `showExpandedEvents`, a `fullDocumentBeforeChange` other than 'off'
 *   (the page: no events but insert, update and replace; "no way to get the previous version"),
 *   and, with the all versions and deletes feed, `startAtOperationTime` (that feed starts "from
 *   now or from a specific checkpoint", never from a point in time): 115.
 * - `changeStreamNamespaceNotFound`: a collection that does not exist: 26 NamespaceNotFound.
 */
import type { Document } from '../../bson/library.js';
import { CommandError } from '../../errors/command_error.js';
import type { ChangeStreamSpec } from '../../storage/aggregation/stages/change_stream.js';
import type { CosmosSettings } from '../settings.js';
import { allVersionsAndDeletes, namespaceNotFoundMessage } from './events.js';

/** The message of `changeStreamScope` (a database or whole-account stream). */
export const SCOPE_MESSAGE = 'Expected type string but found int.';
/** The message of `changeStreamPipeline` when the stages are not `$match` then `$project`. */
export const PIPELINE_MESSAGE = 'Change stream must be followed by a match and then a project stage';
/** The message of `changeStreamPipeline` without `fullDocument: 'updateLookup'` (no page text: Mayfly's). */
export const FULL_DOCUMENT_MESSAGE = "Change stream must be opened with the fullDocument option 'updateLookup'";

/** The name of a stage document's one field ('' when it is not a stage document). */
function stageName(stage: unknown): string {
  if (stage === null || typeof stage !== 'object' || Array.isArray(stage)) return '';
  const keys = Object.keys(stage);
  return keys.length === 1 ? keys[0]! : '';
}

/** What the stream opened over `db`.`coll` (`coll` null: a database or cluster stream) must meet. */
export interface ChangeStreamOpening {
  readonly pipeline: readonly Document[];
  readonly spec: ChangeStreamSpec;
  readonly db: string;
  readonly coll: string | null;
  /** True when the collection exists. */
  readonly collectionExists: boolean;
}

/** Throws the error of the first Cosmos DB change-stream rule that is on and that `opening` breaks. */
export function cosmosCheckChangeStreamOpen(settings: CosmosSettings, opening: ChangeStreamOpening): void {
  const { rules } = settings;
  const { pipeline, spec, db, coll } = opening;
  if (rules.changeStreamScope && coll === null) throw new CommandError('BadValue', SCOPE_MESSAGE);
  if (rules.changeStreamPipeline) {
    if (pipeline.length !== 3 || stageName(pipeline[1]) !== '$match' || stageName(pipeline[2]) !== '$project') throw new CommandError('BadValue', PIPELINE_MESSAGE);
    if (spec.fullDocument !== 'updateLookup') throw new CommandError('BadValue', FULL_DOCUMENT_MESSAGE);
  }
  if (rules.changeStreamOptions) {
    if (spec.showExpandedEvents) throw unsupportedOption('showExpandedEvents');
    if (spec.fullDocumentBeforeChange !== 'off') throw unsupportedOption('fullDocumentBeforeChange');
    if (spec.startAtOperationTime !== undefined && allVersionsAndDeletes(settings)) {
      throw new CommandError('CommandNotSupported', "The $changeStream option 'startAtOperationTime' is not supported by the all versions and deletes change feed; start from now or from a resume token.");
    }
  }
  if (rules.changeStreamNamespaceNotFound && coll !== null && !opening.collectionExists) {
    throw new CommandError('NamespaceNotFound', namespaceNotFoundMessage(`${db}.${coll}`));
  }
}

function unsupportedOption(name: string): CommandError {
  return new CommandError('CommandNotSupported', `The $changeStream option '${name}' is not supported.`);
}
