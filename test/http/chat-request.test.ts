/**
 * A chat message's body and profile (SPEC §23, src/http/chat-request.ts): seed 003's four fields in
 * their patterns, the 413 for a large context, and the profile a `context_type` picks.
 */
import { describe, expect, it } from 'vitest';
import { chatProfile, parseChatBody } from '../../src/http/chat-request.js';
import { CONFIG_DEFAULTS } from '../../src/config/config-defaults.js';
import type { GovflowConfig } from '../../src/config/config-loader.js';

const chat = (contexts: GovflowConfig['chat']['contexts'] = {}): GovflowConfig['chat'] => ({
  ...CONFIG_DEFAULTS.chat,
  contexts,
  max_context_bytes: 64,
});

const problem = (run: () => unknown) => {
  try {
    run();
  } catch (error) {
    return [(error as { status: number }).status, (error as Error).message];
  }
  return null;
};

describe('a chat body', () => {
  it("takes seed 003's body; absent and null optional fields are not given", () => {
    expect(
      parseChatBody(
        { message: 'What does it do?', context_type: 'workflow', context: { id: 1 }, conversation_id: 'c:1.a_b-2' },
        chat(),
      ),
    ).toEqual({
      message: 'What does it do?',
      contextType: 'workflow',
      context: { id: 1 },
      conversationId: 'c:1.a_b-2',
    });
    expect(parseChatBody({ message: 'hi', context_type: null, context: null }, chat())).toEqual({
      message: 'hi',
      contextType: null,
      context: null,
      conversationId: null,
    });
  });

  it('refuses what is not in it: 400, or 413 for a context over chat.max_context_bytes', () => {
    expect(problem(() => parseChatBody({ message: 'hi', history: [] }, chat()))).toEqual([
      400,
      expect.stringContaining('unknown field "history"'),
    ]);
    expect(problem(() => parseChatBody({ message: ' ' }, chat()))?.[0]).toBe(400);
    expect(problem(() => parseChatBody({ message: 'hi', context_type: 'Tables' }, chat()))?.[0]).toBe(400);
    expect(problem(() => parseChatBody({ message: 'hi', context_type: 7 }, chat()))?.[0]).toBe(400);
    expect(problem(() => parseChatBody({ message: 'hi', conversation_id: 'x'.repeat(129) }, chat()))?.[0]).toBe(400);
    expect(problem(() => parseChatBody({ message: 'hi', context: 'state' }, chat()))?.[0]).toBe(400);
    expect(problem(() => parseChatBody({ message: 'hi', context: { text: 'x'.repeat(64) } }, chat()))).toEqual([
      413,
      expect.stringContaining('chat.max_context_bytes (64)'),
    ]);
  });
});

describe('a chat profile', () => {
  it('accepts every type when chat.contexts is unset, and uses the usual entry agent', () => {
    expect(chatProfile('anything', chat(), null)).toEqual({ agent: null, contextFile: null });
    expect(chatProfile(null, chat(), null)).toEqual({ agent: null, contextFile: null });
  });

  it("picks the type's profile, the default one without a type, and names the known ones for an unknown type", () => {
    const contexts = {
      workflow: { agent: 'workflow_agent', context_file: 'context/chat/workflow.md' },
      default: { context_file: 'context/chat/general.md' },
    };
    expect(chatProfile('workflow', chat(contexts), null)).toEqual({
      agent: 'workflow_agent',
      contextFile: 'context/chat/workflow.md',
    });
    expect(chatProfile(null, chat(contexts), null)).toEqual({ agent: null, contextFile: 'context/chat/general.md' });
    expect(problem(() => chatProfile('tables', chat(contexts), null))).toEqual([
      400,
      'context_type "tables" is not one of chat.contexts: "workflow", "default"',
    ]);
  });
});
