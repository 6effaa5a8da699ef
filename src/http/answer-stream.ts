/**
 * The text a chat turn streams (docs/http-api.md "Chat"): only the answer, taken from the final
 * agent's partial JSON as it arrives (`partial-json`), or a `protocol: none` agent's text as is.
 * Chunks since the last `message_start` always add up to a prefix of the answer; the end supplies
 * the rest, or starts over with a new `message_start` when what was sent is not a prefix of it.
 * Once the answer's string is the one being written, its new characters are decoded as they come
 * (OpenAnswer) instead of parsing the whole text again at every chunk; free text goes out chunk by
 * chunk while all that was sent came from it: linear in the answer's length either way.
 */
import { Allow, parse } from 'partial-json';
import type { AgentDefinition } from '../governance/agent-definition.js';

/** The answer so far in a model's partial Sentient JSON: its output.content when a string, else output.content.answer; null: none yet. */
export function partialAnswer(raw: string): string | null {
  const start = raw.indexOf('{');
  if (start === -1) return null;
  let value: unknown;
  try {
    value = parse(raw.slice(start), Allow.ALL);
  } catch {
    return null;
  }
  const output = (value as { output?: unknown } | null)?.output;
  const content = (output as { content?: unknown } | null | undefined)?.content;
  if (typeof content === 'string') return content;
  const answer = (content as { answer?: unknown } | null | undefined)?.answer;
  return typeof answer === 'string' ? answer : null;
}

/** Whether an agent's words are free text (`protocol: none`): streamed as they come, not parsed. */
export function isFreeText(agent: AgentDefinition): boolean {
  return agent.protocol === 'none';
}

/** An agent whose model text is the answer as it is written: one that ends its chain. */
export function writesAnswer(agent: AgentDefinition | undefined): boolean {
  return agent !== undefined && agent.next.length === 0;
}

export type ChatFrame =
  { event: 'message_start'; data: { turn: number } } | { event: 'content_chunk'; data: { chunk: string } };

/** One turn's text frames: message_start per model call, answer chunks, and the end's remainder. */
export class AnswerStream {
  private turn = 0;
  /** Text sent since the last message_start. */
  private sent = '';
  /**
   * The model call now streaming the answer: its agent, whether free text, and its raw text so far;
   * for free text, whether all that was sent is that text (`inStep`) but what is `held` (a trailing
   * surrogate pair's first half, sent with the next chunk); null: none.
   */
  private call: {
    agent: string;
    freeText: boolean;
    raw: string;
    open: OpenAnswer | null;
    inStep: boolean;
    held: string;
  } | null = null;

  constructor(private readonly emit: (frame: ChatFrame) => void) {}

  /**
   * A model call starts (a step, a tool-loop turn, a repair): a new message_start. It streams when
   * its agent writes the answer: one that ends the chain, not as a plan's task nor under an output
   * guardrail (`held`: its answer is sent once committed).
   */
  modelCall(agent: string, definition: AgentDefinition | undefined, held: boolean): void {
    this.emit({ event: 'message_start', data: { turn: this.turn++ } });
    this.sent = '';
    this.call =
      !held && definition && writesAnswer(definition)
        ? { agent, freeText: isFreeText(definition), raw: '', open: null, inStep: true, held: '' }
        : null;
  }

  /** Model text of `agent`: the answer's new part is sent. */
  modelText(agent: string, chunk: string): void {
    const call = this.call;
    if (call === null || call.agent !== agent) return;
    call.raw += chunk;
    if (call.freeText) {
      if (!call.inStep) {
        // A progress line went out since: on once the text goes on from all that was sent.
        if (!call.raw.startsWith(this.sent)) return;
        [call.inStep, call.held, chunk] = [true, '', call.raw.slice(this.sent.length)];
      }
      // All that was sent since message_start is this text: the chunk goes on from it, but half an emoji.
      let piece = call.held + chunk;
      const last = piece.charCodeAt(piece.length - 1);
      call.held = last >= 0xd800 && last <= 0xdbff ? piece.slice(-1) : '';
      if (call.held !== '') piece = piece.slice(0, -1);
      if (piece.length > 0) this.send(piece);
      return;
    }
    if (call.open) {
      // The answer's string is being written: only the chunk is decoded, and its characters sent.
      const piece = call.open.add(chunk);
      if (piece !== null) {
        if (piece.length > 0) this.send(piece);
        return;
      }
      call.open = null;
    }
    let answer = partialAnswer(call.raw);
    if (answer === null || !answer.startsWith(this.sent)) return;
    // Found open at the end of the text, the answer goes on from what was sent, a chunk at a time.
    const open = OpenAnswer.at(call.raw, answer);
    if (open && open.decoded.startsWith(this.sent)) [call.open, answer] = [open.opener, open.decoded];
    if (answer.length > this.sent.length) this.send(answer.slice(this.sent.length));
  }

