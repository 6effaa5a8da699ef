/** The JSON Schema of an agent declaration (frontmatter, or config `agents:`); docs/agents.md lists the keys. */
const positiveInteger = { type: 'integer', minimum: 1 };

/** Agent declaration keys (frontmatter, or config `agents:`). Unknown keys are errors. */
export const AGENT_DECLARATION_SCHEMA = {
  type: 'object',
  additionalProperties: false,
  required: ['name', 'type', 'description'],
  properties: {
    name: { type: 'string', pattern: '^[a-z][a-z0-9_]*$' },
    type: { enum: ['governance', 'operational', 'executional'] },
    description: { type: 'string', minLength: 1 },
    entry: { type: 'boolean' },
    next: { type: ['array', 'null'], items: { type: 'string' }, uniqueItems: true },
    content_type: { type: 'string', minLength: 1 },
    output_schema: { type: ['string', 'object'] },
    plan: { type: 'boolean' },
    on_failure: { type: 'string' },
    model: { type: 'string', minLength: 1 },
    temperature: { type: 'number', minimum: 0, maximum: 2 },
    max_tokens: positiveInteger,
    timeout_ms: positiveInteger,
    max_retries: { type: 'integer', minimum: 0 },
    file: { type: 'string' },
    tools: { type: 'array', items: { type: 'string', minLength: 1 }, uniqueItems: true },
    max_turns: positiveInteger,
    approval: { type: 'array', items: { type: 'string', minLength: 1 }, uniqueItems: true },
    delegates: { type: 'array', items: { type: 'string', minLength: 1 }, uniqueItems: true },
    attachments: { enum: ['inline', 'list', 'native'] },
    routes: {
      type: 'array',
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['to'],
        properties: { when: { type: 'string', minLength: 1 }, to: { type: ['string', 'null'], minLength: 1 } },
      },
    },
    input: { type: 'string', minLength: 1 },
    answer: { type: 'string', minLength: 1 },
    protocol: { enum: ['sentient', 'none'] },
    message_format: { enum: ['sentient', 'sacp'] },
  },
} as const;
