/** The contract between the update tree and one update operator ("modifier"). */
import type { Document } from '../../../bson/library.js';
import type { Collator } from '../../values/collator.js';
import type { UpdateContext } from '../update_context.js';

/** Returned by `updateExisting` when the element is left as it is. */
export const NOOP: unique symbol = Symbol('update.noop');

/** Returned by `updateExisting` to remove the element ($unset). */
export const REMOVE: unique symbol = Symbol('update.remove');

/** What a modifier sees while applying. */
export interface ModifierContext {
  /** The document being updated (already a private copy). */
  readonly doc: Document;
  readonly update: UpdateContext;
  /** The path to the element (for an existing element) or to its deepest existing parent. */
  readonly pathTaken: readonly string[];
}

/** One parsed `{<op>: {<path>: <arg>}}` entry. */
export interface Modifier {
  /** The operator name, e.g. `$inc`. */
  readonly op: string;
  /** Whether a missing path is created ($set, $inc, $push...) or ignored ($unset, $pull...). */
  readonly allowCreation: boolean;
  /** For non-creating modifiers: whether a path blocked by a scalar is silently ignored. */
  readonly allowNonViablePath?: boolean;
  /** Applied only when the update inserts a document ($setOnInsert). */
  readonly insertOnly?: boolean;
  /** The new value of an existing element, `NOOP`, or `REMOVE`. */
  updateExisting(current: unknown, mc: ModifierContext): unknown;
  /** The value of a created element. */
  createValue(mc: ModifierContext): unknown;
}

/**
 * Parses the argument of one path of an operator (validation errors at compile time);
 * `collator` is the update's collation (null: simple), which `$addToSet`, `$pull`, `$pullAll`,
 * `$push`'s `$sort` and `$min`/`$max` compare strings by.
 */
export type ModifierParser = (field: string, arg: unknown, collator: Collator | null) => Modifier;

/** An update operator applied to one path at a time by a `Modifier`. */
export interface ModifierDefinition {
  /** The operator name, e.g. `$inc`. */
  readonly name: string;
  readonly kind: 'modifier';
  readonly parse: ModifierParser;
}

/** The two paths of one `$rename` entry. */
export interface RenamePaths {
  readonly from: readonly string[];
  readonly to: readonly string[];
}

/**
 * `$rename`, the one operator that touches two paths: it parses and checks them, and the update
 * tree moves the value (operator_update.ts). `claimSource` enters the source path in the tree
 * before the checks, which is the order mongod reports conflicts and bad paths in.
 */
export interface RenameDefinition {
  readonly name: string;
  readonly kind: 'rename';
  parse(from: string, to: unknown, claimSource: (from: readonly string[]) => void): RenamePaths;
}

/** One row of the update-operator table (`index.ts`). */
export type UpdateOperatorDefinition = ModifierDefinition | RenameDefinition;
