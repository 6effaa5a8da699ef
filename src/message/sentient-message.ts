/** The Sentient message contract (seed 002): the TypeScript type and the built-in JSON Schema together, so they cannot drift apart. */

/** Status codes an agent may report (README "Write an agent"). */
export const STATUS_CODES = ['success', 'partial', 'failed', 'pending'] as const;
export type StatusCode = (typeof STATUS_CODES)[number];

/** Error codes: the seed's six plus the two the orchestrator enforces itself. */
export const ERROR_CODES = [
  'OUT_OF_SCOPE',
  'INVALID_INPUT',
  'PROCESSING_ERROR',
  'TIMEOUT',
  'DEPENDENCY_ERROR',
  'VALIDATION_ERROR',
  'BUDGET_EXCEEDED',
  'LOOP_DETECTED',
] as const;
export type ErrorCode = (typeof ERROR_CODES)[number];

export const AGENT_TYPES = ['governance', 'operational', 'executional'] as const;
export type AgentType = (typeof AGENT_TYPES)[number];

/** One agent message in the Sentient format. Every field is present; `null` where it does not apply. */
export interface SentientMessage {
  message_id: string;
  timestamp: { executed_at: string; timezone: string };
  agent: { name: string; type: string };
  input: { source: string; content: unknown };
  output: { content: unknown; content_type: string };
  next_agent: { name: string | null; reason: string | null };
  status: { code: StatusCode; message: string };
  error: {
    has_error: boolean;
    error_code: string | null;
    error_message: string | null;
    retry_count: number;
    recoverable: boolean;
  };
  metadata: {
    session_id: string;
    request_id: string;
    sequence_number: number;
    parent_message_id: string | null;
  };
  audit: { compliance_notes: string | null; governance_files_consulted: string[] | null };
  /** Custom schemas may add fields (e.g. `resources`); they pass through untouched. */
  [extra: string]: unknown;
}

const nullableString = { type: ['string', 'null'] } as const;

/** The built-in message schema (draft-07). A custom schema may replace it (`message.schema`). */
export const SENTIENT_MESSAGE_SCHEMA = {
  $schema: 'http://json-schema.org/draft-07/schema#',
  $id: 'https://govflow.dev/schemas/sentient-message.json',
  title: 'Sentient agent message',
  type: 'object',
  required: [
    'message_id',
    'timestamp',
    'agent',
    'input',
    'output',
    'next_agent',
    'status',
    'error',
    'metadata',
    'audit',
  ],
  properties: {
    message_id: { type: 'string', minLength: 1 },
    timestamp: {
      type: 'object',
      required: ['executed_at', 'timezone'],
      properties: {
        executed_at: { type: 'string', format: 'date-time' },
        timezone: { type: 'string', minLength: 1 },
      },
    },
    agent: {
      type: 'object',
      required: ['name', 'type'],
      properties: { name: { type: 'string' }, type: { type: 'string' } },
    },
    input: {
      type: 'object',
      required: ['source', 'content'],
      properties: { source: { type: 'string' }, content: {} },
    },
    output: {
      type: 'object',
      required: ['content', 'content_type'],
      additionalProperties: false,
      properties: { content: {}, content_type: { type: 'string', minLength: 1 } },
    },
    next_agent: {
      type: 'object',
      required: ['name', 'reason'],
      additionalProperties: false,
      properties: { name: nullableString, reason: nullableString },
    },
    status: {
      type: 'object',
      required: ['code', 'message'],
      additionalProperties: false,
      properties: {
        code: { enum: [...STATUS_CODES] },
        message: { type: 'string' },
      },
    },
    error: {
      type: 'object',
      required: ['has_error', 'error_code', 'error_message', 'retry_count', 'recoverable'],
      additionalProperties: false,
      properties: {
        has_error: { type: 'boolean' },
        error_code: { anyOf: [{ enum: [...ERROR_CODES] }, { type: 'null' }] },
        error_message: nullableString,
        retry_count: { type: 'integer', minimum: 0 },
        recoverable: { type: 'boolean' },
      },
      if: { properties: { has_error: { const: true } } },
      then: { properties: { error_code: { enum: [...ERROR_CODES] } } },
    },
    metadata: {
      type: 'object',
      required: ['session_id', 'request_id', 'sequence_number', 'parent_message_id'],
      properties: {
        session_id: { type: 'string' },
        request_id: { type: 'string' },
        sequence_number: { type: 'integer', minimum: 1 },
        parent_message_id: nullableString,
      },
    },
    audit: {
      type: 'object',
      required: ['compliance_notes', 'governance_files_consulted'],
      properties: {
        compliance_notes: nullableString,
        governance_files_consulted: {
          anyOf: [{ type: 'array', items: { type: 'string' } }, { type: 'null' }],
        },
      },
    },
  },
} as const;
