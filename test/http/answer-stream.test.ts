/**
 * What a chat turn streams (SPEC §23, src/http/answer-stream.ts): the answer's text from the final
 * agent's partial JSON as it arrives, in whatever pieces the model writes it, nothing of other
 * agents, a `protocol: none` agent's text as is, and the end's remainder or a fresh start.
 */
import * as partialJson from 'partial-json';
import { describe, expect, it, vi } from 'vitest';
import type { AgentDefinition } from '../../src/governance/agent-definition.js';
import { AnswerStream, partialAnswer, type ChatFrame } from '../../src/http/answer-stream.js';

vi.mock('partial-json', { spy: true });

const agent = (fields: Partial<AgentDefinition> & { protocol?: string }) =>
  ({ name: 'final_agent', next: [], ...fields }) as unknown as AgentDefinition;

function run(steps: (stream: AnswerStream) => void): { frames: ChatFrame[]; text: string; afterLastStart: string } {
  const frames: ChatFrame[] = [];
  steps(new AnswerStream((frame) => frames.push(frame)));
  const lastStart = frames.map((frame) => frame.event).lastIndexOf('message_start');
  return {
    frames,
    text: chunksOf(frames).join(''),
    afterLastStart: chunksOf(frames.slice(lastStart + 1)).join(''),
  };
}

/** The content chunks of `frames`, in order. */
function chunksOf(frames: ChatFrame[]): string[] {
  return frames.flatMap((frame) => (frame.event === 'content_chunk' ? [frame.data.chunk] : []));
}

/** No chunk ends in half a surrogate pair or begins with the other half. */
function expectWholeCharacters(frames: ChatFrame[]): void {
  for (const chunk of chunksOf(frames)) expect(chunk).toBe(Buffer.from(chunk, 'utf8').toString('utf8'));
}

const MESSAGE = JSON.stringify({
  message_id: null,
  output: { content_type: 'final_report', content: { answer: 'Line one\nLine "two" — ünïcode ✓' } },
  next_agent: { name: null, reason: null },
  status: { code: 'success', message: 'Assembled' },
});

