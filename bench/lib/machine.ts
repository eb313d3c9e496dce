import fs from 'node:fs';
import os from 'node:os';

export type MachineInfo = { cpuModel: string; cores: number; memoryGiB: number; node: string; os: string };

export function machineInfo(): MachineInfo {
  let cpuModel = os.cpus()[0]?.model ?? 'unknown';
  try {
    const line = fs
      .readFileSync('/proc/cpuinfo', 'utf8')
      .split('\n')
      .find((l) => l.startsWith('model name'));
    if (line) cpuModel = line.split(':').slice(1).join(':').trim();
  } catch {
    /* not Linux: keep os.cpus() */
  }
  return {
    cpuModel,
    cores: os.availableParallelism(),
    memoryGiB: Math.round((os.totalmem() / 1024 ** 3) * 10) / 10,
    node: process.version,
    os: `${os.type()} ${os.release()} ${os.arch()}`,
  };
}

export const describeMachine = (m: MachineInfo) => `${m.cores} cores (${m.cpuModel}), ${m.memoryGiB} GiB memory, Node ${m.node}, ${m.os}`;
