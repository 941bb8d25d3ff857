/**
 * Collation specs (mongod's CollatorFactoryICU::makeFromBSON): validated with mongod's IDL
 * errors and spelled out as mongod stores and lists them (the locale's ICU defaults filled in,
 * version 57.1), `{ locale: 'simple' }` meaning none. The same spec serves a command's
 * `collation` argument, a collection's default collation (`create`) and an index's collation;
 * `collatorOf` compiles it (`../values/collator.ts`).
 */
import type { Document } from '../../bson/library.js';
import { CommandError } from '../../errors/command_error.js';
import { bsonTypeOf } from '../values/bson_type.js';
import { isNumber, toDouble } from '../values/numeric.js';
import { formatValue } from '../values/format.js';
import { Collator, localeDefaults } from '../values/collator.js';
import { isDocument } from '../values/paths.js';

/** The ICU collation version mongod reports (and accepts in `version`). */
export const COLLATION_VERSION = '57.1';

/** The locales mongod's ICU build accepts (MongoDB manual, "Collation Locales"). */
const LOCALES = new Set(
  (
    'af sq am ar hy as az be bn bs bs_Cyrl bg my ca chr zh zh_Hant hr cs da nl dz en en_US en_US_POSIX eo et ee fo fil fi ' +
    'fi_FI fr fr_CA gl ka de de_AT el gu ha haw he hi hu is ig smn id ga it ja kl kn kk km kok ko ky lk lo lv li lt dsb ' +
    'lb mk ms ml mt mr mn ne se nb nn or om ps fa fa_AF pl pt pa ro ru sr sr_Latn si sk sl es sw sv ta te th bo to tr uk ' +
    'hsb ur ug vi wae cy yi yo zu'
  ).split(' '),
);

const FIELDS = ['locale', 'caseLevel', 'caseFirst', 'strength', 'numericOrdering', 'alternate', 'maxVariable', 'normalization', 'backwards', 'version'];
const BOOLEANS = new Set(['caseLevel', 'numericOrdering', 'normalization', 'backwards']);
const ENUMS: Readonly<Record<string, readonly string[]>> = {
  caseFirst: ['upper', 'lower', 'off'],
  alternate: ['non-ignorable', 'shifted'],
  maxVariable: ['punct', 'space'],
};

/** True when `locale` (with an optional `@keyword` part) is one mongod knows. */
function knownLocale(locale: string): boolean {
  return LOCALES.has(locale.split('@')[0]!);
}

/**
 * The locale ICU would use for an unknown `locale` (mongod's "Did you mean" hint): its
 * canonical spelling (`en_us` → `en_US`, `EN` → `en`), else its language alone; null for none.
 */
function suggestedLocale(locale: string): string | null {
  const [base, keywords] = locale.split('@') as [string, string | undefined];
  const parts = base.split(/[-_]/).filter((p) => p !== '');
  if (parts.length === 0) return null;
  const canonical = parts
    .map((p, i) => {
      if (i === 0) return p.toLowerCase();
      if (p.toUpperCase() === 'POSIX') return 'POSIX';
      if (p.length === 4) return p[0]!.toUpperCase() + p.slice(1).toLowerCase();
      return p.toUpperCase();
    })
    .join('_');
  if (knownLocale(canonical)) {
    const full = keywords === undefined ? canonical : `${canonical}@${keywords}`;
    return full === locale ? null : full;
  }
  const language = parts[0]!.toLowerCase();
  return language !== locale && knownLocale(language) ? language : null;
}

/**
 * The collation an index stores for a requested `collation` (null for the simple collation).
 * Throws mongod's IDL errors for bad fields and 2 BadValue for an unknown locale.
 */
