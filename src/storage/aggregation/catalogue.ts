/**
 * Every aggregation stage mongod 8.2 knows (REGISTER_DOCUMENT_SOURCE in mongo/src/mongo/db/
 * pipeline/document_source_*.cpp, the user-facing ones), one per line, whether Mayfly implements
 * it or not, with the two facts mongod checks before it parses any stage's specification: where
 * the stage may stand (`first`: 40602 elsewhere; `last`: 40601) and what an aggregate starting
 * with it must name (a collection; the database, `{aggregate: 1}`; either). What the registry
 * lacks answers 238 NotImplemented; a name outside this list is 40324. An implemented stage's
 * constraints must agree with its line (registry.ts); implementing one never edits this list.
 */
import type { StageConstraints } from './stage.js';

/** `[name, position, target]` of every stage. */
export const STAGE_CATALOGUE: ReadonlyArray<readonly [string, StageConstraints['position'], StageConstraints['target']]> = [
  ['$addFields',                   'any',   'collection'],
  ['$bucket',                      'any',   'collection'],
  ['$bucketAuto',                  'any',   'collection'],
  ['$changeStream',                'first', 'either'],
  ['$changeStreamSplitLargeEvent', 'last',  'either'],
  ['$collStats',                   'first', 'collection'],
  ['$count',                       'any',   'collection'],
  ['$currentOp',                   'first', 'database'],
  ['$densify',                     'any',   'collection'],
  ['$documents',                   'first', 'database'],
  ['$facet',                       'any',   'collection'],
  ['$fill',                        'any',   'collection'],
  ['$geoNear',                     'first', 'collection'],
  ['$graphLookup',                 'any',   'collection'],
  ['$group',                       'any',   'collection'],
  ['$indexStats',                  'first', 'collection'],
  ['$limit',                       'any',   'collection'],
  ['$listClusterCatalog',          'first', 'database'],
  ['$listLocalSessions',           'first', 'database'],
  ['$listSampledQueries',          'first', 'database'],
  ['$listSearchIndexes',           'first', 'collection'],
  ['$listSessions',                'first', 'collection'],
  ['$lookup',                      'any',   'collection'],
  ['$match',                       'any',   'collection'],
  ['$merge',                       'last',  'collection'],
  ['$out',                         'last',  'collection'],
  ['$planCacheStats',              'first', 'collection'],
  ['$project',                     'any',   'collection'],
  ['$querySettings',               'first', 'database'],
  ['$queryStats',                  'first', 'database'],
  ['$rankFusion',                  'first', 'collection'],
  ['$redact',                      'any',   'collection'],
  ['$replaceRoot',                 'any',   'collection'],
  ['$replaceWith',                 'any',   'collection'],
  ['$sample',                      'any',   'collection'],
  ['$score',                       'any',   'collection'],
  ['$scoreFusion',                 'first', 'collection'],
  ['$search',                      'first', 'collection'],
  ['$searchMeta',                  'first', 'collection'],
  ['$set',                         'any',   'collection'],
  ['$setWindowFields',             'any',   'collection'],
  ['$shardedDataDistribution',     'first', 'database'],
  ['$skip',                        'any',   'collection'],
  ['$sort',                        'any',   'collection'],
  ['$sortByCount',                 'any',   'collection'],
  ['$unionWith',                   'any',   'collection'],
  ['$unset',                       'any',   'collection'],
  ['$unwind',                      'any',   'collection'],
  ['$vectorSearch',                'first', 'collection'],
];
