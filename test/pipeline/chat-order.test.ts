/**
 * A chat claim's `chat` (src/pipeline/chat-turn.ts): the previous turn whose PII vault the new
 * turn starts from (docs/privacy.md), absent in a claim written before turns carried it.
 */
import { describe, expect, it } from 'vitest';
import { chatOrderOf } from '../../src/pipeline/chat-turn.js';

const order = {
  conversation_id: 'conv-1',
  turn: 1,
  context_type: null,
  context_file: null,
  entry_agent: null,
  context: null,
  history: [{ message: 'Tell [EMAIL_1].', answer: 'Ask [EMAIL_2].' }],
};

describe("a chat claim's previous turn", () => {
  it('is kept when named, and null in a claim written without it', () => {
    expect(chatOrderOf({ ...order, previous_session_id: 'sess-20261202T033000Z-0a1b2c3d' })).toEqual({
      ...order,
      previous_session_id: 'sess-20261202T033000Z-0a1b2c3d',
    });
    expect(chatOrderOf(order)).toEqual({ ...order, previous_session_id: null });
  });

  it('is refused when it is not a string', () => {
    expect(chatOrderOf({ ...order, previous_session_id: 7 })).toBe('previous_session_id is not a string');
  });
});
