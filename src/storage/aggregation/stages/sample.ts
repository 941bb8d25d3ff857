/**
 * `$sample` (mongo/src/mongo/db/pipeline/document_source_sample.cpp): `size` documents drawn
 * uniformly at random from the input without repetition (all of them, in random order, when the
 * input is smaller). The size is any number, read as `safeNumberLong` (doubles truncated,
 * Decimal128 rounded half to even, saturated), and must be positive once read (28747, checked
 * after the options, so an unknown option wins). Randomness comes from the runtime's `random`
 * port. Memory is bounded by the smaller of the input and `size`: a reservoir of at most
 * `size` documents, shuffled at the end.
 */
import type { Document } from '../../../bson/library.js';
import { CommandError } from '../../../errors/command_error.js';
import { isNumber, safeNumberLong } from '../../values/numeric.js';
import { isDocument } from '../../values/paths.js';
import { BLOCKING, type StageDefinition } from '../stage.js';

/** The size of a `$sample` specification (28745, 28746, 28748, 28749, 28747). */
function parseSize(spec: unknown): bigint {
  if (!isDocument(spec)) throw new CommandError(28745, 'the $sample stage specification must be an object');
  let size: bigint | undefined;
  for (const [field, value] of Object.entries(spec)) {
    if (field !== 'size') throw new CommandError(28748, `unrecognized option to $sample: ${field}`);
    if (!isNumber(value)) throw new CommandError(28746, 'size argument to $sample must be a number');
    size = safeNumberLong(value);
  }
  if (size === undefined) throw new CommandError(28749, '$sample stage must specify a size');
  if (size <= 0n) throw new CommandError(28747, 'size argument to $sample must be a positive integer');
  return size;
}

/** A uniform integer in [0, n) from `random`. */
function below(n: number, random: () => number): number {
  return Math.min(n - 1, Math.floor(random() * n));
}

/** `{$sample: {size: <positive number>}}`. */
export const sample: StageDefinition = {
  name: '$sample',
  constraints: BLOCKING,
  parse(spec, ctx) {
    const size = parseSize(spec);
    const k = size > BigInt(Number.MAX_SAFE_INTEGER) ? Number.MAX_SAFE_INTEGER : Number(size);
    const random = ctx.runtime.random;
    return {
      *run(input) {
        // Reservoir sampling (Algorithm R): after n documents, each is in the reservoir with
        // probability min(1, k / n).
        const reservoir: Document[] = [];
        let seen = 0;
        for (const doc of input) {
          seen++;
          if (reservoir.length < k) reservoir.push(doc);
          else {
            const j = below(seen, random);
            if (j < k) reservoir[j] = doc;
          }
        }
        for (let i = reservoir.length - 1; i > 0; i--) {
          const j = below(i + 1, random);
          const t = reservoir[i]!;
          reservoir[i] = reservoir[j]!;
          reservoir[j] = t;
        }
        yield* reservoir;
      },
    };
  },
};
