/**
 * Correct answers for every agent of the repository's example app (objective → goal → planning
 * with two tasks → summarizer + action items → final output), as Sentient messages. The agent is
 * read from the system prompt's protocol line `You are "<agent>"`.
 */
import type { ScriptedReply, ScriptedUsage } from '../llm/loopback-llm-server.js';

export const EXAMPLE_AGENTS = [
  'objective_agent',
  'goal_agent',
  'planning_agent',
  'summarizer_agent',
  'action_item_agent',
  'final_output_agent',
] as const;

export type ExampleAgent = (typeof EXAMPLE_AGENTS)[number];

export const SOURCE_TEXT =
  'Weekly sync. Decision: ship v2 on 1 March. Alice will send the release notes by Friday. ' +
  'Bob will book the venue.';

export const REQUEST_TEXT = `Summarize this meeting note and list its action items with owners:\n${SOURCE_TEXT}\n`;

/** The agent a request is for, from its system prompt; undefined when there is none. */
export function agentOf(system: string): string | undefined {
  return /You are "([a-z][a-z0-9_]*)"/.exec(system)?.[1];
}

function message(
  contentType: string,
  content: unknown,
  next: string | null,
  statusMessage: string,
): Record<string, unknown> {
  return {
    message_id: null,
    timestamp: null,
    agent: null,
    input: null,
    output: { content, content_type: contentType },
    next_agent: { name: next, reason: next ? `${next} continues the chain` : null },
    status: { code: 'success', message: statusMessage },
    error: { has_error: false, error_code: null, error_message: null, retry_count: null, recoverable: false },
    metadata: null,
    audit: {
      compliance_notes: 'Within the desk scope per context/application.md',
      governance_files_consulted: ['context/application.md'],
    },
  };
}

const OBJECTIVES = [
  'Produce a faithful summary of the meeting note',
  'List every action item with its owner and due date',
];

/** The message `agent` answers with. */
export function answerFor(agent: string): Record<string, unknown> {
  switch (agent) {
    case 'objective_agent':
      return message('objectives', OBJECTIVES, 'goal_agent', 'Stated 2 objectives');
    case 'goal_agent':
      return message(
        'goals',
        {
          source_text: SOURCE_TEXT,
          objectives: [
            { objective: OBJECTIVES[0], goals: ['Keep the decision and its date exact'] },
            { objective: OBJECTIVES[1], goals: ['Every action item has an owner or UNASSIGNED'] },
          ],
        },
        'planning_agent',
        'Wrote goals for 2 objectives',
      );
    case 'planning_agent':
      return message(
        'plan',
        {
          tasks: [
            { id: 't1', agent: 'summarizer_agent', instruction: `Summarise: ${SOURCE_TEXT}`, depends_on: [] },
            {
              id: 't2',
              agent: 'action_item_agent',
              instruction: `Extract action items: ${SOURCE_TEXT}`,
              depends_on: [],
            },
          ],
        },
        'final_output_agent',
        'Planned 2 independent tasks',
      );
    case 'summarizer_agent':
      return message(
        'summary',
        { summary: 'The team decided to ship v2 on 1 March.', decisions: ['Ship v2 on 1 March'] },
        null,
        'Summarised the note',
      );
    case 'action_item_agent':
      return message(
        'action_items',
        {
          action_items: [
            { task: 'Send the release notes', owner: 'Alice', due: 'Friday' },
            { task: 'Book the venue', owner: 'Bob', due: null },
          ],
        },
        null,
        'Found 2 action items',
      );
    case 'final_output_agent':
      return message(
        'final_report',
        {
          answer:
            'The team decided to ship v2 on 1 March.\n\n- Send the release notes — Alice (Friday)\n- Book the venue — Bob (no date)',
        },
        null,
        'Assembled the final report',
      );
    default:
      throw new Error(`example-app responder: no answer for agent "${agent}"`);
  }
}

/** Distinct usage per agent, so a wrong sum (a call counted twice or missed) shows. */
export function usageFor(agent: string): ScriptedUsage {
  const index = Math.max(0, (EXAMPLE_AGENTS as readonly string[]).indexOf(agent));
  return { inputTokens: 1000 + 101 * index, outputTokens: 50 + 7 * index, cachedInputTokens: 0 };
}

/** The scripted text reply for a request whose system prompt is `system`. */
export function exampleAppReply(system: string): ScriptedReply {
  const agent = agentOf(system);
  if (!agent) throw new Error('example-app responder: no `You are "<agent>"` line in the system prompt');
  return { kind: 'text', text: JSON.stringify(answerFor(agent)), usage: usageFor(agent) };
}
