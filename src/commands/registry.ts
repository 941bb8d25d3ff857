/**
 * The one table of commands, sorted by name. Each entry is one file under `src/commands/<group>/`.
 * Names and aliases map to their definition; anything else is 59 CommandNotFound.
 */
import { authenticate } from './auth/authenticate.js';
import { createRole } from './auth/create_role.js';
import { createUser } from './auth/create_user.js';
import { dropAllRolesFromDatabase } from './auth/drop_all_roles_from_database.js';
import { dropAllUsersFromDatabase } from './auth/drop_all_users_from_database.js';
import { dropRole } from './auth/drop_role.js';
import { dropUser } from './auth/drop_user.js';
import { grantPrivilegesToRole } from './auth/grant_privileges_to_role.js';
import { grantRolesToRole } from './auth/grant_roles_to_role.js';
import { grantRolesToUser } from './auth/grant_roles_to_user.js';
import { invalidateUserCache } from './auth/invalidate_user_cache.js';
import { logout } from './auth/logout.js';
import { revokePrivilegesFromRole } from './auth/revoke_privileges_from_role.js';
import { revokeRolesFromRole } from './auth/revoke_roles_from_role.js';
import { revokeRolesFromUser } from './auth/revoke_roles_from_user.js';
import { rolesInfo } from './auth/roles_info.js';
import { saslContinue } from './auth/sasl_continue.js';
import { saslStart } from './auth/sasl_start.js';
import { updateRole } from './auth/update_role.js';
import { updateUser } from './auth/update_user.js';
import { usersInfo } from './auth/users_info.js';
import { collMod } from './indexes/coll_mod.js';
import { createIndexes } from './indexes/create_indexes.js';
import { dropIndexes } from './indexes/drop_indexes.js';
import { listIndexes } from './indexes/list_indexes.js';
import { autoCompact } from './admin/auto_compact.js';
import { cloneCollectionAsCapped } from './admin/clone_collection_as_capped.js';
import { compact } from './admin/compact.js';
import { compactStructuredEncryptionData } from './admin/compact_structured_encryption_data.js';
import { convertToCapped } from './admin/convert_to_capped.js';
import { create } from './admin/create.js';
import { drop } from './admin/drop.js';
import { dropConnections } from './admin/drop_connections.js';
import { dropDatabase } from './admin/drop_database.js';
import { fsync } from './admin/fsync.js';
import { fsyncUnlock } from './admin/fsync_unlock.js';
import { getClusterParameter } from './admin/get_cluster_parameter.js';
import { getParameter } from './admin/get_parameter.js';
import { killOp } from './admin/kill_op.js';
import { listCollections } from './admin/list_collections.js';
import { listDatabases } from './admin/list_databases.js';
import { logRotate } from './admin/log_rotate.js';
import { renameCollection } from './admin/rename_collection.js';
import { setClusterParameter } from './admin/set_cluster_parameter.js';
import { setFeatureCompatibilityVersion } from './admin/set_feature_compatibility_version.js';
import { setParameter } from './admin/set_parameter.js';
import { aggregate } from './crud/aggregate.js';
import { bulkWrite } from './crud/bulk_write.js';
import { count } from './crud/count.js';
import { del } from './crud/delete.js';
import { distinct } from './crud/distinct.js';
import { explain } from './crud/explain.js';
import { find } from './crud/find.js';
import { findAndModify } from './crud/find_and_modify.js';
import { getMore } from './crud/get_more.js';
import { insert } from './crud/insert.js';
import { killCursors } from './crud/kill_cursors.js';
import { update } from './crud/update.js';
import { buildInfo } from './diagnostic/build_info.js';
import { collStats } from './diagnostic/coll_stats.js';
import { connPoolStats } from './diagnostic/conn_pool_stats.js';
import { connectionStatus } from './diagnostic/connection_status.js';
import { dataSize } from './diagnostic/data_size.js';
import { dbHash } from './diagnostic/db_hash.js';
import { dbStats } from './diagnostic/db_stats.js';
import { getCmdLineOpts } from './diagnostic/get_cmd_line_opts.js';
import { getLastRequestStatistics } from './diagnostic/get_last_request_statistics.js';
import { getLog } from './diagnostic/get_log.js';
import { hostInfo } from './diagnostic/host_info.js';
import { listCommands } from './diagnostic/list_commands.js';
import { lockInfo } from './diagnostic/lock_info.js';
import { ping } from './diagnostic/ping.js';
import { planCacheClear } from './plan_cache/plan_cache_clear.js';
import { planCacheClearFilters } from './plan_cache/plan_cache_clear_filters.js';
import { planCacheListFilters } from './plan_cache/plan_cache_list_filters.js';
import { planCacheSetFilter } from './plan_cache/plan_cache_set_filter.js';
import { profile } from './diagnostic/profile.js';
import { removeQuerySettings } from './query_settings/remove_query_settings.js';
import { setQuerySettings } from './query_settings/set_query_settings.js';
import { serverStatus } from './diagnostic/server_status.js';
import { top } from './diagnostic/top.js';
import { validate } from './diagnostic/validate.js';
import { validateDBMetadata } from './diagnostic/validate_db_metadata.js';
import { whatsmyuri } from './diagnostic/whats_my_uri.js';
import { hello } from './handshake/hello.js';
import { isMaster } from './handshake/is_master.js';
import { replSetFreeze } from './replication/repl_set_freeze.js';
import { replSetGetConfig } from './replication/repl_set_get_config.js';
import { replSetGetRBID } from './replication/repl_set_get_rbid.js';
import { replSetGetStatus } from './replication/repl_set_get_status.js';
import { replSetInitiate } from './replication/repl_set_initiate.js';
import { replSetStepDown } from './replication/repl_set_step_down.js';
import { endSessions } from './sessions/end_sessions.js';
import { killAllSessions } from './sessions/kill_all_sessions.js';
import { killAllSessionsByPattern } from './sessions/kill_all_sessions_by_pattern.js';
import { killSessions } from './sessions/kill_sessions.js';
import { refreshSessions } from './sessions/refresh_sessions.js';
import { startSession } from './sessions/start_session.js';
import { abortTransaction } from './transactions/abort_transaction.js';
import { commitTransaction } from './transactions/commit_transaction.js';
import { configureFailPoint } from './testing/configure_fail_point.js';
import { mayflyAdvanceClock } from './testing/mayfly_advance_clock.js';
import { mayflyClock } from './testing/mayfly_clock.js';
import { mayflyRunTtlPass } from './testing/mayfly_run_ttl_pass.js';
import { getRange } from './versioned/get_range.js';
import { getRow } from './versioned/get_row.js';
import { putRow } from './versioned/put_row.js';
import { notImplementedCommands, uncataloguedCommands } from './not_implemented.js';
import type { CommandDefinition } from './types.js';
import { updateSearchIndex } from './search/update_search_index.js';
import { listSearchIndexes } from './search/list_search_indexes.js';
import { dropSearchIndex } from './search/drop_search_index.js';
import { createSearchIndexes } from './search/create_search_indexes.js';

