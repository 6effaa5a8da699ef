/**
 * edit_file and search_files (SPEC §19) on real temp workspaces: an edit needs an exact, unique
 * match (or replace_all) and never reaches outside the workspace; a search answers `path:line:text`,
 * filters by glob, takes literal text, is capped, skips symlinks and refuses catastrophic patterns.
 */
import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { editFileTool } from '../../src/tools/edit-file-tool.js';
import { searchFilesTool } from '../../src/tools/search-files-tool.js';
import { ToolCallError, type ToolCallContext } from '../../src/tools/tool-contract.js';
import { ensureWorkspace } from '../../src/tools/workspace-paths.js';
import { makeTempFolder, removeTempFolders } from '../support/temp-dirs.js';

afterEach(removeTempFolders);

async function setup(): Promise<{ context: ToolCallContext; outside: string }> {
  const base = makeTempFolder('govflow-edit-search-');
  const workspace = await ensureWorkspace(path.join(base, 'workspace'), 'sess-1');
  const outside = path.join(base, 'secret.txt');
  writeFileSync(outside, 'password = hunter2\n');
  return { context: { sessionId: 'sess-1', workspace, signal: new AbortController().signal }, outside };
}

function put(context: ToolCallContext, relative: string, text: string): void {
  mkdirSync(path.dirname(path.join(context.workspace, relative)), { recursive: true });
  writeFileSync(path.join(context.workspace, relative), text);
}

