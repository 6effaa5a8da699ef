/**
 * What one step sends the model before any repair (docs/agents.md): the agent's system prompt
 * (kept in the store by its hash), the user prompt — the step's input after the input guardrails,
 * a chat turn's conversation and context for its entry agent, the attachments' list, a steward's
 * advice — and the attachments a native agent gets as files.
 */
import type { AgentDefinition } from '../governance/agent-definition.js';
import type { GovernanceSnapshot } from '../governance/governance-loader.js';
import type { LlmFile } from '../llm/provider.js';
import type { OrchestratorFailure } from '../message/orchestrator-messages.js';
import { chatPromptBlock } from './chat-turn.js';
import type { ActiveSession } from './message-commit.js';
import { buildSystemPrompt, buildUserPrompt, stewardAdviceBlock, type BuiltPrompt } from './prompt-builder.js';
import type { RunnerDependencies } from './runner-contract.js';
import { attachmentModeOf, attachmentsPromptBlock, nativeFiles } from './session-attachments.js';
import type { PendingStep } from './session-steps.js';
import { guardStepInput } from './step-guardrails.js';

/** The step's prompts, or the input guardrail's failure (no model call then). */
export async function stepPrompts(
  deps: Pick<RunnerDependencies, 'config' | 'store'>,
  active: ActiveSession,
  step: PendingStep,
  snapshot: GovernanceSnapshot,
  agent: AgentDefinition,
): Promise<{ failure: OrchestratorFailure } | { prompt: BuiltPrompt; userPrompt: string; files: LlmFile[] }> {
  const { session } = active.state;
  const prompt = buildSystemPrompt(snapshot, agent);
  deps.store.keepPrompt(prompt.systemSha256, prompt.system);
  const guardedInput = guardStepInput(active, step, snapshot);
  if (guardedInput.failure) return { failure: guardedInput.failure };
  // Every agent's prompt lists the attachments; inline and native agents get more (docs/attachments.md).
  const attachmentMode = attachmentModeOf(agent, session);
  // A chat turn's entry agent also gets the conversation so far and the client's context (docs/http-api.md "Chat").
  const chat =
    session.chat && step.agent === session.entry_agent && guardedInput.input.source === 'user'
      ? chatPromptBlock(session.chat, snapshot.files)
      : '';
  const userPrompt =
    buildUserPrompt(guardedInput.input) +
    chat +
    attachmentsPromptBlock(session.attachments, attachmentMode) +
    stewardAdviceBlock(step.advice);
  const files = await nativeFiles(deps.config, session.session_id, session.attachments, attachmentMode);
  return { prompt, userPrompt, files };
}
