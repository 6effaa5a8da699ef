/**
 * A fork's workspace as its original's was after the reused messages (docs/run-control.md): the
 * journaled file-tool calls that changed it are replayed in order — nothing is run again, no model
 * asked — and each file is checked against the sha256 its call recorded. (The original's
 * attachments come with the fork as a new session's do: pipeline/session-attachments.ts.)
 */
import { readFile, writeFile } from 'node:fs/promises';
import { GovflowError, errorCode } from '../errors.js';
import { isPlainObject } from '../message/json-text.js';
import { sha256Hex } from '../sha256-hex.js';
import { resolveForWrite } from './workspace-paths.js';

/** One journaled call that changed a file: its tool, its input as the model gave it, the file as it left it. */
export interface JournaledWrite {
  tool: string;
  input: unknown;
  wrote: { path: string; sha256: string; bytes: number };
}

/** Tools that act on the workspace only: a fork does not list them among the effects it did not repeat. */
export const WORKSPACE_TOOLS: ReadonlySet<string> = new Set([
  'read_file',
  'write_file',
  'list_files',
  'edit_file',
  'search_files',
]);

/** The text a call left in its file, from its input and the text before it; throws when it cannot be replayed. */
function replayedText(write: JournaledWrite, before: string | null): string {
  const input = isPlainObject(write.input) ? write.input : {};
  if (write.tool === 'write_file' && typeof input.content === 'string') return input.content;
  // edit_file (SPEC §19): one occurrence of old_string, or every one with replace_all.
  if (
    write.tool === 'edit_file' &&
    before !== null &&
    typeof input.old_string === 'string' &&
    typeof input.new_string === 'string'
  ) {
    return input.replace_all === true
      ? before.split(input.old_string).join(input.new_string)
      : before.replace(input.old_string, () => input.new_string as string);
  }
  throw new GovflowError(
    'request',
    `cannot rebuild the workspace: the journaled ${write.tool} call on "${write.wrote.path}" cannot be replayed from its input`,
  );
}

async function readIfPresent(file: string): Promise<string | null> {
  try {
    return await readFile(file, 'utf8');
  } catch (error) {
    if (errorCode(error) === 'ENOENT') return null;
    throw error;
  }
}

/**
 * Replays `writes` into `workspace` (a fresh folder). Throws a GovflowError naming the file whose
 * text does not hash to what its call recorded.
 */
export async function rebuildWorkspace(
  workspace: string,
  writes: readonly JournaledWrite[],
): Promise<{ files: number }> {
  const touched = new Set<string>();
  for (const write of writes) {
    const { absolute } = await resolveForWrite(workspace, write.wrote.path, write.tool);
    const text = replayedText(write, await readIfPresent(absolute));
    if (sha256Hex(text) !== write.wrote.sha256) {
      throw new GovflowError(
        'audit',
        `cannot rebuild the workspace: "${write.wrote.path}" as the journaled ${write.tool} call leaves it hashes to ${sha256Hex(text)}, not ` +
          `to the recorded ${write.wrote.sha256}; the original's journal was changed`,
      );
    }
    await writeFile(absolute, text, 'utf8');
    touched.add(write.wrote.path);
  }
  return { files: touched.size };
}
