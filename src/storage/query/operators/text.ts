/**
 * `$text: {$search, $language?, $caseSensitive?, $diacriticSensitive?}`: full-text search on the
 * collection's text index (../../text/). The argument is checked as mongod's text parser checks
 * it; the search string is parsed, and documents matched and scored, once the query is bound to
 * the collection's text index (the planner does that before any document is read:
 * `../../planner/text.ts`). Placement (top level only, once per query, not under `$nor`, not with
 * a near query) is checked by the filter parser.
 */
import type { Document } from '../../../bson/library.js';
import { CommandError } from '../../../errors/command_error.js';
import { bsonTypeOf } from '../../values/bson_type.js';
import { isDocument } from '../../values/paths.js';
import { textLanguage, type TextLanguage } from '../../text/language.js';
import { textMatchScore } from '../../text/matcher.js';
import { parseTextSearch, type TextSearch } from '../../text/search.js';
import type { TextIndexSpec } from '../../text/text_index_spec.js';
import type { FoldOptions } from '../../text/tokenizer.js';
import type { StoredDocument } from '../../record.js';

/** mongod's 27 for a `$text` query on a collection without a text index. */
export function textIndexRequired(): CommandError {
  return new CommandError('IndexNotFound', 'text index required for $text query');
}

/** A `$text` query: its argument, and once bound to a text index, its parsed search. */
export class TextQuery {
  private spec: TextIndexSpec | null = null;
  private parsed: TextSearch | null = null;
  /** The filter the query stands in (its prefix-field equalities pick a compound text index's part). */
  filter: Document | undefined;
  /**
   * The other branches of the `$or` the query stands in (each must be answered by an index,
   * `../../planner/text.ts`); null at the top level.
   */
  orSiblings: readonly Document[] | null = null;
  /** The score of each record matched so far (`../../planner/text.ts`). */
  readonly scores = new WeakMap<StoredDocument, number>();

  constructor(
    readonly search: string,
    readonly language: TextLanguage | null,
    readonly fold: FoldOptions,
  ) {}

  /** Binds the query to the collection's text index (its default language parses the search). */
  bind(spec: TextIndexSpec): void {
    if (this.spec === spec) return;
    this.spec = spec;
    this.parsed = parseTextSearch(this.search, this.language ?? spec.defaultLanguage, this.fold);
  }

  /** The text index the query is bound to, or null. */
  get index(): TextIndexSpec | null {
    return this.spec;
  }

  /** The parsed search (after `bind`). */
  get parsedSearch(): TextSearch | null {
    return this.parsed;
  }

  /** The score of `doc`, or null when it does not match (27 when the query was never bound). */
  score(doc: Document): number | null {
    if (this.spec === null || this.parsed === null) throw textIndexRequired();
    return textMatchScore(this.spec, this.parsed, this.fold, doc);
  }
}

function extractString(arg: Document, field: string): string | undefined {
  const value = arg[field];
  if (value === undefined) return undefined;
  if (typeof value !== 'string') throw new CommandError('TypeMismatch', `"${field}" had the wrong type. Expected string, found ${bsonTypeOf(value)}`);
  return value;
}

function extractBoolean(arg: Document, field: string): boolean | undefined {
  const value = arg[field];
  if (value === undefined) return undefined;
  if (typeof value !== 'boolean') throw new CommandError('TypeMismatch', `"${field}" had the wrong type. Expected bool, found ${bsonTypeOf(value)}`);
  return value;
}

/** Parses the argument of `$text` (mongod's errors: 2, 4 NoSuchKey, 14 TypeMismatch). */
export function parseTextArgument(arg: unknown): TextQuery {
  if (!isDocument(arg)) throw new CommandError('BadValue', '$text expects an object');
  if (arg.$search === undefined) throw new CommandError('NoSuchKey', 'Missing expected field "$search"');
  const search = extractString(arg, '$search')!;
  let expected = 1;
  const language = extractString(arg, '$language');
  if (language !== undefined) expected++;
  const caseSensitive = extractBoolean(arg, '$caseSensitive');
  if (caseSensitive !== undefined) expected++;
  const diacriticSensitive = extractBoolean(arg, '$diacriticSensitive');
  if (diacriticSensitive !== undefined) expected++;
  if (Object.keys(arg).length !== expected) throw new CommandError('BadValue', 'extra fields in $text');
  // An empty $language is the index's default.
  return new TextQuery(search, language === undefined || language === '' ? null : textLanguage(language), {
    caseSensitive: caseSensitive ?? false,
    diacriticSensitive: diacriticSensitive ?? false,
  });
}