/** Every implemented command, sorted by name. */
export const COMMANDS: readonly CommandDefinition[] = [
  abortTransaction,
  aggregate,
  authenticate,
  autoCompact,
  buildInfo,
  bulkWrite,
  cloneCollectionAsCapped,
  collMod,
  collStats,
  commitTransaction,
  compact,
  compactStructuredEncryptionData,
  configureFailPoint,
  connPoolStats,
  connectionStatus,
  convertToCapped,
  count,
  create,
  createIndexes,
  createRole,
  createSearchIndexes,
  createUser,
  dataSize,
  dbHash,
  dbStats,
  del,
  distinct,
  drop,
  dropAllRolesFromDatabase,
  dropAllUsersFromDatabase,
  dropConnections,
  dropDatabase,
  dropIndexes,
  dropRole,
  dropSearchIndex,
  dropUser,
  endSessions,
  explain,
  find,
  findAndModify,
  fsync,
  fsyncUnlock,
  getClusterParameter,
  getCmdLineOpts,
  getLastRequestStatistics,
  getLog,
  getMore,
  getParameter,
  getRange,
  getRow,
  grantPrivilegesToRole,
  grantRolesToRole,
  grantRolesToUser,
  hello,
  hostInfo,
  insert,
  invalidateUserCache,
  isMaster,
  killAllSessions,
  killAllSessionsByPattern,
  killCursors,
  killOp,
  killSessions,
  listCollections,
  listCommands,
  listDatabases,
  listIndexes,
  listSearchIndexes,
  lockInfo,
  logRotate,
  logout,
  mayflyAdvanceClock,
  mayflyClock,
  mayflyRunTtlPass,
  ping,
  planCacheClear,
  planCacheClearFilters,
  planCacheListFilters,
  planCacheSetFilter,
  profile,
  putRow,
  refreshSessions,
  removeQuerySettings,
  renameCollection,
  replSetFreeze,
  replSetGetConfig,
  replSetGetRBID,
  replSetGetStatus,
  replSetInitiate,
  replSetStepDown,
  revokePrivilegesFromRole,
  revokeRolesFromRole,
  revokeRolesFromUser,
  rolesInfo,
  saslContinue,
  saslStart,
  serverStatus,
  setClusterParameter,
  setFeatureCompatibilityVersion,
  setParameter,
  setQuerySettings,
  startSession,
  top,
  update,
  updateRole,
  updateSearchIndex,
  updateUser,
  usersInfo,
  validate,
  validateDBMetadata,
  whatsmyuri,
];

/** Name or alias → definition, for dispatch. Known-but-unimplemented commands answer 238. */
export const registry: ReadonlyMap<string, CommandDefinition> = (() => {
  const strays = uncataloguedCommands(COMMANDS);
  if (strays.length > 0) throw new Error(`commands missing from catalogue.ts: ${strays.join(', ')}`);
  const map = new Map<string, CommandDefinition>();
  for (const def of [...COMMANDS, ...notImplementedCommands(COMMANDS)]) {
    for (const name of [def.name, ...(def.aliases ?? [])]) {
      if (map.has(name)) throw new Error(`command ${name} registered twice`);
      map.set(name, def);
    }
  }
  return map;
})();
