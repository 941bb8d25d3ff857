/** `$set`: the alias of `$addFields` (its errors name `$set`). */
import { addFieldsStage } from './add_fields.js';

/** `{$set: {<field>: <expression>, ...}}`. */
export const set = addFieldsStage('$set');
