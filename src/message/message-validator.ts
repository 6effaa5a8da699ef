/** Validates a stamped message for one agent, with problems phrased to send back to the model verbatim. */
import type { ValidateFunction } from 'ajv';
import { DEFAULT_MAX_DEPTH, jsonValueDepth, tooDeepMessage } from './json-depth.js';
import { checkPlan, type Plan } from './plan.js';
import { builtinValidator, compileSchema, describeSchemaErrors } from './schema-compiler.js';
import { SENTIENT_MESSAGE_SCHEMA, type SentientMessage } from './sentient-message.js';

/** What the validator reads of an agent (governance's AgentDefinition has it). */
export type AgentContract = {
  name: string;
  next: readonly string[];
  contentType: string;
  outputSchema?: Record<string, unknown> | null;
  plan?: boolean;
};

export interface ValidationOutcome {
  ok: boolean;
  problems: string[];
  plan?: Plan;
}

export class MessageValidator {
  private readonly validateMessage: ValidateFunction;
  private readonly outputValidators = new Map<string, ValidateFunction>();

  constructor(
    messageSchema: Record<string, unknown>,
    private readonly executionalAgents: readonly string[],
    /** `message.max_depth`: deeper messages are refused before ajv (recursive) walks them. */
    private readonly maxDepth: number = DEFAULT_MAX_DEPTH,
  ) {
    this.validateMessage =
      messageSchema === SENTIENT_MESSAGE_SCHEMA ? builtinValidator('sentientMessage') : compileSchema(messageSchema);
  }

  validate(message: SentientMessage, agent: AgentContract): ValidationOutcome {
    if (jsonValueDepth(message, this.maxDepth) > this.maxDepth)
      return { ok: false, problems: [tooDeepMessage(this.maxDepth, 'the message')] };
    if (!this.validateMessage(message))
      return { ok: false, problems: describeSchemaErrors(this.validateMessage.errors) };
    const problems: string[] = [];
    const status = message.status.code;
    const nextName = message.next_agent.name;
    const producing = status === 'success' || status === 'partial';
    if (nextName !== null && !agent.next.includes(nextName)) {
      problems.push(
        agent.next.length === 0
          ? `/next_agent/name: "${nextName}" is not allowed; ${agent.name} is a terminal agent, so next_agent.name must be null`
          : `/next_agent/name: "${nextName}" is not allowed; ${agent.name} may only route to ${agent.next.join(', ')}`,
      );
    }
    if (producing && nextName === null && agent.next.length > 0) {
      problems.push(
        agent.plan
          ? `/next_agent/name: a plan's results go to ${agent.next.join(', ')}; name it`
          : `/next_agent/name: must name the next agent (${agent.next.join(', ')}) when status is ${status}`,
      );
    }
    if (producing && message.output.content_type !== agent.contentType) {
      problems.push(
        `/output/content_type: must be "${agent.contentType}" for ${agent.name}, got "${message.output.content_type}"`,
      );
    }
    if (problems.length > 0) return { ok: false, problems };
    if (producing && agent.outputSchema) {
      const validateOutput = this.outputValidator(agent);
      if (!validateOutput(message.output.content)) {
        return { ok: false, problems: describeSchemaErrors(validateOutput.errors, '/output/content') };
      }
    }
    if (producing && agent.plan) {
      const { plan, problems: planProblems } = checkPlan(message.output.content, this.executionalAgents);
      if (!plan) return { ok: false, problems: planProblems };
      return { ok: true, problems: [], plan };
    }
    return { ok: true, problems: [] };
  }

  private outputValidator(agent: AgentContract): ValidateFunction {
    let validator = this.outputValidators.get(agent.name);
    if (!validator) {
      validator = compileSchema(agent.outputSchema!);
      this.outputValidators.set(agent.name, validator);
    }
    return validator;
  }
}
