/**
 * The features a user combines, as the conformance matrix drives them for every provider kind: a
 * root with one entry agent (`desk_agent`: tools, an approval, a delegate) and a delegation target
 * (`helper_agent`), PII redaction, an output guardrail, recording and traces in one config; and
 * what the model answers in each feature, turn by turn. The same turns are served two ways: by
 * `featureResponder` from each request on a loopback server speaking the kind's wire format (the
 * request's feature is the tag in its text, its turn the tool results and repairs it carries), and
 * by `featureScript` as a scripted provider's file, in the order `runFeatures` runs them one at a time.
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { ScriptedReply } from '../llm/loopback-llm-server.js';
import { toolResultsOf } from '../llm/loopback-wire.js';
import type { ScriptedResponse } from '../../src/llm/scripted-provider.js';
import { agentFile, agentMessage, writeFile } from '../pipeline/pipeline-test-helpers.js';
import { makeTempFolder } from '../support/temp-dirs.js';
import { agentOf } from './example-app-responder.js';
import type { IncomingLlmRequest } from './responder-llm-server.js';

export const FEATURES = ['chat', 'approval', 'guardrail', 'pii', 'delegation'] as const;
export type Feature = (typeof FEATURES)[number];

export const EMAIL = 'jane.doe@example.com';
export const GUARDRAIL_MESSAGE = 'Answer in English.';

interface Turn {
  text?: string;
  calls?: Array<{ id: string; name: 'list_files' | 'write_file' | 'delegate'; input: Record<string, unknown> }>;
  answer?: string;
}

interface FeatureSpec {
  /** The request (or chat message); its tag names the feature in every prompt of the session. */
  request: string;
  /** desk_agent's answers, one per model turn. */
  turns: Turn[];
  /** The result's `output`, as the outbox holds it. */
  output: unknown;
  /** What the request of the last turn must carry to the model: the tool's result, or the guardrail's message. */
  lastTurnSees: string;
}

const answer = (text: string) => ({ answer: agentMessage({ content: { answer: text }, contentType: 'answer' }) });

export const SPECS: Record<Feature, FeatureSpec> = {
  chat: {
    request: 'What is in the workspace? (conformance: chat)',
    turns: [
      { text: 'Let me look.', calls: [{ id: 'call_chat_1', name: 'list_files', input: { path: '.' } }] },
      answer('The workspace is empty.'),
    ],
    output: { answer: 'The workspace is empty.' },
    lastTurnSees: '(empty)',
  },
  approval: {
    request: 'Save a note once someone approves it. (conformance: approval)',
    turns: [
      { calls: [{ id: 'call_appr_1', name: 'write_file', input: { path: 'note.md', content: 'Approved note.' } }] },
      answer('Saved note.md after approval.'),
    ],
    output: { answer: 'Saved note.md after approval.' },
    lastTurnSees: 'wrote 14 bytes to note.md',
  },
  guardrail: {
    request: 'Greet the customer. (conformance: guardrail)',
    turns: [answer('您好，欢迎光临。'), answer('Hello, and welcome.')],
    output: { answer: 'Hello, and welcome.' },
    lastTurnSees: GUARDRAIL_MESSAGE,
  },
  pii: {
    request: `Reply to ${EMAIL} about the invoice. (conformance: pii)`,
    turns: [answer('I will write to [EMAIL_1] about the invoice.')],
    output: { answer: `I will write to ${EMAIL} about the invoice.` },
    lastTurnSees: '[EMAIL_1]',
  },
  delegation: {
    request: 'Ask the helper to count the apples. (conformance: delegation)',
    turns: [
      {
        calls: [
          {
            id: 'call_dele_1',
            name: 'delegate',
            input: { agent: 'helper_agent', objective: 'Count the apples', input: 'three apples and two pears' },
          },
        ],
      },
      answer('The helper counted three apples.'),
    ],
    output: { answer: 'The helper counted three apples.' },
    lastTurnSees: 'Three apples.',
  },
};

/** helper_agent's one answer, in the child session the delegation starts. */
export const HELPER_ANSWER = answer('Three apples.');
export const HELPER_OUTPUT = { answer: 'Three apples.' };

/** Tokens every answer reports (each call's usage, over the wire or in the script). */
export const CALL_USAGE = { input_tokens: 12, output_tokens: 5 };

/** Model calls the five features make in all (helper_agent's included). */
export const MODEL_CALLS = FEATURES.reduce((sum, feature) => sum + SPECS[feature].turns.length, 0) + 1;

