/** `hostInfo`: the machine the server runs on. */
import os from 'node:os';
import type { CommandDefinition } from '../types.js';

/** The `hostInfo` command. */
export const hostInfo: CommandDefinition = {
  name: 'hostInfo',
  args: 'lenient',
  help: 'returns information about the daemon\'s host',
  run: (ctx) => ({
    system: {
      currentTime: new Date(ctx.now()),
      hostname: os.hostname(),
      cpuAddrSize: 64,
      memSizeMB: Math.round(os.totalmem() / (1024 * 1024)),
      memLimitMB: Math.round(os.totalmem() / (1024 * 1024)),
      numCores: os.cpus().length,
      numPhysicalCores: os.cpus().length,
      numCpuSockets: 1,
      cpuArch: os.arch(),
      numaEnabled: false,
      numNumaNodes: 1,
    },
    os: { type: os.type(), name: os.type(), version: os.release() },
    extra: { versionString: os.version(), cpuFrequencyMHz: String(os.cpus()[0]?.speed ?? 0), pageSize: 4096 },
  }),
};
