/**
 * The tool side of an AI SDK call: the offered tools without `execute` (so the SDK hands the calls
 * back after one turn), the tool loop so far as messages, and names mapped to and from the wire.
 */
import { jsonSchema, tool, type ModelMessage, type ToolSet } from 'ai';
import type { LlmRequest, LlmToolCall, LlmToolOffer } from './provider.js';
import type { ToolNameTable } from './tool-names.js';

/** The SDK tool set for the offered tools. */
export function sdkToolSet(offers: readonly LlmToolOffer[], table: ToolNameTable): ToolSet | undefined {
  if (offers.length === 0) return undefined;
  const tools: ToolSet = {};
  for (const offer of offers) {
    tools[table.toWire.get(offer.name)!] = tool({
      description: offer.description,
      inputSchema: jsonSchema(offer.inputSchema as Parameters<typeof jsonSchema>[0]),
    });
  }
  return tools;
}

/** The tool loop so far, as the messages that follow the user prompt. */
export function toolTurnMessages(request: LlmRequest, table: ToolNameTable): ModelMessage[] {
  const messages: ModelMessage[] = [];
  for (const turn of request.toolTurns ?? []) {
    messages.push({
      role: 'assistant',
      content: [
        ...(turn.text ? [{ type: 'text' as const, text: turn.text }] : []),
        ...turn.calls.map((call) => ({
          type: 'tool-call' as const,
          toolCallId: call.id,
          toolName: table.toWire.get(call.name) ?? call.name,
          input: call.input ?? {},
        })),
      ],
    });
    messages.push({
      role: 'tool',
      content: turn.results.map((result) => ({
        type: 'tool-result' as const,
        toolCallId: result.id,
        toolName: table.toWire.get(result.name) ?? result.name,
        output: result.isError
          ? { type: 'error-text' as const, value: result.output }
          : { type: 'text' as const, value: result.output },
      })),
    });
  }
  return messages;
}

/** One SDK tool-call part as our call. */
export function toolCallOf(
  part: { toolCallId: string; toolName: string; input: unknown; invalid?: boolean; error?: unknown },
  table: ToolNameTable,
): LlmToolCall {
  const call: LlmToolCall = {
    id: part.toolCallId,
    name: table.fromWire.get(part.toolName) ?? part.toolName,
    input: part.input,
  };
  if (part.invalid) {
    const cause = part.error instanceof Error ? part.error.message : String(part.error ?? 'invalid tool call');
    // A call to a name never offered is not an input problem: the loop refuses it by name.
    if (table.fromWire.has(part.toolName)) call.inputError = cause;
  }
  return call;
}
