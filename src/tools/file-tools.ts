/** read_file, write_file and list_files (README "Give an agent tools"), confined to the session workspace. */
import { constants } from 'node:fs';
import { open, readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { sha256Hex } from '../sha256-hex.js';
import { ToolCallError, stringField, type Tool } from './tool-contract.js';
import { resolveExisting, resolveForWrite, workspaceRelative } from './workspace-paths.js';

/** Entries list_files returns at most. */
const MAX_LISTED_ENTRIES = 1000;

const PATH_PROPERTY = {
  type: 'string',
  description: 'Path relative to the session workspace, e.g. "notes/summary.md".',
};

export function readFileTool(maxFileBytes: number): Tool {
  return {
    name: 'read_file',
    description: `Reads a UTF-8 text file from the session workspace (at most ${maxFileBytes} bytes).`,
    inputSchema: {
      type: 'object',
      properties: { path: PATH_PROPERTY },
      required: ['path'],
      additionalProperties: false,
    },
    async call(input, context) {
      const requested = stringField(input, 'path', 'read_file')!;
      const { text } = await readWorkspaceFile(context.workspace, requested, maxFileBytes, 'read_file');
      return { output: text, isError: false };
    },
  };
}

export function writeFileTool(maxFileBytes: number): Tool {
  return {
    name: 'write_file',
    description:
      `Writes a UTF-8 text file in the session workspace, creating folders as needed and replacing an existing file (at ` +
      `most ${maxFileBytes} bytes).`,
    inputSchema: {
      type: 'object',
      properties: { path: PATH_PROPERTY, content: { type: 'string', description: 'The whole text of the file.' } },
      required: ['path', 'content'],
      additionalProperties: false,
    },
    async call(input, context) {
      const requested = stringField(input, 'path', 'write_file')!;
      const content = stringField(input, 'content', 'write_file')!;
      const bytes = Buffer.byteLength(content);
      if (bytes > maxFileBytes)
        throw new ToolCallError(
          `write_file: the content has ${bytes} bytes, over the limit of ${maxFileBytes} (tools.max_file_bytes)`,
        );
      const written = await writeWorkspaceFile(context.workspace, requested, content, 'write_file');
      // The file as it was left, journaled: a fork rebuilds the workspace from it (docs/run-control.md).
      return {
        output: `wrote ${bytes} bytes to ${written}`,
        isError: false,
        wrote: { path: written, sha256: sha256Hex(content), bytes },
      };
    },
  };
}

/**
 * Writes `content` to a workspace file (folders made as needed, an existing file replaced, synced);
 * returns its workspace-relative path. Never writes through a symlink.
 */
export async function writeWorkspaceFile(
  workspace: string,
  requested: string,
  content: string,
  tool: string,
): Promise<string> {
  const { absolute, workspaceReal } = await resolveForWrite(workspace, requested, tool);
  // O_NOFOLLOW: a symlink planted between the check and the open is refused, not followed.
  const handle = await open(
    absolute,
    constants.O_WRONLY | constants.O_CREAT | constants.O_TRUNC | constants.O_NOFOLLOW,
    0o644,
  ).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ELOOP')
      throw new ToolCallError(`${tool}: "${requested}" is a symlink; ${tool} does not write through symlinks`);
    throw new ToolCallError(`${tool}: cannot write "${requested}": ${error.message}`);
  });
  try {
    await handle.writeFile(content, 'utf8');
    await handle.sync();
  } finally {
    await handle.close();
  }
  return workspaceRelative(workspaceReal, absolute);
}

/** The text of an existing workspace file of at most `maxFileBytes` bytes (never through a symlink swapped in after the check). */
export async function readWorkspaceFile(
  workspace: string,
  requested: string,
  maxFileBytes: number,
  tool: string,
): Promise<{ text: string; absolute: string; workspaceReal: string }> {
  const { absolute, workspaceReal } = await resolveExisting(workspace, requested, tool);
  const stats = await stat(absolute);
  if (stats.isDirectory())
    throw new ToolCallError(`${tool}: "${requested}" is a folder; use list_files to see what it holds`);
  if (!stats.isFile()) throw new ToolCallError(`${tool}: "${requested}" is not a regular file`);
  if (stats.size > maxFileBytes) {
    throw new ToolCallError(
      `${tool}: "${requested}" has ${stats.size} bytes, over the limit of ${maxFileBytes} (tools.max_file_bytes)`,
    );
  }
  const handle = await open(absolute, constants.O_RDONLY | constants.O_NOFOLLOW);
  try {
    const buffer = Buffer.alloc(maxFileBytes + 1);
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0);
    if (bytesRead > maxFileBytes)
      throw new ToolCallError(`${tool}: "${requested}" grew over the limit of ${maxFileBytes} bytes while being read`);
    return { text: buffer.subarray(0, bytesRead).toString('utf8'), absolute, workspaceReal };
  } finally {
    await handle.close();
  }
}

export function listFilesTool(): Tool {
  return {
    name: 'list_files',
    description:
      'Lists a folder of the session workspace ("." for its top): one entry per line, folders ending in "/", files with their size in bytes.',
    inputSchema: {
      type: 'object',
      properties: {
        path: { ...PATH_PROPERTY, description: 'Folder relative to the session workspace; "." for its top.' },
      },
      additionalProperties: false,
    },
    async call(input, context) {
      const requested = stringField(input, 'path', 'list_files', true) ?? '.';
      const { absolute, workspaceReal } = await resolveExisting(
        context.workspace,
        requested === '' ? '.' : requested,
        'list_files',
      );
      const stats = await stat(absolute);
      if (!stats.isDirectory())
        throw new ToolCallError(`list_files: "${requested}" is a file; use read_file to read it`);
      const entries = (await readdir(absolute, { withFileTypes: true })).sort((a, b) => a.name.localeCompare(b.name));
      const lines: string[] = [];
      for (const entry of entries.slice(0, MAX_LISTED_ENTRIES)) {
        if (entry.isDirectory()) lines.push(`${entry.name}/`);
        else if (entry.isSymbolicLink()) lines.push(`${entry.name} -> (symlink)`);
        else if (entry.isFile()) lines.push(`${entry.name} ${(await stat(path.join(absolute, entry.name))).size}`);
      }
      if (entries.length > MAX_LISTED_ENTRIES)
        lines.push(`(${entries.length - MAX_LISTED_ENTRIES} more entries not listed)`);
      const where = workspaceRelative(workspaceReal, absolute);
      return { output: lines.length > 0 ? `${where}:\n${lines.join('\n')}` : `${where}: (empty)`, isError: false };
    },
  };
}
