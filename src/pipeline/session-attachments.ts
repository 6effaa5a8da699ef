/**
 * A session's attachments on their way to the agents (docs/attachments.md): copied into the
 * workspace before the first step (and again on a daemon that lacks them), the text ones read,
 * redacted and cut to `inline_bytes` once at the start, and each agent's share of them in its
 * prompt: the list for every agent, the text inline (`inline`, the entry agent's default), PDFs
 * and images as file parts (`native`).
 */
import { open, readFile } from 'node:fs/promises';
import path from 'node:path';
import type { AttachmentMode, GovflowConfig } from '../config/config-loader.js';
import { GovflowError } from '../errors.js';
import type { AgentDefinition } from '../governance/agent-definition.js';
import type { LlmFile } from '../llm/provider.js';
import type { SessionPrivacy } from '../privacy/session-privacy.js';
import {
  ATTACHMENTS_FOLDER,
  isNativeAttachment,
  isTextAttachment,
  type AttachmentInfo,
  type InlineAttachment,
  type SessionAttachments,
} from '../store/attachment-records.js';
import type { SessionRecord } from '../store/session-journal.js';
import type { SessionStore } from '../store/session-store.js';
import {
  attachmentsFolderOf,
  attachmentsPresent,
  materializeAttachments,
  type AttachmentSource,
} from '../tools/attachment-workspace.js';
import { truncateUtf8 } from '../tools/tool-contract.js';
import { ensureWorkspace } from '../tools/workspace-paths.js';
import type { RequestAttachments } from './runner-contract.js';

/** Bytes read past the inline budget, so a text that redaction shortens still fills it. */
const INLINE_READ_MARGIN = 4096;

/** Where the bytes of a session's attachments can be read from: its request folder, else the store. */
function sourceFor(
  store: SessionStore,
  sessionId: string,
  folder: string | null,
  signal: AbortSignal,
): AttachmentSource {
  if (folder !== null) return { folder };
  const readAttachment = store.readAttachment?.bind(store);
  if (!readAttachment)
    throw new GovflowError(
      'internal',
      `session ${sessionId} has attachments but neither its request folder nor the store holds them`,
    );
  return { read: (file) => readAttachment(sessionId, file.path, signal) };
}

/** A new session's attachments: copied into its workspace, the text ones read for the prompt (redacted). */
export async function receiveAttachments(
  config: GovflowConfig,
  store: SessionStore,
  sessionId: string,
  request: RequestAttachments,
  privacy: SessionPrivacy,
  signal: AbortSignal,
): Promise<SessionAttachments> {
  const workspace = await ensureWorkspace(config.tools.workspace, sessionId);
  await materializeAttachments(
    workspace,
    request.files,
    sourceFor(store, sessionId, request.folder, signal),
    config.daemon.fsync,
  );
  const inline = await inlineTexts(
    attachmentsFolderOf(workspace),
    request.files,
    config.intake.attachments.inline_bytes,
    privacy,
  );
  return { files: request.files, inline };
}

/**
 * Before a session runs (on this daemon, after a crash): its attachments are in its workspace,
 * copied again from its request folder while claimed, else from the store.
 */
export async function ensureAttachments(
  config: GovflowConfig,
  store: SessionStore,
  session: SessionRecord,
  signal: AbortSignal,
): Promise<void> {
  const files = session.attachments?.files ?? [];
  if (files.length === 0) return;
  const workspace = await ensureWorkspace(config.tools.workspace, session.session_id);
  if (await attachmentsPresent(workspace, files)) return;
  const folder = session.claimed_path !== null && (await isFolder(session.claimed_path)) ? session.claimed_path : null;
  await materializeAttachments(
    workspace,
    files,
    sourceFor(store, session.session_id, folder, signal),
    config.daemon.fsync,
  );
}

async function isFolder(file: string): Promise<boolean> {
  try {
    const handle = await open(file, 'r');
    try {
      return (await handle.stat()).isDirectory();
    } finally {
      await handle.close();
    }
  } catch {
    return false;
  }
}

