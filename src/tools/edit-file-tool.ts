/**
 * edit_file (docs/claude-code.md): Claude Code's Edit inside the session workspace — replace one
 * exact, unique piece of a file's text, or every occurrence with `replace_all`. A piece that is
 * missing or ambiguous is refused with the count, so the model can give more context.
 */
import { readWorkspaceFile, writeWorkspaceFile } from './file-tools.js';
import { sha256Hex } from '../sha256-hex.js';
import { ToolCallError, stringField, type Tool } from './tool-contract.js';

export function editFileTool(maxFileBytes: number): Tool {
  return {
    name: 'edit_file',
    description:
      'Edits a UTF-8 text file of the session workspace: replaces old_string, which must occur exactly once (give enough surrounding text to ' +
      'make it unique), with new_string; with replace_all: true, replaces every occurrence.',
    inputSchema: {
      type: 'object',
      properties: {
        path: { type: 'string', description: 'Path relative to the session workspace, e.g. "src/app.ts".' },
        old_string: { type: 'string', description: 'The exact text to replace, whitespace included.' },
        new_string: { type: 'string', description: 'The text to put in its place (must differ from old_string).' },
        replace_all: { type: 'boolean', description: 'Replace every occurrence (default false).' },
      },
      required: ['path', 'old_string', 'new_string'],
      additionalProperties: false,
    },
    async call(input, context) {
      const requested = stringField(input, 'path', 'edit_file')!;
      const oldString = stringField(input, 'old_string', 'edit_file')!;
      const newString = stringField(input, 'new_string', 'edit_file')!;
      const replaceAll = input.replace_all ?? false;
      if (typeof replaceAll !== 'boolean')
        throw new ToolCallError(`edit_file: "replace_all" must be true or false when given (got ${typeof replaceAll})`);
      if (oldString === '')
        throw new ToolCallError('edit_file: old_string is empty; to create or replace a whole file use write_file');
      if (oldString === newString)
        throw new ToolCallError('edit_file: old_string and new_string are the same; nothing would change');
      const { text } = await readWorkspaceFile(context.workspace, requested, maxFileBytes, 'edit_file');
      const occurrences = text.split(oldString).length - 1;
      if (occurrences === 0)
        throw new ToolCallError(
          `edit_file: old_string does not occur in "${requested}"; read the file and copy the text exactly, whitespace included`,
        );
      if (occurrences > 1 && !replaceAll)
        throw new ToolCallError(
          `edit_file: old_string occurs ${occurrences} times in "${requested}"; give more surrounding text so it occurs once, or set replace_all: true`,
        );
      // A function replacement: `$&` and the like in new_string are text, not patterns.
      const edited = replaceAll ? text.split(oldString).join(newString) : text.replace(oldString, () => newString);
      const bytes = Buffer.byteLength(edited);
      if (bytes > maxFileBytes)
        throw new ToolCallError(
          `edit_file: the edited file would have ${bytes} bytes, over the limit of ${maxFileBytes} (tools.max_file_bytes)`,
        );
      const written = await writeWorkspaceFile(context.workspace, requested, edited, 'edit_file');
      const count = replaceAll ? occurrences : 1;
      return {
        output: `edited ${written}: replaced ${count} occurrence${count === 1 ? '' : 's'} (${bytes} bytes now)`,
        isError: false,
        // The file as it was left, journaled: a fork replays the edit and checks it (docs/run-control.md).
        wrote: { path: written, sha256: sha256Hex(edited), bytes },
      };
    },
  };
}
