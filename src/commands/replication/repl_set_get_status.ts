/** `replSetGetStatus`: the one member, PRIMARY, with its optimes (`rs.status()`). */
import { Long, type Document } from '../../bson/library.js';
import type { CommandDefinition } from '../types.js';
import { CONFIG_VERSION, election, lastWrite, memberHost, opTime, requireReplSet, TERM } from './repl_set.js';

/** The `replSetGetStatus` command. */
export const replSetGetStatus: CommandDefinition = {
  name: 'replSetGetStatus',
  adminOnly: true,
  args: 'lenient',
  help: 'Report status of a replica set from the POV of this server',
  run(ctx) {
    const name = requireReplSet(ctx);
    const nowMs = ctx.now();
    const last = lastWrite(ctx);
    const e = election(ctx);
    const optime = opTime(last.ts);
    const wall = new Date(last.wallMs);
    const optimes: Document = {
      lastCommittedOpTime: optime,
      lastCommittedWallTime: wall,
      readConcernMajorityOpTime: optime,
      appliedOpTime: optime,
      durableOpTime: optime,
      writtenOpTime: optime,
      lastAppliedWallTime: wall,
      lastDurableWallTime: wall,
      lastWrittenWallTime: wall,
    };
    return {
      set: name,
      date: new Date(nowMs),
      myState: 1,
      term: Long.fromNumber(TERM),
      syncSourceHost: '',
      syncSourceId: -1,
      heartbeatIntervalMillis: Long.fromNumber(2000),
      majorityVoteCount: 1,
      writeMajorityCount: 1,
      votingMembersCount: 1,
      writableVotingMembersCount: 1,
      optimes,
      lastStableRecoveryTimestamp: last.ts,
      electionCandidateMetrics: {
        lastElectionReason: 'electionTimeout',
        lastElectionDate: new Date(e.electionDateMs),
        electionTerm: Long.fromNumber(TERM),
        lastCommittedOpTimeAtElection: opTime(e.electionTime),
        lastSeenWrittenOpTimeAtElection: opTime(e.electionTime),
        lastSeenOpTimeAtElection: opTime(e.electionTime),
        numVotesNeeded: 1,
        priorityAtElection: 1,
        electionTimeoutMillis: Long.fromNumber(10000),
        newTermStartDate: new Date(e.electionDateMs),
        wMajorityWriteAvailabilityDate: new Date(e.electionDateMs),
      },
      members: [
        {
          _id: 0,
          name: memberHost(ctx),
          health: 1,
          state: 1,
          stateStr: 'PRIMARY',
          uptime: Math.floor((nowMs - ctx.server.startedAtMs) / 1000),
          optime,
          optimeDate: new Date(last.ts.high * 1000),
          optimeWritten: optime,
          optimeWrittenDate: new Date(last.ts.high * 1000),
          lastAppliedWallTime: wall,
          lastDurableWallTime: wall,
          lastWrittenWallTime: wall,
          syncSourceHost: '',
          syncSourceId: -1,
          infoMessage: '',
          electionTime: e.electionTime,
          electionDate: new Date(e.electionDateMs),
          configVersion: CONFIG_VERSION,
          configTerm: TERM,
          self: true,
          lastHeartbeatMessage: '',
        },
      ],
    };
  },
};
