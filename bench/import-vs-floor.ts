import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { copyDataDir, databaseFileOf } from './big-org.ts';
import { importAndPoll, round, startChildServer } from './support.ts';

export interface ImportVsFloor {
  seconds: number;
  floorSeconds: number;
  /** CPU seconds (all threads) of the server process from POST to COMPLETED, and of the floor: the same comparison, less at the mercy of a busy machine. */
  cpuSeconds: number;
  floorCpuSeconds: number;
  floorRows: number;
  ratio: number;
  peakRssMb: number;
  pollMs: number[];
  task: Record<string, unknown>;
}

/**
 * One import measured against its floor in the same run, each on its own copy of the same data
 * dir: the floor (bench/floor.ts) first, then the real server (a child process) from POST to COMPLETED.
 */
export async function importVsFloor(input: {
  template: string;
  organizationUuid: string;
  file: string;
  endpoint: string;
  floor: (dbFile: string, csvFile: string, organizationUuid: string) => Promise<{ seconds: number; rows: number }>;
}): Promise<ImportVsFloor> {
  const floorDir = copyDataDir(input.template, fs.mkdtempSync(path.join(os.tmpdir(), 'qr-floor-')));
  let floor;
  const floorCpu = process.cpuUsage();
  try {
    floor = await input.floor(databaseFileOf(floorDir), input.file, input.organizationUuid);
  } finally {
    fs.rmSync(floorDir, { recursive: true, force: true });
  }
  const floorCpuUsed = process.cpuUsage(floorCpu);
  const floorCpuSeconds = (floorCpuUsed.user + floorCpuUsed.system) / 1e6;
  const serverDir = copyDataDir(input.template, fs.mkdtempSync(path.join(os.tmpdir(), 'qr-import-')));
  const server = await startChildServer(serverDir);
  let result;
  let peakRssMb: number;
  let cpuSeconds: number;
  try {
    const cpuBefore = processCpuSeconds(server.child.pid);
    result = await importAndPoll(server, input.file, path.basename(input.file), input.endpoint);
    cpuSeconds = processCpuSeconds(server.child.pid) - cpuBefore;
  } catch (error) {
    const log = path.join(serverDir, 'logs', 'qr-sandbox.log');
    if (fs.existsSync(log))
      process.stderr.write(`server log, last lines:\n${fs.readFileSync(log, 'utf8').split('\n').slice(-30).join('\n')}\n`);
    process.stderr.write(`server exit: ${String(server.child.exitCode)} ${String(server.child.signalCode)}\n`);
    throw error;
  } finally {
    peakRssMb = server.peakRssMb();
    await server.stop();
    fs.rmSync(serverDir, { recursive: true, force: true });
  }
  return {
    ...result,
    floorSeconds: floor.seconds,
    floorRows: floor.rows,
    ratio: result.seconds / floor.seconds,
    peakRssMb,
    cpuSeconds,
    floorCpuSeconds,
  };
}

/** User + system CPU seconds of a process, all its threads (Linux /proc; clock ticks of 1/100 s). */
function processCpuSeconds(pid: number | undefined): number {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

/** The JSON of one import-vs-floor case. */
export function floorReport(run: ImportVsFloor) {
  return {
    import: round(run.seconds),
    floor: round(run.floorSeconds),
    ratio: round(run.ratio),
    floor_rows: run.floorRows,
    cpu: { import: round(run.cpuSeconds), floor: round(run.floorCpuSeconds), ratio: round(run.cpuSeconds / run.floorCpuSeconds) },
  };
}
