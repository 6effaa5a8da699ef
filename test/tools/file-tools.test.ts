/** The built-in file tools stay in the session workspace: every refusal, for real, on temp folders. */
import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { listFilesTool, readFileTool, writeFileTool } from '../../src/tools/file-tools.js';
import { ToolCallError, truncateUtf8, type ToolCallContext } from '../../src/tools/tool-contract.js';
import { ensureWorkspace } from '../../src/tools/workspace-paths.js';
import { makeTempFolder, removeTempFolders } from '../support/temp-dirs.js';
import { sha256Hex } from '../../src/sha256-hex.js';

afterEach(removeTempFolders);

async function setup(): Promise<{ context: ToolCallContext; outside: string; workspaceRoot: string }> {
  const base = makeTempFolder('govflow-tools-');
  const workspaceRoot = path.join(base, 'workspace');
  const workspace = await ensureWorkspace(workspaceRoot, 'sess-1');
  const outside = path.join(base, 'secret.txt');
  writeFileSync(outside, 'top secret');
  return { context: { sessionId: 'sess-1', workspace, signal: new AbortController().signal }, outside, workspaceRoot };
}

const read = readFileTool(100);
const write = writeFileTool(100);
const list = listFilesTool();

async function refusal(promise: Promise<unknown>): Promise<string> {
  const error = await promise.then(
    () => null,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(ToolCallError);
  return (error as Error).message;
}

describe('file tools', () => {
  it('write, read and list inside the workspace, folders created', async () => {
    const { context } = await setup();
    // The file as it was left is part of the outcome: journaled, a fork rebuilds the workspace from it.
    expect(await write.call({ path: 'notes/a.md', content: 'héllo' }, context)).toEqual({
      output: 'wrote 6 bytes to notes/a.md',
      isError: false,
      wrote: { path: 'notes/a.md', sha256: sha256Hex('héllo'), bytes: 6 },
    });
    expect(readFileSync(path.join(context.workspace, 'notes/a.md'), 'utf8')).toBe('héllo');
    expect(await read.call({ path: 'notes/a.md' }, context)).toEqual({ output: 'héllo', isError: false });
    expect((await list.call({ path: '.' }, context)).output).toBe('.:\nnotes/');
    expect((await list.call({ path: 'notes' }, context)).output).toBe('notes:\na.md 6');
    expect((await list.call({}, context)).output).toBe('.:\nnotes/');
  });

  it('refuses absolute paths and ".."', async () => {
    const { context, outside } = await setup();
    expect(await refusal(read.call({ path: outside }, context))).toMatch(
      /is an absolute path; give a path relative to the session workspace/,
    );
    expect(await refusal(read.call({ path: '../../secret.txt' }, context))).toMatch(/contains "\.\."/);
    expect(await refusal(write.call({ path: 'a/../../x.txt', content: 'x' }, context))).toMatch(/contains "\.\."/);
    expect(await refusal(list.call({ path: '..' }, context))).toMatch(/contains "\.\."/);
  });

  it('refuses symlinks that lead out, for reading, listing and writing', async () => {
    const { context, outside } = await setup();
    symlinkSync(outside, path.join(context.workspace, 'link.txt'));
    symlinkSync(path.dirname(outside), path.join(context.workspace, 'out'));
    expect(await refusal(read.call({ path: 'link.txt' }, context))).toMatch(/leads outside the session workspace/);
    expect(await refusal(list.call({ path: 'out' }, context))).toMatch(/leads outside/);
    expect(await refusal(write.call({ path: 'out/new.txt', content: 'x' }, context))).toMatch(/leads outside/);
    expect(await refusal(write.call({ path: 'link.txt', content: 'x' }, context))).toMatch(/is a symlink/);
    expect(readFileSync(outside, 'utf8')).toBe('top secret');
  });

  it('allows a symlink that stays inside', async () => {
    const { context } = await setup();
    writeFileSync(path.join(context.workspace, 'real.txt'), 'inside');
    symlinkSync('real.txt', path.join(context.workspace, 'alias.txt'));
    expect((await read.call({ path: 'alias.txt' }, context)).output).toBe('inside');
  });

  it('enforces the size limit on read and write', async () => {
    const { context } = await setup();
    writeFileSync(path.join(context.workspace, 'big.txt'), 'x'.repeat(101));
    expect(await refusal(read.call({ path: 'big.txt' }, context))).toMatch(
      /101 bytes, over the limit of 100 \(tools\.max_file_bytes\)/,
    );
    expect(await refusal(write.call({ path: 'b.txt', content: 'y'.repeat(101) }, context))).toMatch(
      /over the limit of 100/,
    );
  });

  it('says what is wrong with missing files, folders and bad arguments', async () => {
    const { context } = await setup();
    mkdirSync(path.join(context.workspace, 'folder'));
    expect(await refusal(read.call({ path: 'missing.txt' }, context))).toMatch(
      /"missing\.txt" does not exist in the session workspace/,
    );
    expect(await refusal(read.call({ path: 'folder' }, context))).toMatch(/is a folder; use list_files/);
    expect(await refusal(write.call({ path: 'folder', content: 'x' }, context))).toMatch(/is a folder/);
    expect(await refusal(read.call({ path: 42 }, context))).toMatch(/"path" must be a string \(got number\)/);
    expect(await refusal(write.call({ path: 'x.txt' }, context))).toMatch(/"content" must be a string \(got nothing\)/);
  });

  it('refuses a session id that is not a folder name', async () => {
    const base = makeTempFolder('govflow-tools-');
    await expect(ensureWorkspace(base, '../escape')).rejects.toThrow(/cannot name a workspace folder/);
  });

  it('truncates results on a character boundary', () => {
    expect(truncateUtf8('ééé', 3)).toEqual({ text: 'é', truncated: true, bytes: 6 });
    expect(truncateUtf8('abc', 3)).toEqual({ text: 'abc', truncated: false, bytes: 3 });
  });
});