export function normaliseCollation(collation: Document): Document | null {
  for (const key of Object.keys(collation)) {
    if (!FIELDS.includes(key)) throw new CommandError('IDLUnknownField', `BSON field 'collation.${key}' is an unknown field.`);
  }
  const locale = collation.locale;
  if (locale === undefined) throw new CommandError('IDLFailedToParse', "BSON field 'collation.locale' is missing but a required field");
  if (typeof locale !== 'string') {
    throw new CommandError('TypeMismatch', `BSON field 'collation.locale' is the wrong type '${bsonTypeOf(locale)}', expected type 'string'`);
  }
  for (const key of BOOLEANS) {
    const v = collation[key];
    if (v !== undefined && typeof v !== 'boolean') {
      throw new CommandError('TypeMismatch', `BSON field 'collation.${key}' is the wrong type '${bsonTypeOf(v)}', expected type 'bool'`);
    }
  }
  for (const [key, allowed] of Object.entries(ENUMS)) {
    const v = collation[key];
    if (v === undefined) continue;
    if (typeof v !== 'string') throw new CommandError('TypeMismatch', `BSON field 'collation.${key}' is the wrong type '${bsonTypeOf(v)}', expected type 'string'`);
    if (!allowed.includes(v)) throw new CommandError('BadValue', `Enumeration value '${v}' for field 'collation.${key}' is not a valid value.`);
  }
  let strength = 3;
  if (collation.strength !== undefined) {
    const v = collation.strength;
    if (!isNumber(v)) throw new CommandError('TypeMismatch', `BSON field 'collation.strength' is the wrong type '${bsonTypeOf(v)}', expected types '[int, long, double, decimal]'`);
    strength = Math.trunc(toDouble(v));
    if (strength > 5) throw new CommandError('BadValue', `BSON field 'strength' value must be <= 5, actual value '${strength}'`);
    if (strength < 1) throw new CommandError('BadValue', `BSON field 'strength' value must be >= 1, actual value '${strength}'`);
  }
  if (collation.version !== undefined && typeof collation.version !== 'string') {
    throw new CommandError('TypeMismatch', `BSON field 'collation.version' is the wrong type '${bsonTypeOf(collation.version)}', expected type 'string'`);
  }
  const shown = formatValue(collation);
  if (locale.includes('\0')) throw new CommandError('BadValue', `Field 'locale' cannot contain null byte. Collation spec: ${shown}`);
  if (locale === 'simple') return null;
  if (locale === '') throw new CommandError('BadValue', `Field 'locale' cannot be the empty string in: ${shown}`);
  if (!knownLocale(locale)) {
    const suggestion = suggestedLocale(locale);
    const hint = suggestion !== null ? `. Did you mean '${suggestion}'?` : '';
    throw new CommandError('BadValue', `Field 'locale' is invalid in: ${shown}${hint}`);
  }
  const defaults = localeDefaults(locale);
  const spec: Document = {
    locale,
    caseLevel: collation.caseLevel ?? false,
    caseFirst: collation.caseFirst ?? defaults.caseFirst,
    strength,
    numericOrdering: collation.numericOrdering ?? false,
    alternate: collation.alternate ?? defaults.alternate,
    maxVariable: collation.maxVariable ?? 'punct',
    normalization: collation.normalization ?? false,
    backwards: collation.backwards ?? locale === 'fr_CA',
    version: COLLATION_VERSION,
  };
  if (collation.version !== undefined && collation.version !== COLLATION_VERSION) {
    throw new CommandError(
      'IncompatibleCollationVersion',
      `Requested collation version ${String(collation.version)} but the only available collator version was ${COLLATION_VERSION}. Requested collation spec: ${shown}`,
    );
  }
  // validateCollationSpec: options that would have no effect.
  if (spec.backwards === true && strength === 1) {
    throw new CommandError('BadValue', `'backwards' is invalid with 'strength' of 1 in: ${shown}`);
  }
  if (spec.caseFirst !== 'off' && spec.caseLevel !== true && strength <= 2) {
    throw new CommandError('BadValue', `'caseFirst' is invalid unless 'caseLevel' is on or 'strength' is greater than 2 in: ${shown}`);
  }
  return spec;
}

/** The collator of a spelled-out collation (null: simple). A new one each call (see `Collator.key`). */
export function collatorOf(spec: Document | null | undefined): Collator | null {
  return spec ? new Collator(spec) : null;
}

/** True when two stored collations (null: simple) are the same. */
export function sameCollation(a: unknown, b: unknown): boolean {
  if (!isDocument(a) || !isDocument(b)) return !isDocument(a) && !isDocument(b);
  return FIELDS.every((f) => a[f] === b[f]);
}
