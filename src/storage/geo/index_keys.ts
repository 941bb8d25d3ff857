/**
 * What Mayfly's 2d and 2dsphere indexes check (they keep no entries: near queries measure every
 * match, near_read.ts): their spec options as mongod's access methods check them
 * (s2_access_method.cpp `fixSpec`, 2d_common.cpp `GeoHashConverter` parameters), and the keys of a
 * document, whose errors fail the write or the index build as mongod's key generation fails it
 * (16755 "Can't extract geo keys", 13027 out of the 2d range).
 */
import { bsonTag, type Document } from '../../bson/library.js';
import { CommandError } from '../../errors/command_error.js';
import { formatValue } from '../values/format.js';
import { isNumber, toDouble } from '../values/numeric.js';
import { MISSING, parsePath, walkPath } from '../values/paths.js';
import { elementsOf, isObjectLike, parseStoredGeometry, streamNumber } from './geojson.js';

/** Checks the 2d and 2dsphere options of a (normalised) spec; throws mongod's error. */
export function checkGeoIndexOptions(spec: Document, plugin: string): void {
  if (plugin === '2dsphere' && spec['2dsphereIndexVersion'] !== undefined) {
    const v = spec['2dsphereIndexVersion'];
    const d = toDouble(v);
    if (bsonTag(v) === 'Decimal128' || !(d === 1 || d === 2 || d === 3)) {
      throw new CommandError('CannotCreateIndex', `unsupported geo index version { 2dsphereIndexVersion : ${formatValue(v)} }, only support versions: [1,2,3]`);
    }
  }
  if (plugin === '2d') {
    if (spec.bits !== undefined) {
      const bits = spec.bits;
      const d = bsonTag(bits) === 'Decimal128' ? NaN : Math.trunc(toDouble(bits));
      if (!(d > 0 && d <= 32)) {
        throw new CommandError('InvalidOptions', `bits in geo index must be between 1 and 32`);
      }
    }
    const { min, max } = twoDRange(spec);
    if (!(min < max)) throw new CommandError('InvalidOptions', 'need a max larger than min');
  }
}

/** The coordinate range of a 2d index (`min`, `max`; [-180, 180) by default). */
export function twoDRange(spec: Document): { min: number; max: number } {
  return {
    min: spec.min === undefined ? -180 : toDouble(spec.min),
    max: spec.max === undefined ? 180 : toDouble(spec.max),
  };
}

/** The values at `path` the geo key generators read (inner arrays expanded, the last one kept whole). */
function valuesAt(doc: Document, path: string): unknown[] {
  const out: unknown[] = [];
  walkPath(doc, parsePath(path), false, (v) => {
    if (v !== MISSING) out.push(v);
    return false;
  });
  return out;
}

/** Checks that `doc` has 2dsphere keys for the field `path` (getS2GeoKeys); throws 16755. */
export function check2dsphereKeys(doc: Document, path: string): void {
  for (const v of valuesAt(doc, path)) {
    if (v === null || v === undefined || (Array.isArray(v) && v.length === 0)) continue;
    try {
      const g = parseStoredGeometry(v);
      if (g.kind === 'polygon' && g.big) throw new CommandError('BadValue', "Can't parse geometry from element: a polygon with a strict winding order");
    } catch (err) {
      if (!(err instanceof CommandError)) throw err;
      throw new CommandError(16755, `Can't extract geo keys: ${formatValue(doc)}  ${err.message}`);
    }
  }
}

/** Checks that `doc` has 2d keys for the field `path` within [min, max) (the 2d key generator); throws. */
export function check2dKeys(doc: Document, path: string, min: number, max: number): void {
  const checkPoint = (p: Document | unknown[]): void => {
    const els = elementsOf(p);
    if (els.length < 2 || !isNumber(els[0]) || !isNumber(els[1])) {
      throw new CommandError(16804, `location object expected, location array not in correct format`);
    }
    for (const c of [toDouble(els[0]), toDouble(els[1])]) {
      if (!(c >= min && c < max)) {
        throw new CommandError(13027, `point not in interval of [ ${streamNumber(min)}, ${streamNumber(max)} ) :: caused by :: ${formatValue(p)}`);
      }
    }
  };
  for (const v of valuesAt(doc, path)) {
    if (!isObjectLike(v)) continue;
    const els = elementsOf(v);
    if (els.length === 0) continue;
    if (isObjectLike(els[0])) {
      for (const p of els) if (isObjectLike(p)) checkPoint(p);
    } else {
      checkPoint(v);
    }
  }
}

/** A check of a document's keys in an index with key pattern `key`, or null when it has no geo field. */
export function geoKeyCheck(spec: Document): ((doc: Document) => void) | null {
  const key = spec.key as Document;
  const checks: Array<(doc: Document) => void> = [];
  for (const [field, kind] of Object.entries(key)) {
    if (kind === '2dsphere') checks.push((doc) => check2dsphereKeys(doc, field));
    else if (kind === '2d') {
      const { min, max } = twoDRange(spec);
      checks.push((doc) => check2dKeys(doc, field, min, max));
    }
  }
  if (checks.length === 0) return null;
  return (doc) => {
    for (const check of checks) check(doc);
  };
}
