/**
 * The text a chat turn streams (docs/http-api.md "Chat"): only the answer, taken from the final
 * agent's partial JSON as it arrives (`partial-json`), or a `protocol: none` agent's text as is.
 * Chunks since the last `message_start` always add up to a prefix of the answer; the end supplies
 * the rest, or starts over with a new `message_start` when what was sent is not a prefix of it.
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
  /** The model call now streaming the answer: its agent, whether free text, and its raw text so far; null: none. */
  private call: { agent: string; freeText: boolean; raw: string } | null = null;

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
      !held && definition && writesAnswer(definition) ? { agent, freeText: isFreeText(definition), raw: '' } : null;
  }

  /** Model text of `agent`: the answer's new part is sent. */
  modelText(agent: string, chunk: string): void {
    const call = this.call;
    if (call === null || call.agent !== agent) return;
    call.raw += chunk;
    const answer = call.freeText ? call.raw : partialAnswer(call.raw);
    if (answer === null || !answer.startsWith(this.sent) || answer.length === this.sent.length) return;
    this.text(answer.slice(this.sent.length));
  }

  /** Text sent whole (a progress line). */
  text(chunk: string): void {
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
    if (answer.length > this.sent.length) this.text(answer.slice(this.sent.length));
  }
}
