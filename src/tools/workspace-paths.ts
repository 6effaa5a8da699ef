/**
 * Confines the file tools to the session's workspace: absolute paths and `..` are refused, and the
 * resolved path (symlinks followed) must stay inside its real path, so a planted symlink cannot lead out.
 */
import { mkdir, realpath, lstat } from 'node:fs/promises';
import { errorCode } from '../errors.js';
import path from 'node:path';
import { ToolCallError } from './tool-contract.js';
import { ATTACHMENTS_FOLDER } from '../store/attachment-records.js';

/** The session's workspace folder, created when missing. */
export async function ensureWorkspace(workspaceRoot: string, sessionId: string): Promise<string> {
  if (!/^[A-Za-z0-9._-]{1,128}$/.test(sessionId) || sessionId === '.' || sessionId === '..') {
    throw new ToolCallError(`session id "${sessionId}" cannot name a workspace folder`);
  }
  const folder = path.join(workspaceRoot, sessionId);
  await mkdir(folder, { recursive: true });
  return folder;
}

function isInside(parent: string, child: string): boolean {
  return child === parent || child.startsWith(parent.endsWith(path.sep) ? parent : parent + path.sep);
}

/** Checks the path's shape and returns it joined to the workspace (not yet resolved). */
function joinRelative(workspace: string, requested: string, tool: string): string {
  if (requested.includes('\0')) throw new ToolCallError(`${tool}: the path contains a NUL character`);
  if (path.isAbsolute(requested) || path.win32.isAbsolute(requested)) {
    throw new ToolCallError(
      `${tool}: "${requested}" is an absolute path; give a path relative to the session workspace (e.g. "notes/summary.md")`,
    );
  }
  const segments = requested.split(/[\\/]+/);
  if (segments.includes('..')) {
    throw new ToolCallError(`${tool}: "${requested}" contains "..": paths must stay inside the session workspace`);
  }
  return path.join(workspace, requested);
}

/** A display form of a workspace path (forward slashes, relative). */
export function workspaceRelative(workspaceReal: string, absolute: string): string {
  const relative = path.relative(workspaceReal, absolute).split(path.sep).join('/');
  return relative === '' ? '.' : relative;
}

/** An existing file or folder inside the workspace; ToolCallError when missing or leading outside. */
export async function resolveExisting(
  workspace: string,
  requested: string,
  tool: string,
): Promise<{ absolute: string; workspaceReal: string }> {
  const joined = joinRelative(workspace, requested, tool);
  const workspaceReal = await realpath(workspace);
  let absolute: string;
  try {
    absolute = await realpath(joined);
  } catch (error) {
    const code = errorCode(error);
    if (code === 'ENOENT' || code === 'ENOTDIR')
      throw new ToolCallError(`${tool}: "${requested}" does not exist in the session workspace`);
    throw new ToolCallError(`${tool}: cannot resolve "${requested}": ${(error as Error).message}`);
  }
  if (!isInside(workspaceReal, absolute)) {
    throw new ToolCallError(
      `${tool}: "${requested}" leads outside the session workspace (through a symlink); only files inside it can be used`,
    );
  }
  return { absolute, workspaceReal };
}

/** A file to write: its deepest existing folder inside the workspace (the rest are made), never a symlink. */
export async function resolveForWrite(
  workspace: string,
  requested: string,
  tool: string,
): Promise<{ absolute: string; workspaceReal: string }> {
  const joined = joinRelative(workspace, requested, tool);
  const workspaceReal = await realpath(workspace);
  if (path.resolve(joined) === path.resolve(workspace) || /[\\/]$/.test(requested) || requested.trim() === '') {
    throw new ToolCallError(`${tool}: "${requested}" names a folder; give a file path such as "report.md"`);
  }
  let existing = path.dirname(joined);
  const missing: string[] = [];
  for (;;) {
    try {
      await lstat(existing);
      break;
    } catch {
      missing.unshift(path.basename(existing));
      existing = path.dirname(existing);
    }
  }
  const existingReal = await realpath(existing);
  if (!isInside(workspaceReal, existingReal)) {
    throw new ToolCallError(
      `${tool}: "${requested}" leads outside the session workspace (through a symlink); only files inside it can be written`,
    );
  }
  const folder = path.join(existingReal, ...missing);
  refuseAttachmentWrite(workspaceReal, path.join(folder, path.basename(joined)), requested, tool);
  await mkdir(folder, { recursive: true });
  const absolute = path.join(folder, path.basename(joined));
  try {
    const stats = await lstat(absolute);
    if (stats.isSymbolicLink())
      throw new ToolCallError(`${tool}: "${requested}" is a symlink; write_file does not write through symlinks`);
    if (stats.isDirectory()) throw new ToolCallError(`${tool}: "${requested}" is a folder; give a file path`);
  } catch (error) {
    if (error instanceof ToolCallError) throw error;
  }
  return { absolute, workspaceReal };
}

/**
 * Attachments are evidence (docs/attachments.md): nothing under `attachments/` of a workspace is
 * written, whichever tool asks (write_file, edit_file). `absolute` is the resolved target.
 */
export function refuseAttachmentWrite(workspaceReal: string, absolute: string, requested: string, tool: string): void {
  const [first] = path.relative(workspaceReal, absolute).split(path.sep);
  if (first === ATTACHMENTS_FOLDER)
    throw new ToolCallError(
      `${tool}: "${requested}" is in ${ATTACHMENTS_FOLDER}/, the request's attachments, which are kept as delivered and never written: write ` +
        `your result elsewhere, e.g. "notes/${path.basename(absolute)}"`,
    );
}
