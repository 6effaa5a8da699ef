/** Shared by the attachment tests (SPEC §22): request folders built in real inboxes, hashes, prompts off the wire. */
import { createHash } from 'node:crypto';
import { chmodSync, mkdirSync, readdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { inboxOf } from './daemon-helpers.js';

export function sha256(bytes: Buffer | string): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/** Deterministic bytes that are not text (a stand-in for a PDF or image). */
export function binaryBytes(size: number, seed = 7): Buffer {
  const bytes = Buffer.alloc(size);
  let state = seed;
  for (let index = 0; index < size; index++) {
    state = (state * 1103515245 + 12345) & 0x7fffffff;
    bytes[index] = state >> 16;
  }
  return bytes;
}

/** Builds `files` (path → content) in a hidden folder beside the inbox's entries, then moves it in by one rename. */
export function dropFolder(root: string, name: string, files: Record<string, string | Buffer>): string {
  const inbox = inboxOf(root);
  mkdirSync(inbox, { recursive: true });
  const hidden = path.join(inbox, `.${name}.building`);
  writeTree(hidden, files);
  const target = path.join(inbox, name);
  renameSync(hidden, target);
  return target;
}

export function writeTree(folder: string, files: Record<string, string | Buffer>): void {
  mkdirSync(folder, { recursive: true });
  for (const [relative, content] of Object.entries(files)) {
    const file = path.join(folder, relative);
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, content);
  }
}

/** The list a result and the first audit entry should carry for `files` (sorted by path). */
export function expectedList(files: Record<string, string | Buffer>): Array<{
  path: string;
  sha256: string;
  bytes: number;
  type: string;
}> {
  const types: Record<string, string> = {
    '.pdf': 'application/pdf',
    '.png': 'image/png',
    '.csv': 'text/csv',
    '.txt': 'text/plain',
    '.md': 'text/markdown',
    '.bin': 'application/octet-stream',
  };
  return Object.entries(files)
    .filter(([relative]) => !/^request\.(txt|md|json)$/i.test(relative))
    .sort(([left], [right]) => (left < right ? -1 : 1))
    .map(([relative, content]) => ({
      path: relative,
      sha256: sha256(content),
      bytes: Buffer.byteLength(content),
      type: types[path.extname(relative)] ?? 'application/octet-stream',
    }));
}

/** Every file under `folder` with its path relative to it and its mode. */
export function treeOf(folder: string): Map<string, { bytes: Buffer; mode: number }> {
  const found = new Map<string, { bytes: Buffer; mode: number }>();
  for (const entry of readdirSync(folder, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile()) continue;
    const full = path.join(entry.parentPath, entry.name);
    found.set(path.relative(folder, full).split(path.sep).join('/'), {
      bytes: readFileSync(full),
      mode: statSync(full).mode & 0o777,
    });
  }
  return found;
}

/** Makes a file readable by its owner only, like the delivered attachments the daemon keeps. */
export function ownerOnly(file: string): void {
  chmodSync(file, 0o600);
}

/** The user-role text of an OpenAI (either API), Anthropic or Gemini request body (text parts joined). */
export function userTextOf(body: any): string {
  const texts: string[] = [];
  const collect = (content: unknown) => {
    if (typeof content === 'string') texts.push(content);
    else if (Array.isArray(content))
      for (const part of content) {
        if (typeof part?.text === 'string') texts.push(part.text);
      }
  };
  // Chat Completions `messages`, or the Responses API's `input` items.
  for (const message of [body?.messages ?? [], body?.input ?? []].flat())
    if (message?.role === 'user') collect(message.content);
  for (const content of Array.isArray(body?.contents) ? body.contents : [])
    if (content?.role === 'user') collect(content.parts);
  return texts.join('\n');
}
