/** An agent as the orchestrator uses it: declaration resolved, defaults applied, instructions read. */
import type { AttachmentMode } from '../config/config-loader.js';
import type { AgentType } from '../message/sentient-message.js';
import type { AgentRoute } from './agent-expressions.js';
import type { CompiledExpression } from './cel-expression.js';
import type { InputTemplate } from './input-template.js';

export interface AgentDefinition {
  name: string;
  type: AgentType;
  description: string;
  entry: boolean;
  /** Agents it may route to; empty = terminal. */
  next: string[];
  /** The output.content_type it must produce. */
  contentType: string;
  /** Compiled-from JSON Schema for output.content, or null. */
  outputSchema: Record<string, unknown> | null;
  plan: boolean;
  onFailure: string | null;
  model?: string;
  temperature?: number;
  maxTokens?: number;
  timeoutMs?: number;
  maxRetries?: number;
  /** Root-relative path of the markdown file holding its instructions (null: config only). */
  file: string | null;
  /** Where it was declared, for errors: file, the line of its name, the lines of its routing keys. */
  declaredIn: { file: string; line: number; keyLines?: Readonly<Partial<Record<RoutingKey, number>>> };
  /** The markdown instructions (frontmatter removed). */
  instructions: string;
  /** Tool names and `mcp:<server>/<prefix>*` patterns it is offered (README "Give an agent tools"); empty: none. */
  tools: string[];
  /** Model turns per message in the tool loop. */
  maxTurns: number;
  /** Tool names and patterns whose calls wait for a person's approval. */
  approval: string[];
  /** Agents it may delegate to through the `delegate` tool (README "Delegation"); empty: none. */
  delegates: string[];
  /** What it gets of a request's attachments (docs/attachments.md); null: `inline` for the entry agent, `list` for the others. */
  attachments?: AttachmentMode | null;
  /** Routes decided by the orchestrator (SPEC §24), tried in order after each committed message; empty: none. */
  routes?: AgentRoute[];
  /** The `input:` template that replaces the previous message as its input; null: none. */
  input?: InputTemplate | null;
  /** The `answer:` expression over its message that overrides a result's answer (SPEC §23); null: none. */
  answer?: CompiledExpression | null;
  /** `none`: a free-text agent whose whole answer is output.content (SPEC §24); absent: the message protocol. */
  protocol?: 'sentient' | 'none';
  /** `sacp`: it answers seed 000's `{thought, status, data, message, next_step_hint?}`, mapped to a message (SPEC §24). */
  messageFormat?: 'sentient' | 'sacp';
  /** Lines of `input:` and `answer:`, for `govflow validate`. */
  expressionLines?: { input: number; answer: number };
}

/** Declaration keys the routing graph checks, so its errors can name their lines. */
/** `on_failure: intervene` (docs/run-control.md): a failed message pauses its session for a steward. */
export const INTERVENE = 'intervene';

export type RoutingKey = 'entry' | 'next' | 'plan' | 'on_failure' | 'delegates';

/** Content type when an agent declares none. */
export const DEFAULT_CONTENT_TYPE = 'text';
