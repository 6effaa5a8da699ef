/**
 * One attempt at one model call through the AI SDK, streamed or not. The SDK's retries are off
 * (`maxRetries: 0`) so `withRetries` counts attempts honestly; errors are thrown as raised.
 */
import {
  generateText,
  streamText,
  type LanguageModel,
  type LanguageModelUsage,
  type ModelMessage,
  type OutputInterface,
} from 'ai';
import { AnswerBudget, checkAnswerSize } from './answer-size-limit.js';
import type { LlmRequest, LlmToolCall, LlmUsage } from './provider.js';
import { sdkToolSet, toolCallOf, toolTurnMessages } from './ai-sdk-tools.js';
import { toolNameTable, type ToolNameTable } from './tool-names.js';
import { GovflowError } from '../errors.js';

/** What one successful attempt produced; the adapter adds provider and attempt count. */
export interface AttemptResult {
  text: string;
  usage: LlmUsage;
  /** The model id the server reported, or the one asked for when it reported none. */
  model: string;
  finishReason?: string;
  /** Tool calls of this turn (none when no tool was offered or called). */
  toolCalls?: LlmToolCall[];
  /** The provider's reasoning (Anthropic thinking, Gemini thoughts, `reasoning_content`), when it sent any. */
  reasoning?: string;
}

export interface AttemptInput {
  model: LanguageModel;
  modelId: string;
  request: LlmRequest;
  /** Ask for the provider's native JSON output (see NATIVE_JSON_MODE_BY_KIND). */
  jsonMode: boolean;
  stream: boolean;
  /** The caller's signal combined with this attempt's timeout. */
  abortSignal: AbortSignal;
  /** `llm.max_output_bytes`: the attempt throws AnswerTooLargeError as soon as the answer passes it. */
  maxOutputBytes: number;
}

/** JSON mode without the SDK's parsing: `Output.json()` would throw on invalid JSON and lose the raw text repair needs. */
const RAW_JSON_OUTPUT: OutputInterface<string, string, never> = {
  name: 'raw-json-text',
  responseFormat: Promise.resolve({ type: 'json' }),
  parseCompleteOutput: async ({ text }) => text,
  parsePartialOutput: async ({ text }) => ({ partial: text }),
  createElementStreamTransform: () => undefined,
};

/** Repair conversations replay earlier turns before the new prompt; file parts go with the first user message. */
function messagesOf(request: LlmRequest, table: ToolNameTable): ModelMessage[] {
  const history: ModelMessage[] = (request.history ?? []).map((turn) => ({ role: turn.role, content: turn.content }));
  const messages: ModelMessage[] = [
    ...history,
    { role: 'user', content: request.prompt },
    ...toolTurnMessages(request, table),
  ];
  const files = request.files ?? [];
  const first = messages.findIndex((message) => message.role === 'user');
  if (files.length > 0 && first !== -1) {
    const text = messages[first].content as string;
    messages[first] = {
      role: 'user',
      content: [
        { type: 'text', text },
        ...files.map((file) => ({
          type: 'file' as const,
          data: file.data,
          mediaType: file.mediaType,
          filename: file.path,
        })),
      ],
    };
  }
  return messages;
}

/** Our usage shape: `inputTokens` includes `cachedInputTokens` (the SDK normalises Anthropic's too). */
export function usageOf(usage: LanguageModelUsage | undefined): LlmUsage {
  return {
    inputTokens: usage?.inputTokens ?? 0,
    outputTokens: usage?.outputTokens ?? 0,
    cachedInputTokens: usage?.inputTokenDetails?.cacheReadTokens ?? usage?.cachedInputTokens ?? 0,
  };
}

function callSettings(input: AttemptInput, table: ToolNameTable) {
  const { request } = input;
  const tools = sdkToolSet(request.tools ?? [], table);
  return {
    model: input.model,
    system: request.system,
    messages: messagesOf(request, table),
    // No execute: the SDK stops after this one turn and the pipeline's tool loop runs the calls.
    ...(tools ? { tools } : {}),
    temperature: request.temperature,
    maxOutputTokens: request.maxTokens,
    maxRetries: 0,
    abortSignal: input.abortSignal,
    ...(input.jsonMode ? { output: RAW_JSON_OUTPUT } : {}),
  };
}

/** One call. Throws whatever the SDK or the network threw, or the signal's reason on abort. */
export async function attemptOnce(input: AttemptInput): Promise<AttemptResult> {
  return input.stream ? attemptStreaming(input) : attemptWhole(input);
}

async function attemptWhole(input: AttemptInput): Promise<AttemptResult> {
  const table = toolNameTable(input.request.tools ?? [], input.request.toolTurns);
  const result = await generateText(callSettings(input, table));
  checkAnswerSize(result.text, input.maxOutputBytes);
  const toolCalls = result.toolCalls.map((call) => toolCallOf(call as Parameters<typeof toolCallOf>[0], table));
  return {
    text: result.text,
    usage: usageOf(result.usage),
    model: result.response.modelId || input.modelId,
    finishReason: result.finishReason,
    ...(toolCalls.length > 0 ? { toolCalls } : {}),
    ...(result.reasoningText ? { reasoning: result.reasoningText } : {}),
  };
}

async function attemptStreaming(input: AttemptInput): Promise<AttemptResult> {
  const table = toolNameTable(input.request.tools ?? [], input.request.toolTurns);
  const toolCalls: LlmToolCall[] = [];
  // Leaving the loop below does not reach the HTTP request: a cut answer aborts it through this.
  const cut = new AbortController();
  const result = streamText({
    ...callSettings(input, table),
    abortSignal: AbortSignal.any([input.abortSignal, cut.signal]),
    // The default logs the raw error, where a server-echoed key would leak; the caller scrubs it.
    onError: () => {},
  });
  let text = '';
  let reasoning = '';
  let usage: LanguageModelUsage | undefined;
  let finishReason: string | undefined;
  let model = input.modelId;
  // Reasoning counts too: an endless stream of it would fill memory just the same.
  const budget = new AnswerBudget(input.maxOutputBytes);
  const count = (piece: string) => {
    try {
      budget.add(piece);
    } catch (error) {
      cut.abort(error);
      throw error;
    }
  };
  for await (const part of result.fullStream) {
    switch (part.type) {
      case 'reasoning-delta':
        count(part.text);
        reasoning += part.text;
        break;
      case 'text-delta':
        count(part.text);
        text += part.text;
        input.request.onChunk?.(part.text);
        break;
      case 'tool-call':
        toolCalls.push(toolCallOf(part as Parameters<typeof toolCallOf>[0], table));
        break;
      case 'finish-step':
        if (part.response.modelId) model = part.response.modelId;
        break;
      case 'finish':
        usage = part.totalUsage;
        finishReason = part.finishReason;
        break;
      case 'error':
        throw part.error;
      case 'abort':
        throw input.abortSignal.reason ?? new Error('The stream was aborted.');
      default:
        break;
    }
  }
  // A stream that ends without `finish` was cut off: its text is incomplete, so it is a failure.
  if (finishReason === undefined) {
    if (input.abortSignal.aborted) throw input.abortSignal.reason;
    throw new GovflowError('provider', 'The response stream ended before the model finished.', { retryable: true });
  }
  return {
    text,
    usage: usageOf(usage),
    model,
    finishReason,
    ...(toolCalls.length > 0 ? { toolCalls } : {}),
    ...(reasoning ? { reasoning } : {}),
  };
}