/** The start of `file` as UTF-8 text (at most `limit` bytes, never a split character); null when it is not UTF-8. */
async function readTextStart(file: string, limit: number): Promise<{ text: string; whole: boolean } | null> {
  const handle = await open(file, 'r');
  let bytes: Buffer;
  let whole: boolean;
  try {
    const size = (await handle.stat()).size;
    const buffer = Buffer.alloc(Math.min(size, limit));
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0);
    bytes = buffer.subarray(0, bytesRead);
    whole = bytesRead >= size;
  } finally {
    await handle.close();
  }
  if (!whole) {
    // Drop a character cut by the limit: its lead byte and the continuation bytes after it.
    let end = bytes.length;
    while (end > 0 && (bytes[end - 1] & 0xc0) === 0x80) end--;
    if (end > 0 && bytes[end - 1] >= 0xc0) end--;
    if (bytes.length - end <= 3) bytes = bytes.subarray(0, end);
  }
  try {
    const text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    return { text: text.startsWith('\uFEFF') ? text.slice(1) : text, whole };
  } catch {
    return null;
  }
}

/** The text attachments (UTF-8), redacted, in path order, within `budget` bytes in all. */
async function inlineTexts(
  folder: string,
  files: readonly AttachmentInfo[],
  budget: number,
  privacy: SessionPrivacy,
): Promise<InlineAttachment[]> {
  const inline: InlineAttachment[] = [];
  let left = budget;
  for (const file of [...files].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0))) {
    if (left <= 0) break;
    if (!isTextAttachment(file.path)) continue;
    const start = await readTextStart(path.join(folder, file.path), left + INLINE_READ_MARGIN);
    if (start === null) continue;
    const redacted = privacy.redactAttachmentText(start.text, start.whole);
    const cut = truncateUtf8(redacted, left);
    inline.push({ path: file.path, text: cut.text, ...(cut.truncated || !start.whole ? { cutFrom: file.bytes } : {}) });
    left -= Buffer.byteLength(cut.text);
  }
  return inline;
}

/** What `agent` gets of the attachments: its own `attachments:`, else `inline` for the session's entry agent and `list` for the others. */
export function attachmentModeOf(agent: AgentDefinition, session: SessionRecord): AttachmentMode {
  return agent.attachments ?? (agent.name === session.entry_agent && !session.delegation ? 'inline' : 'list');
}

/** The prompt's part about the attachments, after the input; '' when the session has none. */
export function attachmentsPromptBlock(attachments: SessionAttachments | undefined, mode: AttachmentMode): string {
  if (!attachments || attachments.files.length === 0) return '';
  const native = (file: AttachmentInfo) => mode === 'native' && isNativeAttachment(file.type);
  const lines = [
    '',
    '',
    `Attachments of the request (in the session workspace under ${ATTACHMENTS_FOLDER}/, read-only):`,
    ...attachments.files.map(
      (file) =>
        `- ${ATTACHMENTS_FOLDER}/${file.path} (${file.bytes} bytes, ${file.type})${native(file) ? ' — attached to this message as a file' : ''}`,
    ),
  ];
  if (mode !== 'list') {
    for (const text of attachments.inline) {
      const cut =
        text.cutFrom === undefined ? '' : ` (the first ${Buffer.byteLength(text.text)} of ${text.cutFrom} bytes)`;
      lines.push(
        '',
        `[ATTACHMENT: ${ATTACHMENTS_FOLDER}/${text.path}${cut}]`,
        text.text,
        `[END OF ATTACHMENT: ${ATTACHMENTS_FOLDER}/${text.path}]`,
      );
    }
  }
  return lines.join('\n');
}

/** The PDFs and images an agent in `native` mode gets as file parts, read from the session's workspace. */
export async function nativeFiles(
  config: GovflowConfig,
  sessionId: string,
  attachments: SessionAttachments | undefined,
  mode: AttachmentMode,
): Promise<LlmFile[]> {
  if (mode !== 'native' || !attachments) return [];
  const folder = attachmentsFolderOf(path.join(config.tools.workspace, sessionId));
  const files: LlmFile[] = [];
  for (const file of attachments.files) {
    if (!isNativeAttachment(file.type)) continue;
    files.push({
      path: file.path,
      mediaType: file.type,
      data: new Uint8Array(await readFile(path.join(folder, file.path))),
    });
  }
  return files;
}

/**
 * The attachments of a session made from `original` (fork, retry, rerun: SPEC §18, "the original's
 * attachments come with it"), as a new session's request takes them: the original's list, read
 * from its workspace copy. startSession copies them (checked against the list) and journals them.
 */
export function attachmentsOf(config: GovflowConfig, original: SessionRecord): RequestAttachments | undefined {
  const files = original.attachments?.files ?? [];
  if (files.length === 0) return undefined;
  return { files, folder: attachmentsFolderOf(path.join(config.tools.workspace, original.session_id)) };
}
