/** Stamps the fields the orchestrator owns over what the model wrote, recording each correction for the audit entry. */
import { isDeepStrictEqual } from 'node:util';
import type { SentientMessage } from './sentient-message.js';
import { isoInTimeZone } from './zoned-time.js';
import { isPlainObject } from './json-text.js';

export interface StampContext {
  messageId: string;
  executedAt: Date;
  timezone: string;
  agent: { name: string; type: string };
  input: { source: string; content: unknown };
  sessionId: string;
  requestId: string;
  sequenceNumber: number;
  parentMessageId: string | null;
  retryCount: number;
}

function preview(value: unknown): string {
  const text = typeof value === 'string' ? JSON.stringify(value) : (JSON.stringify(value) ?? String(value));
  return text.length > 80 ? `${text.slice(0, 77)}...` : text;
}

/** A new message with the owned fields set; a non-null value the model wrote otherwise is a correction. */
export function stampMessage(
  candidate: Record<string, unknown>,
  context: StampContext,
): { message: SentientMessage; corrections: string[] } {
  const corrections: string[] = [];
  // A shallow copy (a deep clone cost a tenth of a step): stamped sections are replaced, `audit`
  // and `error` copied, the rest shared with the candidate, which nothing changes in place.
  const message: Record<string, unknown> = { ...candidate };
  if (isPlainObject(message.audit)) message.audit = { ...message.audit };
  const set = (pathName: string, written: unknown, value: unknown) => {
    if (written !== undefined && written !== null && !isDeepStrictEqual(written, value)) {
      corrections.push(`${pathName}: model wrote ${preview(written)}, set to ${preview(value)}`);
    }
  };
  const section = (name: string): Record<string, unknown> => {
    const existing = message[name];
    if (isPlainObject(existing)) return existing;
    if (existing !== undefined && existing !== null) set(name, existing, '(object)');
    const created: Record<string, unknown> = {};
    message[name] = created;
    return created;
  };

  set('message_id', message.message_id, context.messageId);
  message.message_id = context.messageId;

  const timestamp = { executed_at: isoInTimeZone(context.executedAt, context.timezone), timezone: context.timezone };
  const writtenTimestamp = section('timestamp');
  set('timestamp.executed_at', writtenTimestamp.executed_at, timestamp.executed_at);
  set('timestamp.timezone', writtenTimestamp.timezone, timestamp.timezone);
  message.timestamp = timestamp;

  const writtenAgent = section('agent');
  set('agent.name', writtenAgent.name, context.agent.name);
  set('agent.type', writtenAgent.type, context.agent.type);
  message.agent = { name: context.agent.name, type: context.agent.type };

  const writtenInput = section('input');
  set('input.source', writtenInput.source, context.input.source);
  if (
    writtenInput.content !== undefined &&
    writtenInput.content !== null &&
    !isDeepStrictEqual(writtenInput.content, context.input.content)
  ) {
    corrections.push('input.content: model rewrote its input; replaced with the input it was given');
  }
  message.input = { source: context.input.source, content: context.input.content };

  const metadata = {
    session_id: context.sessionId,
    request_id: context.requestId,
    sequence_number: context.sequenceNumber,
    parent_message_id: context.parentMessageId,
  };
  const writtenMetadata = section('metadata');
  for (const key of Object.keys(metadata) as Array<keyof typeof metadata>) {
    set(`metadata.${key}`, writtenMetadata[key], metadata[key]);
  }
  // metadata.* is owned entirely: keys the model invented there are dropped, not passed on.
  for (const [key, written] of Object.entries(writtenMetadata)) {
    if (!(key in metadata) && written !== undefined && written !== null) {
      corrections.push(
        `metadata.${key}: model wrote ${preview(written)}, removed (metadata is set by the orchestrator)`,
      );
    }
  }
  message.metadata = metadata;

  if (isPlainObject(message.error)) {
    set('error.retry_count', message.error.retry_count, context.retryCount);
    message.error = { ...message.error, retry_count: context.retryCount };
  }
  return { message: message as SentientMessage, corrections };
}