  /** Text sent whole (a progress line): a free-text answer after it is compared with what was sent again. */
  text(chunk: string): void {
    if (this.call) this.call.inStep = false;
    this.send(chunk);
  }

  private send(chunk: string): void {
    this.sent += chunk;
    this.emit({ event: 'content_chunk', data: { chunk } });
  }

  /** The turn ends with `answer`: the rest of it is sent, or all of it after a new message_start. */
  finish(answer: string): void {
    this.call = null;
    if (!answer.startsWith(this.sent)) {
      this.emit({ event: 'message_start', data: { turn: this.turn++ } });
      this.sent = '';
    }
    if (answer.length > this.sent.length) this.send(answer.slice(this.sent.length));
  }
}

/**
 * The answer's JSON string while the model writes it, decoded a chunk at a time: a character is
 * taken only whole (an escape once all of it is there, a surrogate pair's first half with its
 * second: a chunk never ends in half an emoji), and what is not whole yet waits for the next chunk.
 * Once the closing quote is read the answer is whole and later text adds nothing.
 */
class OpenAnswer {
  /** Encoded characters not decoded yet (an escape or pair cut by the chunk's end). */
  private pending = '';
  private closed = false;

  /** The answer's string when `raw` ends inside it (the answer `partialAnswer` found there, give or take a half character). */
  static at(raw: string, answer: string): { opener: OpenAnswer; decoded: string } | null {
    let quote = raw.length - 1;
    for (; quote >= 0; quote--) if (raw[quote] === '"' && !escaped(raw, quote)) break;
    if (quote < 0 || !/"(?:answer|content)"\s*:\s*$/.test(raw.slice(Math.max(0, quote - 64), quote))) return null;
    const opener = new OpenAnswer();
    const decoded = opener.add(raw.slice(quote + 1));
    return decoded !== null && answer.startsWith(decoded) && answer.length - decoded.length <= 1
      ? { opener, decoded }
      : null;
  }

  /** What `chunk` adds to the answer; null when it is not JSON a string can hold (then the whole is parsed again). */
  add(chunk: string): string | null {
    if (this.closed) return '';
    const text = this.pending + chunk;
    let end = 0;
    let closing = false;
    while (end < text.length) {
      const char = text.charCodeAt(end);
      if (char === 0x22) {
        closing = true;
        break;
      }
      const size = char === 0x5c ? escapeLength(text, end) : char >= 0xd800 && char <= 0xdbff ? 2 : 1;
      if (end + size > text.length) break;
      end += size;
    }
    let piece: string;
    try {
      piece = end > 0 ? (JSON.parse(`"${text.slice(0, end)}"`) as string) : '';
    } catch {
      return null;
    }
    this.pending = closing ? '' : text.slice(end);
    this.closed = closing;
    return piece;
  }
}

/** Whether the character at `at` follows an odd run of backslashes. */
function escaped(raw: string, at: number): boolean {
  let count = 0;
  while (at - count - 1 >= 0 && raw[at - count - 1] === '\\') count++;
  return count % 2 === 1;
}

/** The length of the escape at `at`: 2, 6 for \uXXXX, 12 for a surrogate pair's two (its halves are taken together). */
function escapeLength(raw: string, at: number): number {
  if (raw[at + 1] !== 'u') return 2;
  const unit = Number.parseInt(raw.slice(at + 2, at + 6), 16);
  return unit >= 0xd800 && unit <= 0xdbff ? 12 : 6;
}
