import { describe, expect, it } from 'vitest';
import { crc32c } from '../../../src/wire/crc32c.js';
import { refCrc32c } from './fixtures.js';

describe('crc32c', () => {
  it('matches the standard check value for "123456789"', () => {
    expect(crc32c(Buffer.from('123456789', 'ascii'))).toBe(0xe3069283);
  });

  it('is 0 for empty input', () => {
    expect(crc32c(new Uint8Array(0))).toBe(0);
  });

  it('matches the RFC 3720 (iSCSI) test vectors', () => {
    expect(crc32c(new Uint8Array(32))).toBe(0x8a9136aa);
    expect(crc32c(new Uint8Array(32).fill(0xff))).toBe(0x62a8ab43);
    expect(crc32c(Uint8Array.from({ length: 32 }, (_, i) => i))).toBe(0x46dd794e);
    expect(crc32c(Uint8Array.from({ length: 32 }, (_, i) => 31 - i))).toBe(0x113fdb5c);
  });

  it('agrees with a bit-at-a-time implementation at every length 0..100 and offset 0..7', () => {
    const data = Uint8Array.from({ length: 200 }, (_, i) => (i * 131 + 7) & 0xff);
    for (let offset = 0; offset < 8; offset++) {
      for (let len = 0; len <= 100; len++) {
        const slice = data.subarray(offset, offset + len);
        expect(crc32c(slice)).toBe(refCrc32c(slice));
      }
    }
  });

  it('chains: crc32c(b, crc32c(a)) is the CRC of a followed by b', () => {
    const a = Buffer.from('12345', 'ascii');
    const b = Buffer.from('6789', 'ascii');
    expect(crc32c(b, crc32c(a))).toBe(0xe3069283);
  });

  it('handles 32 MiB quickly and agrees with the reference', () => {
    const big = new Uint8Array(32 * 1024 * 1024);
    for (let i = 0; i < big.length; i++) big[i] = (i * 31) & 0xff;
    const started = performance.now();
    const value = crc32c(big);
    const elapsedMs = performance.now() - started;
    expect(elapsedMs).toBeLessThan(500);
    const head = big.subarray(0, 4 * 1024 * 1024);
    expect(crc32c(head)).toBe(refCrc32c(head));
    expect(crc32c(big.subarray(head.length), crc32c(head))).toBe(value);
  });
});
