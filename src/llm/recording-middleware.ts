/**
 * An AI SDK middleware that records exactly what the model returned into the capture slot the
 * recording provider opens around each call (AsyncLocalStorage); outside one it does nothing.
 */
import type { LanguageModelV3Content, LanguageModelV3StreamPart, LanguageModelV3Usage } from '@ai-sdk/provider';
import { wrapLanguageModel, type LanguageModel, type LanguageModelMiddleware } from 'ai';
import type { RecordedAnswer, RecordedToolCall } from './cassette-format.js';
import { captureSlots } from './capture-slots.js';

function usageOf(usage: LanguageModelV3Usage | undefined): RecordedAnswer['usage'] {
  return {
    input_tokens: usage?.inputTokens.total ?? 0,
    output_tokens: usage?.outputTokens.total ?? 0,
    cached_input_tokens: usage?.inputTokens.cacheRead ?? 0,
  };
}

function answerOf(
  content: LanguageModelV3Content[],
  usage: LanguageModelV3Usage | undefined,
  model: string,
  finishReason: string | null,
): RecordedAnswer {
  let text = '';
  const toolCalls: RecordedToolCall[] = [];
  for (const part of content) {
    if (part.type === 'text') text += part.text;
    else if (part.type === 'tool-call') toolCalls.push({ id: part.toolCallId, name: part.toolName, input: part.input });
  }
  return { text, tool_calls: toolCalls, usage: usageOf(usage), model, finish_reason: finishReason };
}

/** The middleware; harmless when no recording is under way. */
export const recordingMiddleware: LanguageModelMiddleware = {
  specificationVersion: 'v3',
  async wrapGenerate({ doGenerate, model }) {
    const result = await doGenerate();
    const slot = captureSlots.getStore();
    if (slot)
      slot.answer = answerOf(
        result.content,
        result.usage,
        result.response?.modelId ?? model.modelId,
        result.finishReason.unified,
      );
    return result;
  },
  async wrapStream({ doStream, model }) {
    const result = await doStream();
    const slot = captureSlots.getStore();
    if (!slot) return result;
    const content: LanguageModelV3Content[] = [];
    let usage: LanguageModelV3Usage | undefined;
    let finishReason: string | null = null;
    let modelId = model.modelId;
    const watch = new TransformStream<LanguageModelV3StreamPart, LanguageModelV3StreamPart>({
      transform(part, controller) {
        if (part.type === 'text-delta') content.push({ type: 'text', text: part.delta });
        else if (part.type === 'tool-call') content.push(part);
        else if (part.type === 'response-metadata' && part.modelId) modelId = part.modelId;
        else if (part.type === 'finish') {
          usage = part.usage;
          finishReason = part.finishReason.unified;
        }
        controller.enqueue(part);
      },
      flush() {
        // Only a stream that finished is an answer; a cut one is a failed attempt.
        if (finishReason !== null) slot.answer = answerOf(content, usage, modelId, finishReason);
      },
    });
    return { ...result, stream: result.stream.pipeThrough(watch) };
  },
};

/** `model` with the recording middleware around it. */
export function withRecording(model: LanguageModel): LanguageModel {
  if (typeof model === 'string') return model;
  return wrapLanguageModel({
    model: model as Parameters<typeof wrapLanguageModel>[0]['model'],
    middleware: recordingMiddleware,
  });
}