async function refusal(promise: Promise<unknown>): Promise<string> {
  const error = await promise.then(
    () => null,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(ToolCallError);
  return (error as Error).message;
}

const edit = editFileTool(1000);
const search = searchFilesTool({ maxFileBytes: 1000, maxResultBytes: 300 });

describe('edit_file', () => {
  it('replaces one exact, unique occurrence; replace_all replaces every one; $ patterns are text', async () => {
    const { context } = await setup();
    put(context, 'src/app.ts', 'const retries = 3;\nconst delay = 3;\n');
    expect(
      await edit.call({ path: 'src/app.ts', old_string: 'retries = 3', new_string: 'retries = 5' }, context),
    ).toEqual({ output: 'edited src/app.ts: replaced 1 occurrence (36 bytes now)', isError: false });
    expect(await refusal(edit.call({ path: 'src/app.ts', old_string: 'const', new_string: 'let' }, context))).toMatch(
      /old_string occurs 2 times in "src\/app\.ts"; give more surrounding text .* or set replace_all: true/,
    );
    expect(readFileSync(path.join(context.workspace, 'src/app.ts'), 'utf8')).toBe(
      'const retries = 5;\nconst delay = 3;\n',
    );
    await edit.call({ path: 'src/app.ts', old_string: 'const', new_string: "let $& $'", replace_all: true }, context);
    expect(readFileSync(path.join(context.workspace, 'src/app.ts'), 'utf8')).toBe(
      "let $& $' retries = 5;\nlet $& $' delay = 3;\n",
    );
  });

  it('refuses text that is not there, no change, an empty old_string, a result over the limit', async () => {
    const { context } = await setup();
    put(context, 'a.md', 'hello\n');
    expect(await refusal(edit.call({ path: 'a.md', old_string: 'bye', new_string: 'x' }, context))).toMatch(
      /old_string does not occur in "a\.md"; read the file and copy the text exactly/,
    );
    expect(await refusal(edit.call({ path: 'a.md', old_string: 'hello', new_string: 'hello' }, context))).toMatch(
      /are the same/,
    );
    expect(await refusal(edit.call({ path: 'a.md', old_string: '', new_string: 'x' }, context))).toMatch(
      /use write_file/,
    );
    expect(
      await refusal(edit.call({ path: 'a.md', old_string: 'hello', new_string: 'x'.repeat(1001) }, context)),
    ).toMatch(/over the limit of 1000 \(tools\.max_file_bytes\)/);
    expect(readFileSync(path.join(context.workspace, 'a.md'), 'utf8')).toBe('hello\n');
  });

  it('stays in the workspace: absolute paths, "..", symlinks out and missing files are refused', async () => {
    const { context, outside } = await setup();
    symlinkSync(outside, path.join(context.workspace, 'link.txt'));
    const change = { old_string: 'hunter2', new_string: 'pwned' };
    expect(await refusal(edit.call({ path: outside, ...change }, context))).toMatch(/is an absolute path/);
    expect(await refusal(edit.call({ path: '../secret.txt', ...change }, context))).toMatch(/contains "\.\."/);
    expect(await refusal(edit.call({ path: 'link.txt', ...change }, context))).toMatch(/leads outside/);
    expect(await refusal(edit.call({ path: 'nope.txt', ...change }, context))).toMatch(/does not exist/);
    expect(readFileSync(outside, 'utf8')).toBe('password = hunter2\n');
  });
});

describe('search_files', () => {
  it('answers path:line:text for regex and literal patterns, under a path, filtered by a glob', async () => {
    const { context } = await setup();
    put(context, 'src/a.ts', 'import x from "y";\n// TODO: fix (a+b)\nexport const a = 1;\n');
    put(context, 'src/deep/b.js', 'const b = 2; // TODO later\n');
    put(context, 'notes.md', 'TODO: write the notes\n');
    expect((await search.call({ pattern: 'TODO' }, context)).output).toBe(
      [
        'notes.md:1:TODO: write the notes',
        'src/a.ts:2:// TODO: fix (a+b)',
        'src/deep/b.js:1:const b = 2; // TODO later',
      ].join('\n'),
    );
    expect((await search.call({ pattern: 'TODO', glob: '*.ts' }, context)).output).toBe(
      'src/a.ts:2:// TODO: fix (a+b)',
    );
    expect((await search.call({ pattern: 'TODO', path: 'src/deep' }, context)).output).toBe(
      'src/deep/b.js:1:const b = 2; // TODO later',
    );
    expect((await search.call({ pattern: '(a+b)', literal: true }, context)).output).toBe(
      'src/a.ts:2:// TODO: fix (a+b)',
    );
    expect((await search.call({ pattern: '^export\\s+const\\s+\\w+' }, context)).output).toBe(
      'src/a.ts:3:export const a = 1;',
    );
    expect((await search.call({ pattern: '(?i)todo: WRITE' }, context)).output).toBe(
      'notes.md:1:TODO: write the notes',
    );
    expect((await search.call({ pattern: 'nothing-here' }, context)).output).toBe('no matches');
  });

  it('caps the answer at tools.max_result_bytes and says so', async () => {
    const { context } = await setup();
    put(context, 'log.txt', Array.from({ length: 50 }, (_, index) => `line ${index} ERROR`).join('\n'));
    const { output } = await search.call({ pattern: 'ERROR' }, context);
    expect(Buffer.byteLength(output)).toBeLessThan(500);
    expect(output).toMatch(/^log\.txt:1:line 0 ERROR\n/);
    expect(output).toMatch(/\(more matches not shown: the answer reached 300 bytes \(tools\.max_result_bytes\)/);
  });

  it('refuses catastrophic and broken patterns, globs that leave the workspace; skips symlinks and binary files', async () => {
    const { context, outside } = await setup();
    put(context, 'a.txt', 'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa!\n');
    put(context, 'bin.dat', 'hunter2\u0000binary');
    symlinkSync(outside, path.join(context.workspace, 'link.txt'));
    expect(await refusal(search.call({ pattern: '(a+)+$' }, context))).toMatch(/can backtrack catastrophically/);
    expect(await refusal(search.call({ pattern: '(unclosed' }, context))).toMatch(/is not a valid regular expression/);
    expect(await refusal(search.call({ pattern: 'x', glob: '../*.txt' }, context))).toMatch(
      /must be a relative pattern inside the workspace/,
    );
    expect(await refusal(search.call({ pattern: 'x', path: '..' }, context))).toMatch(/contains "\.\."/);
    expect((await search.call({ pattern: 'hunter2' }, context)).output).toBe('no matches');
  });
});
