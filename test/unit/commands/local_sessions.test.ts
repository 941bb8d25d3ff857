/**
 * The logical session cache: touching a session (the same one again, as drivers do, or another)
 * updates its last use; endSessions forgets it, and a later touch brings it back.
 */
import { describe, expect, it } from 'vitest';
import { Binary, UUID } from '../../../src/bson/library.js';
import { endLocalSessions, localSessionRecords, touchSession } from '../../../src/commands/crud/local_sessions.js';

const lsid = () => ({ id: new UUID().toBinary() });
// A fresh Binary with the same bytes, as each request deserialises its own.
const copy = (s: { id: Binary }) => ({ id: new Binary(Buffer.from(s.id.buffer), 4) });
const lastUses = (server: object, now: number) =>
  localSessionRecords(server, now).map((r) => [((r._id as { id: Binary }).id as Binary).toString('hex'), (r.lastUse as Date).getTime()]);

describe('local sessions', () => {
  it('keeps the last use of each session, however the touches interleave', () => {
    const server = {};
    const a = lsid();
    const b = lsid();
    touchSession(server, a, 1000);
    touchSession(server, copy(a), 2000);
    touchSession(server, b, 3000);
    touchSession(server, copy(a), 4000);
    touchSession(server, copy(b), 5000);
    expect(lastUses(server, 6000)).toEqual([
      [a.id.toString('hex'), 4000],
      [b.id.toString('hex'), 5000],
    ]);
  });

  it('endSessions forgets a session; touching it again brings it back', () => {
    const server = {};
    const a = lsid();
    touchSession(server, a, 1000);
    endLocalSessions(server, [copy(a)]);
    expect(lastUses(server, 2000)).toEqual([]);
    touchSession(server, copy(a), 3000);
    expect(lastUses(server, 4000)).toEqual([[a.id.toString('hex'), 3000]]);
  });
});
