/**
 * Hand-built byte fixtures for the wire tests: BSON and messages written with Buffer calls,
 * independent of the wire encoders and of the `bson` library.
 */

/** A little-endian int32. */
export function int32(n: number): Buffer {
  const b = Buffer.alloc(4);
  b.writeInt32LE(n, 0);
  return b;
}

/** A little-endian uint32. */
export function uint32(n: number): Buffer {
  const b = Buffer.alloc(4);
  b.writeUInt32LE(n >>> 0, 0);
  return b;
}

/** A little-endian int64. */
export function int64(n: bigint): Buffer {
  const b = Buffer.alloc(8);
  b.writeBigInt64LE(n, 0);
  return b;
}

/** A NUL-terminated UTF-8 string. */
export function cstring(s: string): Buffer {
  return Buffer.concat([Buffer.from(s, 'utf8'), Buffer.from([0])]);
}

function element(type: number, name: string, payload: Buffer): Buffer {
  return Buffer.concat([Buffer.from([type]), cstring(name), payload]);
}

/** BSON elements, written by hand. */
export const el = {
  int32: (name: string, v: number) => element(0x10, name, int32(v)),
  double: (name: string, v: number) => {
    const b = Buffer.alloc(8);
    b.writeDoubleLE(v, 0);
    return element(0x01, name, b);
  },
  string: (name: string, v: string) => {
    const s = Buffer.from(v, 'utf8');
    return element(0x02, name, Buffer.concat([int32(s.length + 1), s, Buffer.from([0])]));
  },
  bool: (name: string, v: boolean) => element(0x08, name, Buffer.from([v ? 1 : 0])),
  doc: (name: string, doc: Buffer) => element(0x03, name, doc),
  array: (name: string, docs: Buffer[]) => element(0x04, name, bson(...docs.map((d, i) => el.doc(String(i), d)))),
};

/** A BSON document made of the given elements. */
export function bson(...elements: Buffer[]): Buffer {
  const body = Buffer.concat(elements);
  return Buffer.concat([int32(4 + body.length + 1), body, Buffer.from([0])]);
}

/** A standard message header. */
export function header(messageLength: number, requestId: number, responseTo: number, opCode: number): Buffer {
  return Buffer.concat([int32(messageLength), int32(requestId), int32(responseTo), int32(opCode)]);
}

/** A whole message: header (length computed) followed by `parts`. */
export function frame(opCode: number, requestId: number, responseTo: number, ...parts: Buffer[]): Buffer {
  const body = Buffer.concat(parts);
  return Buffer.concat([header(16 + body.length, requestId, responseTo, opCode), body]);
}

/** An OP_MSG kind-0 section. */
export function kind0(doc: Buffer): Buffer {
  return Buffer.concat([Buffer.from([0]), doc]);
}

/** An OP_MSG kind-1 section; `size` overrides the computed section size. */
export function kind1(identifier: string, docs: Buffer[], size?: number): Buffer {
  const id = cstring(identifier);
  const payload = Buffer.concat(docs);
  return Buffer.concat([Buffer.from([1]), int32(size ?? 4 + id.length + payload.length), id, payload]);
}

/** Bit-at-a-time reference CRC-32C (Castagnoli, reflected 0x82F63B78). */
export function refCrc32c(bytes: Uint8Array): number {
  let crc = 0xffffffff;
  for (const byte of bytes) {
    crc ^= byte;
    for (let k = 0; k < 8; k++) crc = crc & 1 ? (crc >>> 1) ^ 0x82f63b78 : crc >>> 1;
  }
  return (crc ^ 0xffffffff) >>> 0;
}

/**
 * An OP_MSG (opcode 2013). `checksum: true` appends the correct CRC-32C (and expects the
 * checksumPresent flag to be in `flags`); a number appends that value instead.
 */
export function opMsg(
  requestId: number,
  flags: number,
  sections: Buffer[],
  checksum?: boolean | number,
): Buffer {
  const msg = frame(2013, requestId, 0, uint32(flags), ...sections, checksum === undefined || checksum === false ? Buffer.alloc(0) : Buffer.alloc(4));
  if (checksum === true) msg.writeUInt32LE(refCrc32c(msg.subarray(0, msg.length - 4)), msg.length - 4);
  else if (typeof checksum === 'number') msg.writeUInt32LE(checksum >>> 0, msg.length - 4);
  return msg;
}

/** An OP_QUERY (opcode 2004). */
export function opQuery(
  requestId: number,
  flags: number,
  ns: string,
  skip: number,
  nReturn: number,
  query: Buffer,
  fields?: Buffer,
): Buffer {
  return frame(2004, requestId, 0, int32(flags), cstring(ns), int32(skip), int32(nReturn), query, fields ?? Buffer.alloc(0));
}

/** `{ ping: 1, $db: "admin" }` by hand. */
export const PING = bson(el.int32('ping', 1), el.string('$db', 'admin'));
