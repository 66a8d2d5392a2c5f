import { cpus, loadavg, platform, release, totalmem } from "node:os";

/** The machine a benchmark ran on. */
export interface MachineInfo {
  /** Operating system and kernel release. */
  readonly os: string;
  /** CPU model name. */
  readonly cpuModel: string;
  /** Logical cores. */
  readonly cores: number;
  /** Total memory in MB. */
  readonly memoryMb: number;
  /** Node.js version. */
  readonly node: string;
  /** ISO date of the run. */
  readonly date: string;
  /** 1-minute load average when the run started (a busy machine makes absolute times noise). */
  readonly loadAverageAtStart: number;
}

/** Describes this machine. */
export function describeMachine(): MachineInfo {
  const cpuList = cpus();
  return {
    os: `${platform()} ${release()}`,
    cpuModel: cpuList[0]?.model.trim() ?? "unknown",
    cores: cpuList.length,
    memoryMb: Math.round(totalmem() / 1024 / 1024),
    node: process.version,
    date: new Date().toISOString(),
    loadAverageAtStart: Math.round((loadavg()[0] ?? 0) * 100) / 100,
  };
}
