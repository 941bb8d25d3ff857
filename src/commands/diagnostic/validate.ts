/**
 * `validate` (validate.cpp, collection_validation.cpp): checks a collection's records and every
 * index that keeps entries — each document's keys are generated again and their count compared
 * with the index's entries, each record must be a document within the BSON limit — and reports as
 * mongod does (`nrecords`, `keysPerIndex`, `indexDetails`, the error lists). The options are
 * read by truthiness (`trueValue`), with mongod's incompatibilities (72) and, on a standalone,
 * `background` refused (115).
 */
import { MAX_BSON_OBJECT_BYTES, type Document } from '../../bson/library.js';
import { CommandError } from '../../errors/command_error.js';
import { recordSize } from '../../storage/record.js';
import { isNumber, toDouble } from '../../storage/values/numeric.js';
import { viewNotCollectionError } from '../../storage/values/namespace.js';
import { collectionArg } from '../args.js';
import type { CommandDefinition } from '../types.js';

/** `BSONElement::trueValue`: absent, null, undefined, false and numeric zero are false. */
function trueValue(value: unknown): boolean {
  if (value === undefined || value === null || value === false) return false;
  if (isNumber(value)) return toDouble(value) !== 0;
  return true;
}

function invalidOptions(message: string): CommandError {
  return new CommandError('InvalidOptions', `Running the validate command with ${message}`);
}

/** The `validate` command. */
export const validate: CommandDefinition = {
  name: 'validate',
  args: 'lenient',
  concerns: { readConcern: 'localOnly', writeConcern: false },
  help: 'Validate contents of a namespace by scanning its data structures for correctness.\nThis is a slow operation.\n\tAdd {full: true} option to do a more thorough check.\n\tAdd {background: true} to validate in the background.\nCannot specify both {full: true, background: true}.',
  run(ctx, cmd) {
    const name = collectionArg(cmd, 'validate', ctx.db);
    const background = trueValue(cmd.background);
    const full = trueValue(cmd.full);
    const enforceFastCount = trueValue(cmd.enforceFastCount);
    const checkBSONConformance = trueValue(cmd.checkBSONConformance);
    const repair = trueValue(cmd.repair);
    const fixMultikey = trueValue(cmd.fixMultikey);
    const metadata = trueValue(cmd.metadata);
    const replSet = ctx.server.settings.replSetName !== null;
    if (background && full) throw invalidOptions('both { background: true } and { full: true } is not supported.');
    if (background && enforceFastCount) throw invalidOptions('both { background: true } and { enforceFastCount: true } is not supported.');
    if (cmd.checkBSONConformance !== undefined && !checkBSONConformance && (full || enforceFastCount)) {
      throw new CommandError('InvalidOptions', "Cannot explicitly set 'checkBSONConformance: false' with full validation set.");
    }
    if (background && repair) throw invalidOptions('both { background: true } and { repair: true } is not supported.');
    if (enforceFastCount && repair) throw invalidOptions('both { enforceFastCount: true } and { repair: true } is not supported.');
    if (checkBSONConformance && repair) throw invalidOptions('both { checkBSONConformance: true } and { repair: true } is not supported.');
    if (repair && replSet) throw invalidOptions('{ repair: true } can only be performed in standalone mode.');
    if (fixMultikey && replSet) throw invalidOptions('{ fixMultikey: true } can only be performed in standalone mode.');
    if (cmd.fixMultikey !== undefined && !fixMultikey && repair) throw invalidOptions('both { fixMultikey: false } and { repair: true } is not supported.');
    if (metadata && (background || full || enforceFastCount || checkBSONConformance || repair)) {
      throw invalidOptions('{ metadata: true } is not supported with any other options');
    }
    if (background && !replSet) {
      throw new CommandError('CommandNotSupported', 'Running the validate command with { background: true } is not supported in standalone mode');
    }
    const ns = `${ctx.db}.${name}`;
    const coll = ctx.server.catalog.get(ctx.db, name);
    if (coll === undefined) {
      if (ctx.server.catalog.view(ctx.db, name)) throw viewNotCollectionError(ctx.db, name);
      throw new CommandError('NamespaceNotFound', `Collection '${ns}' does not exist to validate.`);
    }
    const repairMode = replSet ? 'None' : repair ? 'FixErrors' : fixMultikey ? 'AdjustMultikey' : 'None';
    const indexes = coll.allIndexes();
    const errors: string[] = [];
    const warnings: string[] = [];
    const indexDetails: Document = {};
    if (metadata) {
      for (const index of indexes) indexDetails[index.name] = { valid: true };
      return {
        ns,
        uuid: coll.uuid,
        nIndexes: indexes.length,
        indexDetails,
        valid: true,
        repaired: false,
        repairMode,
        warnings,
        errors,
        extraIndexEntries: [],
        missingIndexEntries: [],
        corruptRecords: [],
      };
    }
    const now = ctx.now();
    const expectedKeys = indexes.map(() => 0);
    let nrecords = 0;
    let nInvalidDocuments = 0;
    const corruptRecords: unknown[] = [];
    for (const rec of coll.scan(() => now)) {
      nrecords++;
      let doc: Document;
      try {
        doc = rec.doc;
      } catch {
        nInvalidDocuments++;
        corruptRecords.push(rec.id);
        continue;
      }
      if (recordSize(rec) > MAX_BSON_OBJECT_BYTES + 16 * 1024) {
        nInvalidDocuments++;
        errors.push(`Document with _id ${rec.id} is larger than the maximum BSON document size`);
      }
      indexes.forEach((index, i) => {
        if (index.entryless) return;
        try {
          expectedKeys[i]! += index.keysOf(doc).keys.length;
        } catch {
          // A document the index refuses now (it was accepted when written): reported below.
          expectedKeys[i]! = Number.NaN;
        }
      });
    }
    const keysPerIndex: Document = {};
    indexes.forEach((index, i) => {
      const expected = expectedKeys[i]!;
      const actual = index.entryless || !index.maintained ? expected : index.tree.size;
      const valid = Number.isFinite(expected) && actual === expected;
      keysPerIndex[index.name] = Number.isFinite(expected) ? expected : actual;
      indexDetails[index.name] = { valid, spec: index.spec };
      if (!valid) {
        errors.push(`index ${index.name} has ${actual} entries, but the collection's documents have ${Number.isFinite(expected) ? expected : 'unindexable'} keys`);
      }
    });
    const valid = errors.length === 0;
    return {
      ns,
      uuid: coll.uuid,
      nInvalidDocuments,
      nNonCompliantDocuments: 0,
      nrecords,
      nIndexes: indexes.length,
      keysPerIndex,
      indexDetails,
      valid,
      repaired: false,
      repairMode,
      warnings,
      errors,
      extraIndexEntries: [],
      missingIndexEntries: [],
      corruptRecords,
      ...(valid ? {} : { advice: 'A corrupt namespace has been detected. See http://dochub.mongodb.org/core/data-recovery for recovery steps.' }),
    };
  },
};