describe('the streamed answer', () => {
  it('takes output.content.answer, then output.content as a string, from partial JSON', () => {
    expect(partialAnswer('{"output":{"content":{"answer":"Hel')).toBe('Hel');
    expect(partialAnswer('```json\n{"output":{"content":"The rule')).toBe('The rule');
    expect(partialAnswer('{"output":{"content":["a"]}}')).toBeNull();
    expect(partialAnswer('Let me look that up.')).toBeNull();
  });

  it('joins to the answer whatever the pieces, one character at a time included, and sends nothing of other agents', () => {
    for (const size of [1, 2, 3, 7, 64]) {
      const { text, frames } = run((stream) => {
        stream.modelCall('planner', agent({ name: 'planner', next: ['final_agent'] }), false);
        stream.modelText('planner', '{"output":{"content":{"answer":"not this"}}}');
        stream.modelCall('final_agent', agent({}), false);
        for (let at = 0; at < MESSAGE.length; at += size) stream.modelText('final_agent', MESSAGE.slice(at, at + size));
        stream.finish('Line one\nLine "two" — ünïcode ✓');
      });
      expect(text).toBe('Line one\nLine "two" — ünïcode ✓');
      expect(frames.filter((frame) => frame.event === 'message_start')).toHaveLength(2);
      expect(frames.filter((frame) => frame.event === 'content_chunk').length).toBeGreaterThan(size === 64 ? 0 : 1);
    }
  });

  it('does not stream a plan task, even of a terminal agent', () => {
    const { text } = run((stream) => {
      stream.modelCall('summarizer', agent({ name: 'summarizer' }), true);
      stream.modelText('summarizer', '{"output":{"content":"a task result"}}');
    });
    expect(text).toBe('');
  });

  it("streams a protocol: none agent's text as it is", () => {
    const { text } = run((stream) => {
      stream.modelCall('writer', agent({ name: 'writer', protocol: 'none' }), false);
      stream.modelText('writer', 'Plain {words}, ');
      stream.modelText('writer', 'as written.');
      stream.finish('Plain {words}, as written.');
    });
    expect(text).toBe('Plain {words}, as written.');
  });

  it('starts over with a new message_start when what was sent is not the answer (a rejected or redacted attempt)', () => {
    const { frames, afterLastStart } = run((stream) => {
      stream.modelCall('final_agent', agent({}), false);
      stream.modelText('final_agent', '{"output":{"content":"Draft that gets rejected"');
      stream.finish('The corrected answer.');
    });
    expect(frames.map((frame) => frame.event)).toEqual([
      'message_start',
      'content_chunk',
      'message_start',
      'content_chunk',
    ]);
    expect(afterLastStart).toBe('The corrected answer.');
  });

  it('sends progress lines as they are given, before the final agent starts', () => {
    const { frames, afterLastStart } = run((stream) => {
      stream.modelCall('planner', agent({ name: 'planner', next: ['final_agent'] }), false);
      stream.text('Planned 2 tasks\n\n');
      stream.modelCall('final_agent', agent({}), false);
      stream.finish('Done.');
    });
    expect(frames[1]).toEqual({ event: 'content_chunk', data: { chunk: 'Planned 2 tasks\n\n' } });
    expect(afterLastStart).toBe('Done.');
  });

  it('sends escapes and emoji whole, however the model splits them, and each chunk is whole characters', () => {
    const answer = 'Quote " slash \\ tab \t newline \n ünï \u0001 emoji 😀 and 👍🏽 done';
    const encodings = [
      JSON.stringify({ output: { content: { answer } } }),
      // The same answer with every non-ASCII character as \u escapes (surrogate pairs as two).
      JSON.stringify({ output: { content: answer } }).replace(
        /[\u007f-\uffff]/g,
        (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`,
      ),
    ];
    for (const raw of encodings) {
      for (const size of [1, 2, 5]) {
        const { frames, text } = run((stream) => {
          stream.modelCall('final_agent', agent({}), false);
          for (let at = 0; at < raw.length; at += size) stream.modelText('final_agent', raw.slice(at, at + size));
        });
        expect(text, `${raw.slice(0, 30)}… in pieces of ${size}`).toBe(answer);
        expectWholeCharacters(frames);
      }
    }
  });

  it('parses the text whole only until the answer is found: a long answer streamed a character at a time stays linear', () => {
    const parse = vi.mocked(partialJson.parse);
    parse.mockClear();
    const answer = 'All good. '.repeat(5_000);
    const raw = JSON.stringify({
      message_id: null,
      output: { content_type: 'final_report', content: { answer } },
      status: { code: 'success', message: 'Assembled' },
    });
    const { text } = run((stream) => {
      stream.modelCall('final_agent', agent({}), false);
      for (let at = 0; at < raw.length; at += 1) stream.modelText('final_agent', raw[at]!);
      stream.finish(answer);
    });
    expect(text).toBe(answer);
    // Once per character up to the answer's opening quote (about 80), not once per character of its 50,000.
    expect(parse.mock.calls.length).toBeLessThan(200);
  });

  it("sends a protocol: none agent's chunks as they come, linear in its length, never half an emoji", () => {
    const piece = 'Plain words 😀 and {braces} — ';
    const answer = piece.repeat(2_000);
    // Counted by hand: a spy would keep every receiver, each a copy of the text so far.
    const startsWith = String.prototype.startsWith;
    let compared = 0;
    String.prototype.startsWith = function (this: string, ...args: Parameters<typeof startsWith>) {
      compared++;
      return startsWith.apply(this, args);
    };
    let frames: ChatFrame[];
    let text: string;
    try {
      ({ frames, text } = run((stream) => {
        stream.modelCall('writer', agent({ name: 'writer', protocol: 'none' }), false);
        for (let at = 0; at < answer.length; at += 1) stream.modelText('writer', answer[at]!);
        stream.finish(answer);
      }));
    } finally {
      String.prototype.startsWith = startsWith;
    }
    expect(text).toBe(answer);
    // The text is not compared with all that was sent at every chunk (60,000 comparisons before).
    expect(compared).toBeLessThan(10);
    expect(chunksOf(frames).length).toBe(answer.length - 2_000);
    expectWholeCharacters(frames);
  });

  it('sends no more free text after a progress line it does not continue: the end starts over with the whole answer', () => {
    const { frames, text } = run((stream) => {
      stream.modelCall('writer', agent({ name: 'writer', protocol: 'none' }), false);
      stream.modelText('writer', 'First ');
      stream.text('(progress) ');
      stream.modelText('writer', 'part');
      stream.finish('First part, then the end.');
    });
    // What was sent stopped being a prefix of the text: the end starts over with the whole answer.
    expect(frames.map((frame) => frame.event)).toEqual([
      'message_start',
      'content_chunk',
      'content_chunk',
      'message_start',
      'content_chunk',
    ]);
    expect(text).toBe('First (progress) First part, then the end.');
  });
});
