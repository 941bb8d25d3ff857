/** The wire layer's public surface: framing, decoding, encoding. See README.md. */
export * from './constants.js';
export * from './crc32c.js';
export * from './decode.js';
export * from './error_reply.js';
export * from './frame_decoder.js';
export * from './message.js';
export * from './op_compressed.js';
export * from './op_msg.js';
export * from './op_query.js';
export * from './op_reply.js';
export * from './wire_error.js';
