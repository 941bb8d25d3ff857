import { describe, expect, it } from 'vitest';
import { FrameDecoder } from '../../../src/wire/frame_decoder.js';
import { WireError } from '../../../src/wire/wire_error.js';
import { header, int32, kind0, opMsg, PING } from './fixtures.js';

const A = opMsg(1, 0, [kind0(PING)]);
const B = opMsg(2, 0, [kind0(PING)]);
const C = opMsg(3, 2, [kind0(PING)]);

function caught(fn: () => unknown): WireError {
  try {
    fn();
  } catch (err) {
    if (err instanceof WireError) return err;
    throw err;
  }
  throw new Error('expected a WireError');
}

describe('FrameDecoder', () => {
  it('returns a message that arrives in one chunk, unchanged', () => {
    const d = new FrameDecoder();
    const out = d.push(A);
    expect(out).toHaveLength(1);
    expect(Buffer.compare(out[0]!, A)).toBe(0);
    expect(d.bufferedBytes).toBe(0);
  });

  it('assembles a message delivered byte by byte', () => {
    const d = new FrameDecoder();
    for (let i = 0; i < A.length - 1; i++) {
      expect(d.push(A.subarray(i, i + 1))).toEqual([]);
      expect(d.bufferedBytes).toBe(i + 1);
    }
    const out = d.push(A.subarray(A.length - 1));
    expect(out).toHaveLength(1);
    expect(Buffer.compare(out[0]!, A)).toBe(0);
    expect(d.bufferedBytes).toBe(0);
  });

  it('splits several messages coalesced in one chunk', () => {
    const d = new FrameDecoder();
    const out = d.push(Buffer.concat([A, B, C]));
    expect(out.map((f) => f.readInt32LE(4))).toEqual([1, 2, 3]);
    expect(Buffer.compare(out[0]!, A)).toBe(0);
    expect(Buffer.compare(out[1]!, B)).toBe(0);
    expect(Buffer.compare(out[2]!, C)).toBe(0);
    expect(d.bufferedBytes).toBe(0);
  });

  it('handles a message split across two chunks at every offset', () => {
    for (let k = 1; k < A.length; k++) {
      const d = new FrameDecoder();
      expect(d.push(A.subarray(0, k))).toEqual([]);
      expect(d.bufferedBytes).toBe(k);
      const out = d.push(A.subarray(k));
      expect(out).toHaveLength(1);
      expect(Buffer.compare(out[0]!, A)).toBe(0);
    }
  });

  it('handles the second message of a chunk split at every offset of its header', () => {
    for (let k = 0; k <= 16; k++) {
      const d = new FrameDecoder();
      const first = d.push(Buffer.concat([A, B.subarray(0, k)]));
      expect(first).toHaveLength(1);
      expect(Buffer.compare(first[0]!, A)).toBe(0);
      expect(d.bufferedBytes).toBe(k);
      const second = d.push(Buffer.concat([B.subarray(k), C]));
      expect(second).toHaveLength(2);
      expect(Buffer.compare(second[0]!, B)).toBe(0);
      expect(Buffer.compare(second[1]!, C)).toBe(0);
      expect(d.bufferedBytes).toBe(0);
    }
  });

  it('handles a header split into three chunks', () => {
    const d = new FrameDecoder();
    expect(d.push(A.subarray(0, 1))).toEqual([]);
    expect(d.push(A.subarray(1, 3))).toEqual([]);
    expect(d.push(A.subarray(3, 10))).toEqual([]);
    const out = d.push(A.subarray(10));
    expect(Buffer.compare(out[0]!, A)).toBe(0);
  });

  it('accepts a message of exactly 16 bytes (header only)', () => {
    const d = new FrameDecoder();
    const out = d.push(header(16, 9, 0, 2013));
    expect(out).toHaveLength(1);
    expect(out[0]!.length).toBe(16);
  });

  it('accepts an announced length of exactly 48,000,000 bytes', () => {
    const d = new FrameDecoder();
    expect(d.push(int32(48_000_000))).toEqual([]);
    expect(d.bufferedBytes).toBe(4);
  });

  it('rejects an oversized length with a fatal ProtocolError', () => {
    const d = new FrameDecoder();
    const err = caught(() => d.push(header(48_000_001, 1, 0, 2013)));
    expect(err.code).toBe(17);
    expect(err.message).toBe('recv(): message msgLen 48000001 is invalid. Min 16 Max: 48000000');
    expect(err.closeConnection).toBe(true);
    expect(err.requestId).toBe(null);
  });

  it('rejects a length below 16', () => {
    for (const length of [0, 4, 15]) {
      const err = caught(() => new FrameDecoder().push(header(length, 1, 0, 2013)));
      expect(err.code).toBe(17);
      expect(err.message).toBe(`recv(): message msgLen ${length} is invalid. Min 16 Max: 48000000`);
      expect(err.closeConnection).toBe(true);
    }
  });

  it('rejects a negative length, rendered as mongod renders it (size_t)', () => {
    const err = caught(() => new FrameDecoder().push(int32(-1)));
    expect(err.code).toBe(17);
    expect(err.message).toBe('recv(): message msgLen 18446744073709551615 is invalid. Min 16 Max: 48000000');
    expect(err.closeConnection).toBe(true);
    const min = caught(() => new FrameDecoder().push(int32(-2147483648)));
    expect(min.message).toBe('recv(): message msgLen 18446744071562067968 is invalid. Min 16 Max: 48000000');
  });

  it('rejects a bad length whose prefix is split across chunks', () => {
    const d = new FrameDecoder();
    const bad = int32(5);
    expect(d.push(bad.subarray(0, 2))).toEqual([]);
    const err = caught(() => d.push(bad.subarray(2)));
    expect(err.message).toBe('recv(): message msgLen 5 is invalid. Min 16 Max: 48000000');
  });

  it('rejects a bad length that follows a good message in the same chunk, and stays failed', () => {
    const d = new FrameDecoder();
    const err = caught(() => d.push(Buffer.concat([A, int32(3)])));
    expect(err.message).toBe('recv(): message msgLen 3 is invalid. Min 16 Max: 48000000');
    expect(caught(() => d.push(B))).toBe(err);
  });

  it('assembles a 24 MB message sent in 64 KiB chunks in linear time', () => {
    const size = 24_000_000;
    const big = Buffer.alloc(size);
    for (let i = 16; i < size; i += 4096) big[i] = i & 0xff;
    header(size, 77, 0, 2013).copy(big, 0);
    const d = new FrameDecoder();
    const started = performance.now();
    const out: Buffer[] = [];
    for (let at = 0; at < size; at += 65536) out.push(...d.push(big.subarray(at, Math.min(size, at + 65536))));
    const elapsedMs = performance.now() - started;
    expect(out).toHaveLength(1);
    expect(out[0]!.length).toBe(size);
    expect(Buffer.compare(out[0]!, big)).toBe(0);
    expect(elapsedMs).toBeLessThan(1000);
  });

  it('assembles a 1 MB message sent in 1-byte-chunks without quadratic copying', () => {
    const size = 1_000_000;
    const big = Buffer.alloc(size, 0x61);
    header(size, 78, 0, 2013).copy(big, 0);
    const d = new FrameDecoder();
    const started = performance.now();
    let out: Buffer[] = [];
    for (let at = 0; at < size; at++) {
      const got = d.push(big.subarray(at, at + 1));
      if (got.length) out = got;
    }
    const elapsedMs = performance.now() - started;
    expect(out).toHaveLength(1);
    expect(Buffer.compare(out[0]!, big)).toBe(0);
    expect(elapsedMs).toBeLessThan(3000);
  });
});
