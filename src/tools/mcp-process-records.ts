/**
 * Pid records of a daemon's stdio MCP servers (system/state/mcp/), so the next daemon ends what a
 * `kill -9` left; a reused pid (another /proc start time) is left alone.
 */
import { mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { isProcessAlive } from '../store/process-alive.js';
import { signalProcessGroup } from './mcp-stdio-transport.js';

export const MCP_PROCESS_RECORD_FORMAT = 1;

export interface McpProcessRecord {
  v: typeof MCP_PROCESS_RECORD_FORMAT;
  server: string;
  pid: number;
  /** `/proc/<pid>/stat` start time in clock ticks, or null where /proc does not exist. */
  start_ticks: string | null;
  daemon_pid: number;
  command: string;
  started_at: string;
}

/** Linux start time of a process (field 22 of /proc/<pid>/stat), or null. */
export function processStartTicks(pid: number): string | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return fields[19] ?? null;
  } catch {
    return null;
  }
}

export class McpProcessRecords {
  constructor(private readonly folder: string) {}

  private fileOf(server: string, pid: number): string {
    return path.join(this.folder, `${server}.${pid}.json`);
  }

  /** Records a server process (synchronously: it must be on disk before the daemon can die with it unrecorded). */
  record(server: string, pid: number, command: string): void {
    mkdirSync(this.folder, { recursive: true });
    const record: McpProcessRecord = {
      v: MCP_PROCESS_RECORD_FORMAT,
      server,
      pid,
      start_ticks: processStartTicks(pid),
      daemon_pid: process.pid,
      command,
      started_at: new Date().toISOString(),
    };
    writeFileSync(this.fileOf(server, pid), `${JSON.stringify(record)}\n`);
  }

  forget(server: string, pid: number): void {
    rmSync(this.fileOf(server, pid), { force: true });
  }

  /** Ends the process groups of servers whose daemon is gone, removing their records; returns what it killed. */
  reapOrphans(): Array<{ server: string; pid: number }> {
    let names: string[];
    try {
      names = readdirSync(this.folder).filter((name) => name.endsWith('.json'));
    } catch {
      return [];
    }
    const reaped: Array<{ server: string; pid: number }> = [];
    for (const name of names) {
      const file = path.join(this.folder, name);
      let record: McpProcessRecord | null = null;
      try {
        const parsed = JSON.parse(readFileSync(file, 'utf8')) as McpProcessRecord;
        if (parsed.v === MCP_PROCESS_RECORD_FORMAT && Number.isInteger(parsed.pid) && parsed.pid > 1) record = parsed;
      } catch {
        // Unreadable: removed below, as a record of another format is.
      }
      if (record === null) {
        rmSync(file, { force: true });
        continue;
      }
      if (isProcessAlive(record.daemon_pid)) continue;
      if (!isProcessAlive(record.pid)) {
        // The leader is gone, but its group may still hold children. A pid is never reused
        // while a process group of that id exists, so this reaches only the orphans.
        if (signalProcessGroup(record.pid, 'SIGKILL')) reaped.push({ server: record.server, pid: record.pid });
      } else if (record.start_ticks === null || processStartTicks(record.pid) === record.start_ticks) {
        signalProcessGroup(record.pid, 'SIGKILL');
        reaped.push({ server: record.server, pid: record.pid });
      }
      rmSync(file, { force: true });
    }
    return reaped;
  }
}
