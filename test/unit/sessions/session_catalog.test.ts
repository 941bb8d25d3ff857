/**
 * The session catalog: touching a session (the same one again, as drivers do, or another)
 * updates its last use; endSessions forgets it, and a later touch brings it back; sessions idle
 * for more than 30 minutes expire; killing a session hands back its cursors once.
 */
import { describe, expect, it } from 'vitest';
import { Binary, UUID } from '../../../src/bson/library.js';
import { SessionCatalog } from '../../../src/sessions/session_catalog.js';

const lsid = () => ({ id: new UUID().toBinary() });
// A fresh Binary with the same bytes, as each request deserialises its own.
const copy = (s: { id: Binary }) => ({ id: new Binary(Buffer.from(s.id.buffer), 4) });
const lastUses = (catalog: SessionCatalog, now: number) =>
  catalog.records(now).map((r) => [((r._id as { id: Binary }).id as Binary).toString('hex'), (r.lastUse as Date).getTime()]);
const MINUTE = 60_000;

describe('session catalog', () => {
  it('keeps the last use of each session, however the touches interleave', () => {
    const catalog = new SessionCatalog();
    const a = lsid();
    const b = lsid();
    catalog.touch(a, 1000);
    catalog.touch(copy(a), 2000);
    catalog.touch(b, 3000);
    catalog.touch(copy(a), 4000);
    catalog.touch(copy(b), 5000);
    expect(lastUses(catalog, 6000)).toEqual([
      [a.id.toString('hex'), 4000],
      [b.id.toString('hex'), 5000],
    ]);
  });

  it('endSessions forgets a session; touching it again brings it back', () => {
    const catalog = new SessionCatalog();
    const a = lsid();
    catalog.touch(a, 1000);
    catalog.end([copy(a).id]);
    expect(lastUses(catalog, 2000)).toEqual([]);
    catalog.touch(copy(a), 3000);
    expect(lastUses(catalog, 4000)).toEqual([[a.id.toString('hex'), 3000]]);
  });

  it('a session idle for more than 30 minutes expires; one used within them stays', () => {
    const catalog = new SessionCatalog();
    const a = lsid();
    const b = lsid();
    catalog.touch(a, 0);
    catalog.touch(b, 10 * MINUTE);
    expect(lastUses(catalog, 30 * MINUTE)).toEqual([
      [a.id.toString('hex'), 0],
      [b.id.toString('hex'), 10 * MINUTE],
    ]);
    expect(lastUses(catalog, 30 * MINUTE + 1)).toEqual([[b.id.toString('hex'), 10 * MINUTE]]);
    expect(catalog.get(a.id, 30 * MINUTE + 1)).toBeUndefined();
  });

  it('killing a session hands back its cursors once and keeps the session', () => {
    const catalog = new SessionCatalog();
    const a = lsid();
    const b = lsid();
    catalog.addCursor(catalog.touch(a, 0)!, 7n);
    catalog.addCursor(catalog.touch(b, 0)!, 9n);
    expect(catalog.kill([copy(a).id])).toEqual([7n]);
    expect(catalog.kill([copy(a).id])).toEqual([]);
    expect(catalog.kill(undefined)).toEqual([9n]);
    expect(catalog.size).toBe(2);
  });

  it('an lsid without a Binary id is no session', () => {
    const catalog = new SessionCatalog();
    expect(catalog.touch({ id: 'x' }, 0)).toBeUndefined();
    expect(catalog.touch(5, 0)).toBeUndefined();
    expect(catalog.size).toBe(0);
  });
});
