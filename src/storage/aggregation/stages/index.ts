/** Every stage Mayfly implements, sorted by name: one line each. */
import type { StageDefinition } from '../stage.js';
import { addFields } from './add_fields.js';
import { bucket } from './bucket.js';
import { bucketAuto } from './bucket_auto.js';
import { changeStream } from './change_stream.js';
import { changeStreamSplitLargeEvent } from './change_stream_split_large_event.js';
import { collStats } from './coll_stats.js';
import { count } from './count.js';
import { currentOp } from './current_op.js';
import { densify } from './densify.js';
import { documents } from './documents.js';
import { facet } from './facet.js';
import { fill } from './fill.js';
import { geoNear } from './geo_near.js';
import { graphLookup } from './graph_lookup.js';
import { group } from './group.js';
import { indexStats } from './index_stats.js';
import { limit } from './limit.js';
import { listClusterCatalog } from './list_cluster_catalog.js';
import { listLocalSessions } from './list_local_sessions.js';
import { listSearchIndexes } from './list_search_indexes.js';
import { listSessions } from './list_sessions.js';
import { lookup } from './lookup.js';
import { match } from './match.js';
import { merge } from './merge.js';
import { out } from './out.js';
import { planCacheStats } from './plan_cache_stats.js';
import { project } from './project.js';
import { querySettings } from './query_settings.js';
import { rankFusion } from './rank_fusion.js';
import { redact } from './redact.js';
import { replaceRoot } from './replace_root.js';
import { replaceWith } from './replace_with.js';
import { sample } from './sample.js';
import { scoreFusion } from './score_fusion.js';
import { search } from './search.js';
import { searchMeta } from './search_meta.js';
import { set } from './set.js';
import { setWindowFields } from './set_window_fields.js';
import { skip } from './skip.js';
import { sort } from './sort.js';
import { sortByCount } from './sort_by_count.js';
import { unionWith } from './union_with.js';
import { unset } from './unset.js';
import { unwind } from './unwind.js';
import { vectorSearch } from './vector_search.js';

/** The implemented stages. */
export const STAGES: readonly StageDefinition[] = [
  addFields,
  bucket,
  bucketAuto,
  changeStream,
  changeStreamSplitLargeEvent,
  collStats,
  count,
  currentOp,
  densify,
  documents,
  facet,
  fill,
  geoNear,
  graphLookup,
  group,
  indexStats,
  limit,
  listClusterCatalog,
  listLocalSessions,
  listSearchIndexes,
  listSessions,
  lookup,
  match,
  merge,
  out,
  planCacheStats,
  project,
  querySettings,
  rankFusion,
  redact,
  replaceRoot,
  replaceWith,
  sample,
  scoreFusion,
  search,
  searchMeta,
  set,
  setWindowFields,
  skip,
  sort,
  sortByCount,
  unionWith,
  unset,
  unwind,
  vectorSearch,
];
