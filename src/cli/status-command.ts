/** `govflow status`: running, paused and recently finished sessions, with current agent and age. */
import { DaemonRegistry } from '../daemon/daemon-registry.js';
import { systemPaths } from '../config/system-paths.js';
import { SessionJournal, type SessionManifest } from '../store/session-journal.js';
import type { CommandDefinition } from './command-context.js';
import { describedAs } from './command-list.js';

const RECENT = 10;

function age(fromIso: string, now: number): string {
  const seconds = Math.max(0, Math.round((now - Date.parse(fromIso)) / 1000));
  if (seconds < 120) return `${seconds}s`;
  if (seconds < 7200) return `${Math.round(seconds / 60)}m`;
  if (seconds < 172_800) return `${Math.round(seconds / 3600)}h`;
  return `${Math.round(seconds / 86_400)}d`;
}

export const statusCommand: CommandDefinition = {
  ...describedAs('status'),
  options: { json: { type: 'boolean' } },
  allowPositionals: false,
  async run({ root, values, io }) {
    const paths = systemPaths(root);
    const now = Date.now();
    const daemons = new DaemonRegistry(paths).others();
    // Every session keeps its state in its manifest (written at each step and at the end), so the
    // manifests alone tell running and paused sessions from finished ones.
    const all = SessionJournal.list(paths.sessions)
      .map((id) => SessionJournal.readManifest(paths.sessions, id))
      .filter((manifest): manifest is SessionManifest => manifest !== null);
    const running = all.filter((manifest) => manifest.state === 'RUNNING' || manifest.state === 'PENDING');
    const paused = all.filter((manifest) => manifest.state === 'PAUSED');
    const recent = all
      .filter((manifest) => !['RUNNING', 'PENDING', 'PAUSED'].includes(manifest.state))
      .sort((a, b) => b.updated_at.localeCompare(a.updated_at))
      .slice(0, RECENT);
    if (values.json) {
      io.stdout(`${JSON.stringify({ daemons, running, paused, recent }, null, 2)}\n`);
      return 0;
    }
    const line = (manifest: SessionManifest) =>
      `  ${manifest.session_id}  ${manifest.state.padEnd(11)} agent=${manifest.current_agent ?? '-'}  messages=${manifest.messages}  age=${age(manifest.created_at, now)}  request=${manifest.request_id}`;
    const lines = [
      `daemon: ${daemons.length > 0 ? `running (pid ${daemons.join(', ')})` : 'not running'}  root: ${root}`,
      `running (${running.length}):`,
      ...running.map(line),
      `paused (${paused.length}):`,
      ...paused.map((manifest) => `${line(manifest)}\n      question: ${manifest.question ?? ''}`),
      `recently finished (${recent.length}):`,
      ...recent.map(line),
    ];
    io.stdout(`${lines.join('\n')}\n`);
    return 0;
  },
};
