/**
 * CRC-32C (Castagnoli, reflected polynomial 0x82F63B78), the checksum of OP_MSG's optional
 * trailing `checksum` field. Table-driven "slicing by 8": eight 256-entry tables let the main
 * loop consume 8 bytes per iteration with no per-byte branches.
 */

const POLYNOMIAL = 0x82f63b78;

function makeTables(): Int32Array[] {
  const tables: Int32Array[] = [];
  const t0 = new Int32Array(256);
  for (let i = 0; i < 256; i++) {
    let c = i;
    for (let k = 0; k < 8; k++) c = c & 1 ? (c >>> 1) ^ POLYNOMIAL : c >>> 1;
    t0[i] = c;
  }
  tables.push(t0);
  for (let t = 1; t < 8; t++) {
    const prev = tables[t - 1]!;
    const next = new Int32Array(256);
    for (let i = 0; i < 256; i++) next[i] = (prev[i]! >>> 8) ^ t0[prev[i]! & 0xff]!;
    tables.push(next);
  }
  return tables;
}

const [T0, T1, T2, T3, T4, T5, T6, T7] = makeTables() as [
  Int32Array, Int32Array, Int32Array, Int32Array, Int32Array, Int32Array, Int32Array, Int32Array,
];

/**
 * The CRC-32C of `data` as an unsigned 32-bit number. `initial` is the CRC of the bytes before
 * `data` (default 0, the empty input), so `crc32c(b, crc32c(a))` equals the CRC of `a` then `b`.
 */
export function crc32c(data: Uint8Array, initial = 0): number {
  let crc = ~initial | 0;
  const n = data.length;
  let i = 0;
  const end8 = n - (n & 7);
  while (i < end8) {
    const a = crc ^ (data[i]! | (data[i + 1]! << 8) | (data[i + 2]! << 16) | (data[i + 3]! << 24));
    const b = data[i + 4]! | (data[i + 5]! << 8) | (data[i + 6]! << 16) | (data[i + 7]! << 24);
    crc =
      T7[a & 0xff]! ^
      T6[(a >>> 8) & 0xff]! ^
      T5[(a >>> 16) & 0xff]! ^
      T4[a >>> 24]! ^
      T3[b & 0xff]! ^
      T2[(b >>> 8) & 0xff]! ^
      T1[(b >>> 16) & 0xff]! ^
      T0[b >>> 24]!;
    i += 8;
  }
  while (i < n) {
    crc = T0[(crc ^ data[i]!) & 0xff]! ^ (crc >>> 8);
    i++;
  }
  return ~crc >>> 0;
}
