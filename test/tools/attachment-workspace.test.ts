/**
 * Attachments in a session's workspace (SPEC §22), on real folders: copied as delivered and
 * checked against their SHA-256 (a source that changed is refused, and nothing half-copied stays),
 * readable by the file tools, never writable by them; and the copy from one session to another
 * that fork, retry and rerun use (SPEC §18: "the original's attachments come with it").
 */
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { hashFile, mediaTypeOf, type AttachmentInfo } from '../../src/store/attachment-records.js';
import {
  attachmentsPresent,
  copySessionAttachments,
  materializeAttachments,
} from '../../src/tools/attachment-workspace.js';
import { editFileTool } from '../../src/tools/edit-file-tool.js';
import { listFilesTool, readFileTool, writeFileTool } from '../../src/tools/file-tools.js';
import { searchFilesTool } from '../../src/tools/search-files-tool.js';
import { makeTempFolder, removeTempFolders } from '../support/temp-dirs.js';

afterEach(removeTempFolders);

async function listOf(folder: string, paths: string[]): Promise<AttachmentInfo[]> {
  const files: AttachmentInfo[] = [];
  for (const relative of paths)
    files.push({ path: relative, ...(await hashFile(path.join(folder, relative))), type: mediaTypeOf(relative) });
  return files;
}

function requestFolder(): string {
  const folder = makeTempFolder('govflow-request-folder-');
  mkdirSync(path.join(folder, 'annex'));
  writeFileSync(path.join(folder, 'request.txt'), 'Summarise.');
  writeFileSync(path.join(folder, 'contract.pdf'), Buffer.alloc(300_000, 7));
  writeFileSync(path.join(folder, 'annex', 'prices.csv'), 'item,price\n');
  return folder;
}

describe('materializeAttachments', () => {
  it('copies the files as delivered, mode 0600, and the file tools read them but never write them', async () => {
    const source = requestFolder();
    const files = await listOf(source, ['annex/prices.csv', 'contract.pdf']);
    expect(files.map((file) => file.type)).toEqual(['text/csv', 'application/pdf']);
    const workspace = makeTempFolder('govflow-workspace-');
    expect(await attachmentsPresent(workspace, files)).toBe(false);
    await materializeAttachments(workspace, files, { folder: source });
    expect(await attachmentsPresent(workspace, files)).toBe(true);
    for (const file of files) {
      const copy = path.join(workspace, 'attachments', file.path);
      expect(readFileSync(copy).equals(readFileSync(path.join(source, file.path)))).toBe(true);
      expect(statSync(copy).mode & 0o777).toBe(0o600);
    }
    expect(existsSync(path.join(workspace, 'attachments', 'request.txt'))).toBe(false);

    const context = { sessionId: 's', workspace, signal: new AbortController().signal };
    const read = await readFileTool(1_000_000).call({ path: 'attachments/annex/prices.csv' }, context);
    expect(read).toEqual({ output: 'item,price\n', isError: false });
    const listed = await listFilesTool().call({ path: 'attachments' }, context);
    expect(listed.output).toContain('contract.pdf 300000');
    const write = writeFileTool(1_000_000);
    for (const target of [
      'attachments/contract.pdf',
      'attachments/new.txt',
      'attachments/annex/more/x.md',
      './attachments/x',
    ])
      await expect(write.call({ path: target, content: 'x' }, context), target).rejects.toThrow(
        /attachments\/, the request's attachments, which are kept as delivered and never written/,
      );
    expect(readFileSync(path.join(workspace, 'attachments', 'contract.pdf')).equals(Buffer.alloc(300_000, 7))).toBe(
      true,
    );
    expect((await write.call({ path: 'notes/attachments.md', content: 'ok' }, context)).isError).toBe(false);
    await expect(
      editFileTool(1_000_000).call(
        { path: 'attachments/annex/prices.csv', old_string: 'price', new_string: 'cost' },
        context,
      ),
    ).rejects.toThrow(/never written/);
    expect(readFileSync(path.join(workspace, 'attachments', 'annex', 'prices.csv'), 'utf8')).toBe('item,price\n');
    const found = await searchFilesTool({ maxFileBytes: 1_000_000, maxResultBytes: 65_536 }).call(
      { pattern: 'item,price' },
      context,
    );
    expect(found.output).toContain('attachments/annex/prices.csv');
  });

  it('refuses a source that changed since its hash was taken, and leaves no half copy', async () => {
    const source = requestFolder();
    const files = await listOf(source, ['contract.pdf']);
    writeFileSync(path.join(source, 'contract.pdf'), Buffer.alloc(300_000, 8));
    const workspace = makeTempFolder('govflow-workspace-');
    await expect(materializeAttachments(workspace, files, { folder: source })).rejects.toThrow(
      /attachment "contract.pdf" changed after it was received/,
    );
    expect(existsSync(path.join(workspace, 'attachments'))).toBe(false);
    expect(existsSync(path.join(workspace, '.attachments.tmp'))).toBe(false);
  });

  it('reads from a stream source (the store, in cluster mode) the same way', async () => {
    const source = requestFolder();
    const files = await listOf(source, ['contract.pdf']);
    const workspace = makeTempFolder('govflow-workspace-');
    async function* chunks(): AsyncGenerator<Uint8Array> {
      const bytes = readFileSync(path.join(source, 'contract.pdf'));
      for (let start = 0; start < bytes.length; start += 100_000) yield bytes.subarray(start, start + 100_000);
    }
    await materializeAttachments(workspace, files, { read: () => chunks() });
    expect(readFileSync(path.join(workspace, 'attachments', 'contract.pdf')).equals(Buffer.alloc(300_000, 7))).toBe(
      true,
    );
  });
});

describe('copySessionAttachments', () => {
  it("copies one session's attachments into another session's workspace, checked against the original's list", async () => {
    const root = makeTempFolder('govflow-workspaces-');
    const source = requestFolder();
    const files = await listOf(source, ['annex/prices.csv', 'contract.pdf']);
    await materializeAttachments(path.join(root, 'sess-original'), files, { folder: source });
    await copySessionAttachments(root, 'sess-original', 'sess-fork', files);
    expect(await attachmentsPresent(path.join(root, 'sess-fork'), files)).toBe(true);
    expect(readFileSync(path.join(root, 'sess-fork', 'attachments', 'annex', 'prices.csv'), 'utf8')).toBe(
      'item,price\n',
    );
    await expect(copySessionAttachments(root, 'sess-gone', 'sess-other', files)).rejects.toThrow(/ENOENT/);
  });
});
