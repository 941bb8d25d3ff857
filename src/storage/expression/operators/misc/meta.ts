/**
 * `$meta` (ExpressionMeta): a document's metadata by name. The argument must be a string
 * (17307) naming a metadata field mongod 8.2 knows (17308), checked when parsed. `textScore` is
 * the score a `$text` query gave the document (a document without one: mongod's 40218).
 * `geoNearDistance` and `geoNearPoint` are what `$geoNear` attached to the document; `score`
 * and `scoreDetails` are what `$rankFusion` and `$scoreFusion` set (values/metadata.ts); a
 * document without `scoreDetails` is mongod's 40218 (no stage before produced it), one without
 * `score` reads missing. Every other field is metadata that no Mayfly stage produces (search and
 * vector-search scores, index keys, sort keys, record ids, `$sample`'s random values), so it
 * evaluates to missing, as mongod's does for a document without it.
 */
import { CommandError } from '../../../../errors/command_error.js';
import { metadataOf } from '../../../values/metadata.js';
import { MISSING } from '../../../values/missing.js';
import type { ExpressionOperator } from '../../types.js';

/** The metadata names mongod 8.2 accepts (`DocumentMetadataFields`' parseable names). */
const META_NAMES = new Set([
  'textScore',
  'randVal',
  'searchScore',
  'searchHighlights',
  'geoNearDistance',
  'geoNearPoint',
  'recordId',
  'indexKey',
  'sortKey',
  'searchScoreDetails',
  'searchSequenceToken',
  'timeseriesBucketMinTime',
  'timeseriesBucketMaxTime',
  'vectorSearchScore',
  'score',
  'scoreDetails',
  'changeStreamControlEvent',
]);

/** `{$meta: "<name>"}`. */
export const meta: ExpressionOperator = {
  name: '$meta',
  parse(arg) {
    if (typeof arg !== 'string') throw new CommandError(17307, '$meta only supports string arguments');
    if (!META_NAMES.has(arg)) throw new CommandError(17308, `Unsupported argument to $meta: ${arg}`);
    if (arg === 'textScore') {
      return (frame) => {
        const score = metadataOf(frame.root)?.textScore;
        if (score === undefined) throw new CommandError(40218, 'query requires text score metadata, but it is not available');
        return score;
      };
    }
    if (arg === 'geoNearDistance' || arg === 'geoNearPoint') {
      // Set by $geoNear on the documents it yields (values/metadata.ts).
      return (frame) => metadataOf(frame.root)?.[arg] ?? MISSING;
    }
    if (arg === 'score') {
      return (frame) => {
        const score = metadataOf(frame.root)?.score;
        return score === undefined ? MISSING : score;
      };
    }
    if (arg === 'scoreDetails') {
      return (frame) => {
        const details = metadataOf(frame.root)?.scoreDetails;
        if (details === undefined) throw new CommandError(40218, 'query requires scoreDetails metadata, but it is not available');
        return details;
      };
    }
    return () => MISSING;
  },
};
