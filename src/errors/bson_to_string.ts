/**
 * mongod's rendering of a value in error messages (`{ _id: 1 }`, `ObjectId('…')`, `1.0`), as
 * error builders outside the value layer name it. The implementation is the value layer's.
 */
export { formatValue as bsonToString } from '../storage/values/bson_to_string.js';
