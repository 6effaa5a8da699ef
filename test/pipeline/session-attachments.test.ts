/**
 * The session runner with attachments (SPEC §22), in process: the workspace copy before the first
 * step, the list and the inline text in the prompts (by agent and by `attachments:` mode), the
 * first message's `[ATTACHMENTS]` and the result's list; and a session made from another
 * (attachmentsOf: fork, retry and rerun bring the original's attachments, SPEC §18).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { attachmentsOf } from '../../src/pipeline/session-attachments.js';
import { hashFile, mediaTypeOf, type AttachmentInfo } from '../../src/store/attachment-records.js';
import type { SessionRecord } from '../../src/store/session-journal.js';
import { DryRunProvider } from '../../src/llm/dry-run-provider.js';
import type { LlmRequest, LlmResponse } from '../../src/llm/provider.js';
import {
  exampleRoot,
  journalOf,
  messageRecords,
  nextRequestId,
  removeTempDirs,
  withRuntime,
  writeFile,
} from './pipeline-test-helpers.js';

afterEach(removeTempDirs);

/** Dry-run answers, every request kept. */
class RecordingDryRun extends DryRunProvider {
  readonly requests: LlmRequest[] = [];
  override async generate(request: LlmRequest): Promise<LlmResponse> {
    this.requests.push(request);
    return super.generate(request);
  }
}

async function listOf(folder: string, paths: string[]): Promise<AttachmentInfo[]> {
  const files: AttachmentInfo[] = [];
  for (const relative of paths)
    files.push({ path: relative, ...(await hashFile(path.join(folder, relative))), type: mediaTypeOf(relative) });
  return files;
}

describe('a session with attachments', () => {
  it('copies them first, lists them for every agent, inlines the text for the entry agent, and records them once', async () => {
    const root = exampleRoot('intake: { attachments: { inline_bytes: 30 } }\n');
    // goal_agent asks for the text inline too; summarizer_agent only for the list.
    const goal = path.join(root, 'governance', 'agents', 'goal_agent.md');
    writeFileSync(
      goal,
      readFileSync(goal, 'utf8').replace('content_type: goals\n', 'content_type: goals\nattachments: inline\n'),
    );
    const folder = path.join(root, 'delivered');
    writeFile(folder, 'request.txt', 'Summarise.');
    writeFile(folder, 'a-notes.txt', 'Notice period: ninety days.');
    writeFile(folder, 'b-more.md', 'More text that no longer fits the budget.');
    writeFile(folder, 'scan.pdf', '%PDF-1.4 not really');
    const files = await listOf(folder, ['a-notes.txt', 'b-more.md', 'scan.pdf']);
    const provider = new RecordingDryRun();
    const outcome = await withRuntime(root, provider, (runtime) =>
      runtime.runner.startSession(
        {
          requestId: nextRequestId(),
          text: 'Summarise the attached notes.',
          sourceFile: 'delivered',
          claimedPath: null,
          attachments: { files, folder, requestFile: 'request.txt' },
        },
        new AbortController().signal,
      ),
    );
    expect(outcome.status).toBe('success');
    expect(outcome.result.attachments).toEqual(files);
    const copy = path.join(root, 'workspace', outcome.sessionId, 'attachments');
    expect(readFileSync(path.join(copy, 'a-notes.txt'), 'utf8')).toBe('Notice period: ninety days.');

    const prompts = new Map<string, string>();
    for (const request of provider.requests) prompts.set(request.agent, request.prompt);
    for (const [agent, prompt] of prompts) {
      expect(prompt, agent).toContain('- attachments/scan.pdf (19 bytes, application/pdf)');
      expect(prompt.includes('[ATTACHMENT: attachments/a-notes.txt]'), agent).toBe(
        agent === 'objective_agent' || agent === 'goal_agent',
      );
    }
    // 30 bytes in all: the first text whole (27 bytes), the second cut to the 3 left.
    expect(prompts.get('objective_agent')).toContain(
      '[ATTACHMENT: attachments/a-notes.txt]\nNotice period: ninety days.\n[END OF ATTACHMENT: attachments/a-notes.txt]',
    );
    expect(prompts.get('objective_agent')).toContain(
      '[ATTACHMENT: attachments/b-more.md (the first 3 of 41 bytes)]\nMor\n',
    );
    expect(prompts.get('objective_agent')).not.toContain('[ATTACHMENT: attachments/scan.pdf');

    const records = journalOf(root, outcome.sessionId);
    const messages = messageRecords(records);
    expect(messages[0].attachments).toEqual(files);
    expect(messages.slice(1).every((record) => record.attachments === undefined)).toBe(true);

    // A session made from this one gets its attachments, from the original's workspace copy.
    const original = records[0] as SessionRecord;
    const forked = await withRuntime(root, new RecordingDryRun(), async (runtime) =>
      runtime.runner.startSession(
        {
          requestId: nextRequestId(),
          text: 'Summarise the attached notes again.',
          sourceFile: 'fork',
          claimedPath: null,
          attachments: attachmentsOf(runtime.config, original)!,
        },
        new AbortController().signal,
      ),
    );
    expect(forked.result.attachments).toEqual(files);
    expect(readFileSync(path.join(root, 'workspace', forked.sessionId, 'attachments', 'scan.pdf'), 'utf8')).toBe(
      '%PDF-1.4 not really',
    );
  });
});
