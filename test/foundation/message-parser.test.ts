import { describe, expect, it } from 'vitest';
import { parseModelOutput, removeTrailingCommas } from '../../src/message/message-parser.js';

const message = {
  status: { code: 'success', message: 'done' },
  output: { content: { items: [1, 2] }, content_type: 'summary' },
};
const json = JSON.stringify(message, null, 2);

function parsed(raw: string) {
  const result = parseModelOutput(raw);
  if (!result.ok) throw new Error(`expected the output to parse, got: ${result.error}`);
  return result;
}

function failure(raw: string): string {
  const result = parseModelOutput(raw);
  if (result.ok) throw new Error(`expected a parse failure, got ${JSON.stringify(result.value)}`);
  return result.error;
}

describe('parseModelOutput accepts what models really send', () => {
  it('raw JSON, with surrounding whitespace', () => {
    const result = parsed(`\n  ${json}\n\n`);
    expect(result.value).toEqual(message);
    expect(result.method).toBe('raw');
    expect(result.repairedTrailingCommas).toBe(false);
  });

  it('a ```json fenced block with chatter before and after (chatter containing braces)', () => {
    const raw = `Sure! Here is the message {as requested}:\n\n\`\`\`json\n${json}\n\`\`\`\n\nLet me know if you need {anything} else.`;
    const result = parsed(raw);
    expect(result.value).toEqual(message);
    expect(result.method).toBe('fenced');
  });

  it('a bare ``` fence and a ```JSON fence with CRLF line ends', () => {
    expect(parsed(`\`\`\`\n${json}\n\`\`\``).value).toEqual(message);
    expect(parsed(`Result:\r\n\`\`\`JSON\r\n${json.replace(/\n/g, '\r\n')}\r\n\`\`\`\r\n`).value).toEqual(message);
  });

  it('chatter before and after the braces, with no fence', () => {
    const result = parsed(`I have analysed the request. ${JSON.stringify(message)} That is my final answer.`);
    expect(result.value).toEqual(message);
    expect(result.method).toBe('braces');
  });

  it('trailing commas, repaired and reported, without touching commas inside strings', () => {
    const raw = '{"output": {"content": "a, }", "content_type": "x",}, "list": [1, 2, ], "s": "b,]",\n}';
    const result = parsed(raw);
    expect(result.value).toEqual({ output: { content: 'a, }', content_type: 'x' }, list: [1, 2], s: 'b,]' });
    expect(result.repairedTrailingCommas).toBe(true);
  });

  it('trailing commas inside a fenced block with chatter', () => {
    const result = parsed('Here:\n```json\n{"a": [1, 2,],}\n```\nbye');
    expect(result.value).toEqual({ a: [1, 2] });
    expect(result.repairedTrailingCommas).toBe(true);
  });

  it('nested braces and escaped quotes inside strings', () => {
    const value = { output: { content: 'use {curly} and } and { and "quotes" and \\ slashes', content_type: 'text' } };
    const result = parsed(`Answer: ${JSON.stringify(value)}`);
    expect(result.value).toEqual(value);
  });

  it('keeps unicode and escaped newlines exactly', () => {
    const value = { text: 'Grüße — 你好\nline two', emoji: '✅' };
    expect(parsed(JSON.stringify(value)).value).toEqual(value);
  });
});

describe('parseModelOutput rejects with an error the model can act on', () => {
  it('empty and whitespace-only text', () => {
    expect(failure('')).toMatch(/empty/);
    expect(failure('  \n\t ')).toMatch(/empty/);
  });

  it('prose with no JSON at all', () => {
    expect(failure('I cannot help with that request.')).toMatch(/no JSON object/);
  });

  it('truncated JSON with no closing brace', () => {
    expect(failure('{"status": {"code": "success", "message": "do')).toMatch(/truncated|cut off/);
  });

  it('truncated JSON whose inner objects did close', () => {
    const cut = '{"status": {"code": "success", "message": "done"}, "output": {"content": [1, 2';
    expect(failure(cut)).toMatch(/truncated|cut off/);
    const cutAfterObject = '{"status": {"code": "success"}, "output": {"content": {"a": 1}';
    expect(failure(cutAfterObject)).toMatch(/truncated|cut off/);
  });

  it('a truncated fenced block', () => {
    expect(failure('```json\n{"status": {"code": "success"}, "output": {"content": "half')).toMatch(
      /truncated|cut off/,
    );
  });

  it('a JSON array of messages, naming the array', () => {
    expect(failure('[{"a": 1}, {"b": 2}]')).toMatch(/not an object.*array/);
  });

  it('a JSON string, number or null', () => {
    expect(failure('"just a string"')).toMatch(/not an object.*string/);
    expect(failure('42')).toMatch(/not an object.*number/);
    expect(failure('null')).toMatch(/not an object.*null/);
  });

  it('broken JSON inside chatter: the error points into the JSON, not at the chatter', () => {
    const error = failure('Here you go: {"a": 1 "b": 2} thanks');
    expect(error).toMatch(/not valid JSON/);
    expect(error).not.toMatch(/Unexpected token 'H'/);
  });

  it('single quotes and comments are not silently accepted', () => {
    expect(failure("{'a': 1}")).toMatch(/not valid JSON/);
    expect(failure('{"a": 1 // the answer\n}')).toMatch(/not valid JSON/);
  });
});

describe('removeTrailingCommas', () => {
  it('only removes commas directly before a closing bracket, outside strings', () => {
    expect(removeTrailingCommas('{"a": [1, 2 ,\n ], "b": ",}",}')).toBe('{"a": [1, 2 \n ], "b": ",}"}');
    expect(removeTrailingCommas('{"a": "\\",}",}')).toBe('{"a": "\\",}"}');
    expect(removeTrailingCommas('[1,2]')).toBe('[1,2]');
  });
});
