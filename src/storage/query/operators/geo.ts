/**
 * Geospatial operators ($geoWithin, $within, $geoIntersects, $near, $nearSphere, $geoNear):
 * recognised, and answered NotImplemented until Mayfly has geo support.
 */
import { CommandError } from '../../../errors/command_error.js';

/** The geospatial field operators. */
export const GEO_OPERATORS: ReadonlySet<string> = new Set([
  '$geoWithin',
  '$within',
  '$geoIntersects',
  '$near',
  '$nearSphere',
  '$geoNear',
]);

/** Rejects a geospatial operator. */
export function parseGeo(op: string): never {
  throw new CommandError('NotImplemented', `${op} is not supported by Mayfly yet`);
}
