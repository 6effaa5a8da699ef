/**
 * A fork's workspace rebuilt from its original's journaled file writes (docs/run-control.md):
 * write_file and edit_file replayed in order into a real folder, each file checked against the
 * sha256 its call recorded (a changed journal is refused, naming the file), attachments copied,
 * and nothing written outside the workspace.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { sha256Hex } from '../../src/sha256-hex.js';
import { rebuildWorkspace, type JournaledWrite } from '../../src/tools/workspace-rebuild.js';
import { makeTempFolder, removeTempFolders } from '../support/temp-dirs.js';

afterEach(removeTempFolders);

const write = (file: string, content: string): JournaledWrite => ({
  tool: 'write_file',
  input: { path: file, content },
  wrote: { path: file, sha256: sha256Hex(content), bytes: Buffer.byteLength(content) },
});

const edit = (
  file: string,
  oldString: string,
  newString: string,
  after: string,
  replaceAll = false,
): JournaledWrite => ({
  tool: 'edit_file',
  input: { path: file, old_string: oldString, new_string: newString, replace_all: replaceAll },
  wrote: { path: file, sha256: sha256Hex(after), bytes: Buffer.byteLength(after) },
});

describe('rebuildWorkspace', () => {
  it('replays writes and edits in order, and copies the attachments', async () => {
    const original = makeTempFolder('govflow-original-');
    mkdirSync(path.join(original, 'attachments', 'in'), { recursive: true });
    writeFileSync(path.join(original, 'attachments', 'in', 'budget.csv'), 'a,b\n1,2\n');
    const workspace = makeTempFolder('govflow-fork-');
    const rebuilt = await rebuildWorkspace(
      workspace,
      [
        write('notes/a.md', 'one two two'),
        edit('notes/a.md', 'one', 'ONE', 'ONE two two'),
        edit('notes/a.md', 'two', '$&2', 'ONE $&2 $&2', true),
        write('b.txt', 'bee'),
      ],
      original,
    );
    expect(rebuilt.files).toBe(2);
    expect(readFileSync(path.join(workspace, 'notes', 'a.md'), 'utf8')).toBe('ONE $&2 $&2');
    expect(readFileSync(path.join(workspace, 'b.txt'), 'utf8')).toBe('bee');
    expect(readFileSync(path.join(workspace, 'attachments', 'in', 'budget.csv'), 'utf8')).toBe('a,b\n1,2\n');
  });

  it('refuses a write whose text does not hash to what its call recorded, naming the file', async () => {
    const workspace = makeTempFolder('govflow-fork-');
    const changed = { ...write('report.md', 'the real text'), input: { path: 'report.md', content: 'forged text' } };
    await expect(rebuildWorkspace(workspace, [changed], null)).rejects.toThrow(
      /"report.md" as the journaled write_file call leaves it hashes to [0-9a-f]{64}, not to the recorded/,
    );
  });

  it('never writes outside the workspace, and says when a call cannot be replayed', async () => {
    const workspace = makeTempFolder('govflow-fork-');
    await expect(rebuildWorkspace(workspace, [write('../escape.txt', 'x')], null)).rejects.toThrow(/\.\./);
    expect(existsSync(path.join(workspace, '..', 'escape.txt'))).toBe(false);
    const unknown: JournaledWrite = {
      tool: 'mystery_tool',
      input: {},
      wrote: { path: 'x', sha256: 'a'.repeat(64), bytes: 1 },
    };
    await expect(rebuildWorkspace(workspace, [unknown], null)).rejects.toThrow(/cannot be replayed from its input/);
  });
});
