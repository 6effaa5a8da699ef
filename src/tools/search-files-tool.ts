/**
 * search_files (docs/claude-code.md): Claude Code's Grep inside the session workspace — the lines
 * that match a regular expression (or a literal text) in its files, as `path:line:text`, capped
 * like every tool result. Patterns pass the user-regex checks (no catastrophic backtracking), and
 * only regular files inside the workspace are read: symlinks are skipped, never followed.
 */
import { constants } from 'node:fs';
import { lstat, open, stat } from 'node:fs/promises';
import path from 'node:path';
import { globSync } from 'tinyglobby';
import { compileUserRegex, UserRegexError } from '../config/user-regex.js';
import { ToolCallError, stringField, type Tool } from './tool-contract.js';
import { resolveExisting, workspaceRelative } from './workspace-paths.js';

/** Characters of a matching line shown at most. */
const MAX_LINE_CHARS = 400;
/** What readRegularFile answers for a file over the size limit. */
const TOO_LARGE = Symbol('too large');
/** Files searched at most per call. */
const MAX_FILES = 5000;

export function searchFilesTool(limits: { maxFileBytes: number; maxResultBytes: number }): Tool {
  return {
    name: 'search_files',
    description:
      'Searches the files of the session workspace for lines matching a regular expression (JavaScript syntax; a leading (?i) ignores case), ' +
      'or a literal text with literal: true. Answers one line per match as path:line:text.',
    inputSchema: {
      type: 'object',
      properties: {
        pattern: { type: 'string', description: 'The regular expression (or, with literal: true, the text) to find.' },
        path: { type: 'string', description: 'A folder or file relative to the session workspace (default ".").' },
        glob: {
          type: 'string',
          description: 'Only files whose path matches this glob, e.g. "*.ts" (any folder) or "src/**/*.{js,ts}".',
        },
        literal: { type: 'boolean', description: 'Treat pattern as plain text, not a regular expression.' },
      },
      required: ['pattern'],
      additionalProperties: false,
    },
    async call(input, context) {
      const pattern = stringField(input, 'pattern', 'search_files')!;
      const requested = stringField(input, 'path', 'search_files', true) ?? '.';
      const glob = stringField(input, 'glob', 'search_files', true);
      const literal = input.literal ?? false;
      if (typeof literal !== 'boolean')
        throw new ToolCallError(`search_files: "literal" must be true or false when given (got ${typeof literal})`);
      const matcher = lineMatcher(pattern, literal);
      const { absolute, workspaceReal } = await resolveExisting(
        context.workspace,
        requested === '' ? '.' : requested,
        'search_files',
      );
      const files = (await stat(absolute)).isDirectory()
        ? filesUnder(absolute, glob)
        : [absolute].filter(() => glob === undefined || globMatches(workspaceReal, absolute, glob));
      const lines: string[] = [];
      let bytes = 0;
      let skippedLarge = 0;
      for (const [index, file] of files.slice(0, MAX_FILES).entries()) {
        if (context.signal.aborted) throw context.signal.reason;
        const text = await readRegularFile(file, limits.maxFileBytes);
        if (text === TOO_LARGE) skippedLarge++;
        if (text === null || text === TOO_LARGE) continue;
        const shown = workspaceRelative(workspaceReal, file);
        const fileLines = text.split(/\r?\n/);
        for (let number = 0; number < fileLines.length; number++) {
          if (!matcher(fileLines[number])) continue;
          const line = `${shown}:${number + 1}:${cut(fileLines[number])}`;
          bytes += Buffer.byteLength(line) + 1;
          if (bytes > limits.maxResultBytes) {
            lines.push(
              `(more matches not shown: the answer reached ${limits.maxResultBytes} bytes (tools.max_result_bytes) in ${shown}, ` +
                `file ${index + 1} of ${files.length}; narrow path, glob or pattern)`,
            );
            return { output: lines.join('\n'), isError: false };
          }
          lines.push(line);
        }
      }
      const notes: string[] = [];
      if (files.length > MAX_FILES) notes.push(`(only the first ${MAX_FILES} of ${files.length} files were searched)`);
      if (skippedLarge > 0)
        notes.push(`(${skippedLarge} file(s) over ${limits.maxFileBytes} bytes (tools.max_file_bytes) not searched)`);
      if (lines.length === 0) return { output: ['no matches', ...notes].join('\n'), isError: false };
      return { output: [...lines, ...notes].join('\n'), isError: false };
    },
  };
}

/** A test for one line; ToolCallError (the model's to fix) for a pattern that cannot be used. */
function lineMatcher(pattern: string, literal: boolean): (line: string) => boolean {
  if (pattern === '') throw new ToolCallError('search_files: the pattern is empty');
  const source = literal ? pattern.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&') : pattern;
  let regex: RegExp;
  try {
    regex = compileUserRegex(source, 'search_files: the pattern');
  } catch (error) {
    if (error instanceof UserRegexError) throw new ToolCallError(error.message);
    throw error;
  }
  const single = new RegExp(regex.source, regex.flags.replace('g', ''));
  return (line) => single.test(line);
}

/** Regular files under `folder` (sorted), those matching `glob` when given; a glob without "/" matches names in any folder. */
function filesUnder(folder: string, glob: string | undefined): string[] {
  if (glob !== undefined) checkGlob(glob);
  const pattern = glob === undefined ? '**/*' : glob.includes('/') ? glob : `**/${glob}`;
  return globSync(pattern, { cwd: folder, onlyFiles: true, dot: true, followSymbolicLinks: false, absolute: true })
    .map((file) => path.resolve(file))
    .sort();
}

function globMatches(workspaceReal: string, file: string, glob: string): boolean {
  checkGlob(glob);
  const pattern = glob.includes('/') ? glob : `**/${glob}`;
  return globSync(pattern, { cwd: workspaceReal, onlyFiles: true, dot: true, followSymbolicLinks: false })
    .map((match) => path.resolve(workspaceReal, match))
    .includes(file);
}

function checkGlob(glob: string): void {
  if (glob === '' || path.isAbsolute(glob) || glob.split(/[\\/]+/).includes('..'))
    throw new ToolCallError(
      `search_files: glob "${glob}" must be a relative pattern inside the workspace, e.g. "*.md" or "src/**/*.ts"`,
    );
}

/** The text of a regular file (not a symlink); null for binary files and anything else, TOO_LARGE past the limit. */
async function readRegularFile(file: string, maxBytes: number): Promise<string | null | typeof TOO_LARGE> {
  const stats = await lstat(file).catch(() => null);
  if (!stats || !stats.isFile()) return null;
  if (stats.size > maxBytes) return TOO_LARGE;
  const handle = await open(file, constants.O_RDONLY | constants.O_NOFOLLOW).catch(() => null);
  if (!handle) return null;
  try {
    const buffer = Buffer.alloc(stats.size);
    const { bytesRead } = await handle.read(buffer, 0, stats.size, 0);
    const content = buffer.subarray(0, bytesRead);
    if (content.subarray(0, 8192).includes(0)) return null;
    return content.toString('utf8');
  } finally {
    await handle.close();
  }
}

function cut(line: string): string {
  return line.length > MAX_LINE_CHARS ? `${line.slice(0, MAX_LINE_CHARS)}… (${line.length} characters)` : line;
}
