/** The update operators, sorted by name: one line each, one file each. */
import { addToSet } from './add_to_set.js';
import { bit } from './bit.js';
import { currentDate } from './current_date.js';
import { inc } from './inc.js';
import { max } from './max.js';
import { min } from './min.js';
import { mul } from './mul.js';
import { pop } from './pop.js';
import { pull } from './pull.js';
import { pullAll } from './pull_all.js';
import { push } from './push.js';
import { rename } from './rename.js';
import { set } from './set.js';
import { setOnInsert } from './set_on_insert.js';
import type { UpdateOperatorDefinition } from './types.js';
import { unset } from './unset.js';

/** Every update operator Mayfly implements. */
export const UPDATE_OPERATORS: readonly UpdateOperatorDefinition[] = [
  addToSet,
  bit,
  currentDate,
  inc,
  max,
  min,
  mul,
  pop,
  pull,
  pullAll,
  push,
  rename,
  set,
  setOnInsert,
  unset,
];
