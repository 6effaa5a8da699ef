/**
 * `llm.max_output_bytes`: a model answer that passes it is cut at once, before it fills memory,
 * and is invalid output for the repair loop, never a provider error. `AnswerBudget` counts
 * streamed text, `cappedFetch` caps a whole HTTP body before the SDK reads it, `limitAnswerSize`
 * wraps any provider.
 */
import { GovflowError } from '../errors.js';
import { nodeHttpFetch } from './node-http-fetch.js';
import { wrapProvider, type LlmProvider, type LlmRequest, type LlmResponse } from './provider.js';

/** Characters of the cut answer kept on the error (shown to the model in the repair prompt). */
export const KEPT_PREFIX_CHARS = 2_000;

/** The sentence every cut answer reports (the key, docs/configuration.md, and the limit in bytes). */
export function answerTooLargeMessage(limitBytes: number): string {
  return `answer exceeded llm.max_output_bytes (${limitBytes})`;
}

/** Thrown (or the abort reason) when an answer passes `llm.max_output_bytes`: the model is at fault. */
export class AnswerTooLargeError extends GovflowError {
  override readonly name = 'AnswerTooLargeError';
  constructor(
    readonly limitBytes: number,
    /** The first characters of the answer, for the repair prompt and the journal. */
    readonly prefix: string,
  ) {
    super('provider', answerTooLargeMessage(limitBytes));
  }
}

/** The AnswerTooLargeError behind `error`, however the SDK wrapped it (cause chain, abort reason). */
export function findAnswerTooLarge(error: unknown): AnswerTooLargeError | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 8 && current !== undefined && current !== null; depth++) {
    if (current instanceof AnswerTooLargeError) return current;
    if (typeof current !== 'object') return undefined;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

/** Counts an answer's bytes as its pieces arrive; throws once the total passes the limit. */
export class AnswerBudget {
  private used = 0;
  private prefix = '';

  constructor(readonly limitBytes: number) {}

  get bytes(): number {
    return this.used;
  }

  /** Adds one piece; throws AnswerTooLargeError when the answer so far is over the limit. */
  add(piece: string): void {
    if (typeof piece !== 'string') return; // a broken adapter's non-text piece is not a size problem
    if (this.prefix.length < KEPT_PREFIX_CHARS) this.prefix += piece.slice(0, KEPT_PREFIX_CHARS - this.prefix.length);
    this.used += Buffer.byteLength(piece);
    if (this.used > this.limitBytes) throw new AnswerTooLargeError(this.limitBytes, this.prefix);
  }
}

/** Throws AnswerTooLargeError when a whole answer is over the limit. */
export function checkAnswerSize(text: string, limitBytes: number): void {
  // A broken adapter's non-text answer is not a size problem; the step's parser reports it.
  if (typeof text !== 'string') return;
  // A string of n UTF-16 units is at most 3n UTF-8 bytes and at least n: skip the count when it cannot matter.
  if (text.length * 3 <= limitBytes) return;
  if (text.length > limitBytes || Buffer.byteLength(text) > limitBytes) {
    throw new AnswerTooLargeError(limitBytes, text.slice(0, KEPT_PREFIX_CHARS));
  }
}

/**
 * Largest whole (non-streamed) response body accepted for an answer limit. JSON escaping makes a
 * text at most 6 times longer (`\u001f` for one byte), so no answer within the limit is refused.
 */
export function wholeBodyLimit(answerLimitBytes: number): number {
  return answerLimitBytes * 6 + 65_536;
}

/**
 * A `fetch` whose bodies stop with AnswerTooLargeError past `maxBodyBytes` (counted as read when
 * the length is unknown or compressed; refused unread when it declares more). Event streams pass
 * through: the adapter counts their text, and their framing would make a body count meaningless.
 * `baseFetch` sends the request: the keep-alive node:http client unless a test gives another.
 */
export function cappedFetch(
  maxBodyBytes: number,
  answerLimitBytes: number,
  baseFetch: typeof fetch = nodeHttpFetch,
): typeof fetch {
  return async (input, init) => {
    const response = await baseFetch(input, init);
    const type = response.headers.get('content-type') ?? '';
    if (response.body === null || type.includes('text/event-stream')) return response;
    const length = response.headers.get('content-length');
    if (length !== null) {
      if (Number(length) > maxBodyBytes) {
        await response.body.cancel().catch(() => undefined);
        throw new AnswerTooLargeError(answerLimitBytes, '');
      }
      // A declared length within the cap bounds what is read — unless the body is compressed,
      // as fetch decodes it while reading: then only counting the decoded bytes does.
      const encoding = response.headers.get('content-encoding');
      if (/^\d+$/.test(length) && (encoding === null || encoding === 'identity')) return response;
    }
    let seen = 0;
    const counted = response.body.pipeThrough(
      new TransformStream<Uint8Array, Uint8Array>({
        transform(chunk, controller) {
          seen += chunk.byteLength;
          if (seen > maxBodyBytes) controller.error(new AnswerTooLargeError(answerLimitBytes, ''));
          else controller.enqueue(chunk);
        },
      }),
    );
    return new Response(counted, {
      status: response.status,
      statusText: response.statusText,
      headers: response.headers,
    });
  };
}

/** Wraps any provider so its answers obey the limit, streamed or whole; rejects with AnswerTooLargeError. */
export function limitAnswerSize(provider: LlmProvider, limitBytes: number): LlmProvider {
  async function generate(request: LlmRequest): Promise<LlmResponse> {
    const cut = new AbortController();
    const budget = new AnswerBudget(limitBytes);
    const consumer = request.onChunk;
    // Without a chunk reader the answer comes whole and is checked whole (the fetch caps the body).
    const limited: LlmRequest = !consumer
      ? request
      : {
          ...request,
          signal: AbortSignal.any([request.signal, cut.signal]),
          onChunk: (chunk) => {
            if (cut.signal.aborted) return;
            try {
              budget.add(chunk);
            } catch (error) {
              cut.abort(error);
              return;
            }
            consumer(chunk);
          },
        };
    let response: LlmResponse;
    try {
      response = await provider.generate(limited);
    } catch (error) {
      const tooLarge =
        findAnswerTooLarge(error) ?? (cut.signal.aborted ? findAnswerTooLarge(cut.signal.reason) : undefined);
      throw tooLarge ?? error;
    }
    if (cut.signal.aborted) throw cut.signal.reason;
    checkAnswerSize(response.text, limitBytes);
    return response;
  }
  return wrapProvider(provider, generate);
}
