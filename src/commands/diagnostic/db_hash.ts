/**
 * `dbHash` (dbhash.cpp): an md5 per collection of its documents' BSON in `_id` order, and an md5
 * of those hex digests in collection-name order. Views are not hashed (their definitions are, in
 * `system.views`); `collections` narrows the set (its names must be strings: 2); the command's
 * value and any other field are ignored, as mongod does.
 */
import { createHash } from 'node:crypto';
import os from 'node:os';
import type { Document } from '../../bson/library.js';
import { serialize } from '../../bson/encode.js';
import { CommandError } from '../../errors/command_error.js';
import { compareValues } from '../../storage/values/compare.js';
import type { CommandDefinition } from '../types.js';

/** The `dbHash` command. */
export const dbHash: CommandDefinition = {
  name: 'dbHash',
  aliases: ['dbhash'],
  args: 'lenient',
  concerns: { readConcern: 'all', writeConcern: false },
  help: 'Get a hash of the contents of a database',
  run(ctx, cmd) {
    let wanted: Set<string> | undefined;
    if (Array.isArray(cmd.collections)) {
      wanted = new Set();
      for (const name of cmd.collections as unknown[]) {
        if (typeof name !== 'string') throw new CommandError('BadValue', 'collections entries must be of type String');
        wanted.add(name);
      }
      if (wanted.size === 0) wanted = undefined;
    }
    const now = ctx.now();
    const colls = ctx.server.catalog
      .collections(ctx.db)
      .filter((c) => wanted === undefined || wanted.has(c.name))
      .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    const collections: Document = {};
    const uuids: Document = {};
    const capped: string[] = [];
    const all = createHash('md5');
    for (const coll of colls) {
      const docs = [...coll.scan(() => now)].map((rec) => rec.doc);
      docs.sort((a, b) => compareValues(a._id, b._id));
      const md5 = createHash('md5');
      for (const doc of docs) md5.update(serialize(doc));
      const digest = md5.digest('hex');
      collections[coll.name] = digest;
      uuids[coll.name] = coll.uuid;
      if (coll.capped !== null) capped.push(coll.name);
      all.update(digest);
    }
    return { host: `${os.hostname()}:${ctx.server.settings.port}`, collections, capped, uuids, md5: all.digest('hex'), timeMillis: 0 };
  },
};