export function featureOfText(text: string): Feature | undefined {
  return FEATURES.find((feature) => text.includes(`(conformance: ${feature})`));
}

/** Which feature and turn a request to the loopback server is (helper_agent's has turn 0 of its own). */
export function turnOf(request: Pick<IncomingLlmRequest, 'body' | 'system'>): {
  agent: string | undefined;
  feature: Feature | undefined;
  turn: number;
} {
  const text = JSON.stringify(request.body);
  const agent = agentOf(request.system);
  const repairs = text.split(GUARDRAIL_MESSAGE).length - 1;
  return {
    agent,
    feature: agent === 'desk_agent' ? featureOfText(text) : undefined,
    turn: toolResultsOf(request.body).length + repairs,
  };
}

function replyOf(turn: Turn): ScriptedReply {
  const usage = { inputTokens: CALL_USAGE.input_tokens, outputTokens: CALL_USAGE.output_tokens, cachedInputTokens: 0 };
  if (turn.answer !== undefined) return { kind: 'text', text: turn.answer, usage };
  return {
    kind: 'tool_calls',
    usage,
    ...(turn.text ? { text: turn.text } : {}),
    calls: (turn.calls ?? []).map((call) => ({ id: call.id, name: call.name, arguments: JSON.stringify(call.input) })),
  };
}

/** The loopback server's answer to any request of the features. */
export function featureResponder(request: IncomingLlmRequest): ScriptedReply {
  const { agent, feature, turn } = turnOf(request);
  if (agent === 'helper_agent') return replyOf(HELPER_ANSWER);
  if (agent !== 'desk_agent' || feature === undefined)
    throw new Error(`conformance responder: no feature for agent ${agent}`);
  const next = SPECS[feature].turns[turn];
  if (!next) throw new Error(`conformance responder: ${feature} has no turn ${turn}`);
  return replyOf(next);
}

function scriptedOf(turn: Turn): ScriptedResponse {
  if (turn.answer !== undefined) return { text: turn.answer, usage: CALL_USAGE };
  return { ...(turn.text ? { text: turn.text } : {}), tool_calls: turn.calls, usage: CALL_USAGE };
}

/** A scripted provider's file answering the features run one after the other, in FEATURES order. */
export function featureScript(): string {
  const desk = FEATURES.flatMap((feature) => SPECS[feature].turns.map(scriptedOf));
  return JSON.stringify({ responses: { desk_agent: desk, helper_agent: [scriptedOf(HELPER_ANSWER)] } }, null, 2);
}

/**
 * Every feature's config around `provider` (its YAML lines): recording to `cassettes/` unless `record` is false,
 * the guardrail `english-only` unless another rule (a flow mapping) is given.
 */
export function featureConfig(
  provider: string[],
  collectorUrl: string,
  options: { record?: boolean; guardrail?: string } = {},
): string {
  return [
    'timezone: UTC',
    'http: { listen: "127.0.0.1:0" }',
    ...provider,
    ...(options.record === false ? [] : ['llm: { record: cassettes }']),
    'pii: { redact: [email], restore_in_result: true }',
    'guardrails:',
    `  - ${options.guardrail ?? `{ name: english-only, on: output, match: { script: Han }, action: retry, message: "${GUARDRAIL_MESSAGE}" }`}`,
    `telemetry: { otlp_endpoint: "${collectorUrl}" }`,
    '',
  ].join('\n');
}

/** A temp root with desk_agent (entry; tools, approval, delegates) and helper_agent, and `config`. */
export function featureRoot(
  config: string,
  deskLines = ['tools: [list_files, write_file]', 'approval: [write_file]', 'delegates: [helper_agent]'],
): string {
  const root = makeTempFolder('govflow-conformance-');
  writeFile(root, 'govflow.config.yaml', config);
  writeFile(
    root,
    'context/application.md',
    '# Front desk\nAnswers customers, keeps notes, asks a helper to count stock.\n',
  );
  writeFile(
    root,
    'governance/agents/desk_agent.md',
    agentFile([
      'name: desk_agent',
      'type: executional',
      'description: Answers the customer.',
      'entry: true',
      'content_type: answer',
      'next: []',
      ...deskLines,
    ]),
  );
  writeFile(
    root,
    'governance/agents/helper_agent.md',
    agentFile([
      'name: helper_agent',
      'type: executional',
      'description: Counts stock.',
      'content_type: answer',
      'next: []',
    ]),
  );
  mkdirSync(path.join(root, 'workspace'), { recursive: true });
  return root;
}
