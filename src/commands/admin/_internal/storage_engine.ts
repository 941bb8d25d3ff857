/**
 * `create`'s `storageEngine` and `indexOptionDefaults` options, checked as mongod 8.2 checks
 * them (collection_options.cpp's `validateStorageOptions`, the WiredTiger engine's
 * `validateCollectionStorageOptions` and `checkTableCreationOptions`): each field of
 * `storageEngine` names a storage engine (72 for one mongod does not have) and holds a document
 * (2); `wiredTiger` takes only `configString` (72 otherwise), a string without NUL (9) whose
 * settings WiredTiger's table creation knows (2). `indexOptionDefaults` takes only
 * `storageEngine` (40415), a document (14), checked the same way.
 */
import type { Document } from '../../../bson/library.js';
import { CommandError } from '../../../errors/command_error.js';
import { isDocument } from '../../../storage/values/paths.js';
import { typeMismatch } from '../../args.js';

/** The storage engines a mongod 8.2 build registers. */
const STORAGE_ENGINES = ['wiredTiger', 'inMemory', 'devnull', 'ephemeralForTest'] as const;

/** The settings of WiredTiger's `WT_SESSION::create` (what `wiredtiger_config_validate` accepts). */
const WT_CREATE_SETTINGS: ReadonlySet<string> = new Set([
  'access_pattern_hint', 'allocation_size', 'app_metadata', 'assert', 'block_allocation', 'block_compressor',
  'cache_resident', 'checksum', 'colgroups', 'collator', 'columns', 'dictionary', 'encryption', 'exclusive',
  'extractor', 'format', 'huffman_key', 'huffman_value', 'ignore_in_memory_cache_size', 'immutable', 'import',
  'internal_item_max', 'internal_key_max', 'internal_key_truncate', 'internal_page_max', 'key_format', 'key_gap',
  'leaf_item_max', 'leaf_key_max', 'leaf_page_max', 'leaf_value_max', 'log', 'lsm', 'memory_page_image_max',
  'memory_page_max', 'os_cache_dirty_max', 'os_cache_max', 'prefix_compression', 'prefix_compression_min',
  'source', 'split_deepen_min_child', 'split_deepen_per_child', 'split_pct', 'tiered_storage', 'type',
  'value_format', 'verbose', 'write_timestamp_usage',
]);

/** The top-level keys of a WiredTiger configuration string (`k=v,k2=(a=1,b=2),flag`). */
function configKeys(config: string): string[] {
  const keys: string[] = [];
  let depth = 0;
  let start = 0;
  const take = (end: number): void => {
    const item = config.slice(start, end).trim();
    if (item !== '') keys.push(item.split(/[=:]/, 1)[0]!.trim());
  };
  for (let i = 0; i < config.length; i++) {
    const c = config[i];
    if (c === '(' || c === '[') depth++;
    else if (c === ')' || c === ']') depth--;
    else if (c === ',' && depth === 0) {
      take(i);
      start = i + 1;
    }
  }
  take(config.length);
  return keys;
}

function checkWiredTiger(path: string, options: Document): void {
  for (const [field, value] of Object.entries(options)) {
    if (field !== 'configString') throw new CommandError('InvalidOptions', `'${field}' is not a supported option in ${path}`);
    if (typeof value !== 'string') throw new CommandError('TypeMismatch', `'${path}.configString' must be a string`);
    if (value.includes('\0')) throw new CommandError('FailedToParse', "malformed 'configString' field.");
    for (const key of configKeys(value)) {
      if (!WT_CREATE_SETTINGS.has(key)) throw new CommandError('BadValue', `unknown configuration key '${key}'`);
    }
  }
}

/** Checks a `storageEngine` document (`path`: how messages name it). */
function checkStorageEngine(path: string, value: Document): void {
  for (const [engine, options] of Object.entries(value)) {
    if (!isDocument(options)) throw new CommandError('BadValue', `'${path}.${engine}' has to be an embedded document.`);
    if (!(STORAGE_ENGINES as readonly string[]).includes(engine)) throw new CommandError('InvalidOptions', `unknown storage engine: ${engine}`);
    if (engine === 'wiredTiger') checkWiredTiger(`${path}.${engine}`, options);
  }
}

/** Throws mongod's error for a `create` whose `storageEngine` or `indexOptionDefaults` is not valid. */
export function checkStorageEngineOptions(cmd: Document): void {
  if (isDocument(cmd.storageEngine)) checkStorageEngine('storageEngine', cmd.storageEngine);
  const defaults = cmd.indexOptionDefaults;
  if (!isDocument(defaults)) return;
  for (const [field, value] of Object.entries(defaults)) {
    if (field !== 'storageEngine') throw new CommandError('IDLUnknownField', `BSON field 'create.indexOptionDefaults.${field}' is an unknown field.`);
    if (value === null) continue;
    if (!isDocument(value)) throw typeMismatch('create.indexOptionDefaults.storageEngine', value, ['object']);
    checkStorageEngine('storageEngine', value);
  }
}
