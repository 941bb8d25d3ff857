import { describe, expect, it } from 'vitest';
import { Timestamp } from '../../../src/bson/library.js';
import { LogicalClock } from '../../../src/server/logical_clock.js';
import { Clock } from '../../../src/ttl/clock.js';

const START_MS = 1_700_000_000_500;

describe('LogicalClock', () => {
  it('starts at the wall second with increment 0 and ticks within the second', () => {
    const clock = new LogicalClock(new Clock('manual', START_MS));
    expect(clock.now()).toEqual(new Timestamp({ t: 1_700_000_000, i: 0 }));
    expect(clock.tick()).toEqual(new Timestamp({ t: 1_700_000_000, i: 1 }));
    expect(clock.tick()).toEqual(new Timestamp({ t: 1_700_000_000, i: 2 }));
    expect(clock.now()).toEqual(new Timestamp({ t: 1_700_000_000, i: 2 }));
  });

  it('follows the wall clock forward and restarts the increment at 1', () => {
    const wall = new Clock('manual', START_MS);
    const clock = new LogicalClock(wall);
    clock.tick();
    wall.advance(3_000);
    expect(clock.tick()).toEqual(new Timestamp({ t: 1_700_000_003, i: 1 }));
  });

  it('never goes back when the gossiped time is ahead of the wall clock', () => {
    const clock = new LogicalClock(new Clock('manual', START_MS));
    clock.advanceTo(new Timestamp({ t: 1_700_000_100, i: 7 }));
    expect(clock.now()).toEqual(new Timestamp({ t: 1_700_000_100, i: 7 }));
    expect(clock.tick()).toEqual(new Timestamp({ t: 1_700_000_100, i: 8 }));
    clock.advanceTo(new Timestamp({ t: 1_700_000_050, i: 99 }));
    expect(clock.now()).toEqual(new Timestamp({ t: 1_700_000_100, i: 8 }));
  });
});
