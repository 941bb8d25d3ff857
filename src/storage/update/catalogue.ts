/**
 * Every update operator of mongod 8.2 (update/modifier_table.cpp), one per line, whether Mayfly
 * implements it or not: what `modifiers/index.ts` lacks answers 238 NotImplemented
 * (registry.ts), never "Unknown modifier". Never edited to add one.
 */
export const UPDATE_OPERATOR_CATALOGUE: readonly string[] = [
  '$addToSet',
  '$bit',
  '$currentDate',
  '$inc',
  '$max',
  '$min',
  '$mul',
  '$pop',
  '$pull',
  '$pullAll',
  '$push',
  '$rename',
  '$set',
  '$setOnInsert',
  '$unset',
];
