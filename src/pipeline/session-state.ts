/**
 * A session's state as a pure fold over its journal records, shared by the live runner and crash
 * recovery. Routing is read from the records, never the current governance: a hot reload cannot change the past.
 */
import { argumentsSha256 } from '../message/canonical-json.js';
import type {
  ControlRecord,
  JournalRecord,
  MessageRecord,
  SessionRecord,
  UsageFigures,
} from '../store/session-journal.js';
import type {
  ApprovalRecord,
  ApprovalRequestRecord,
  JournaledToolCall,
  ToolResultRecord,
} from '../store/tool-journal-records.js';
import { GovflowError } from '../errors.js';
import { chainStep, skippedTasks, type PendingStep, type PlanState } from './session-steps.js';
import { applyHalt, applyStewardDecision } from './steward-state.js';
import { INTERVENE } from '../governance/agent-definition.js';

/** One model turn of a tool loop, with the results journaled so far. */
export interface ToolLoopTurn {
  attempt: number;
  text: string;
  calls: JournaledToolCall[];
  results: Map<string, ToolResultRecord>;
  /** Calls with effects outside the workspace whose start is journaled (with or without a result). */
  started: Set<string>;
}

/** The tool loop of a step whose message is not committed yet (rebuilt on recovery). */
export interface ToolLoopState {
  agent: string;
  turns: ToolLoopTurn[];
}

export interface SessionState {
  session: SessionRecord;
  messages: MessageRecord[];
  cursor: PendingStep | null;
  plan: PlanState | null;
  paused: {
    agent: string;
    messageId: string;
    question: string;
    input: unknown;
    /**
     * Set when a tool call waits for a person's approval, or a failed message for a steward's
     * decision (`intervention`, docs/run-control.md), rather than the agent for a reply.
     */
    awaiting?: 'approval' | 'intervention' | 'halt';
    /** A halt: what was about to be crossed. */
    halt?: 'cost' | 'time';
    callId?: string;
    tool?: string;
    /** SHA-256 of the waiting call's arguments (canonical JSON). */
    argsSha256?: string;
  } | null;
  /** Pauses since the last message: numbers a `pending` event the same live and replayed. */
  pausesSinceMessage: number;
  /** Tool loops of steps not yet committed, by step key (`"3"`, `"task:t1"`). */
  toolLoops: Map<string, ToolLoopState>;
  /** Approval decisions by tool call id, each for that one call. */
  approvals: Map<string, ApprovalRecord>;
  /** Calls whose approval a start used up: a call interrupted after it asks again (SPEC §15). */
  usedApprovals: Set<string>;
  /** Set when the chain has ended: the message whose status is the session's. */
  final: MessageRecord | null;
  loopKeys: Set<string>;
  usage: UsageFigures;
  /** Time spent waiting for models, summed over every exchange (seed 001's cumulative time). */
  modelTimeMs: number;
  /** Model time per step key (`"3"`, `"task:t1"`), for the report. */
  stepDurations: Map<string, number>;
  /** Model calls per agent (`LlmRequest.journaledCalls`). */
  agentModelCalls: Map<string, number>;
  /** Claimed reply files applied to this session (archived when a run ends). */
  replyFiles: Array<{ claimedPath: string; sourceFile: string }>;
  /** When the `finished` record was written, if it was. */
  finishedAt: string | null;
  /** Start of the current run (creation, or the reply that resumed it): the deadline's base. */
  runStartedAt: string;
  /** Highest sequence number used, by a message or by a voided audit entry. */
  lastSequence: number;
  /** Audit entries voided since the last message (named in the next message's audit notes). */
  voided: Array<{ messageId: string; sequence: number }>;
  /** Unexpected internal errors since the last message (limits.max_crash_retries), and the last one's text. */
  crashes: number;
  lastCrash: string | null;
  /** The cancel that ended the session (docs/run-control.md); a cancel withdraws a pause. */
  cancelled: ControlRecord | null;
  /** The fork, retry or re-run that made this session, and how many of the original's records it has reused so far. */
  lineage: ControlRecord | null;
  reusedSoFar: number;
  /** Steward decisions applied (docs/run-control.md), by their operator entry's id. */
  decisions: Map<string, ControlRecord>;
  /** A steward's `continue`: the session's new totals, over its configured and request limits. */
  raised: { cost_usd?: number; time_minutes?: number };
  /** A steward's `fail` of a halted session: its next step commits the failure the halt held back. */
  haltFailed: 'cost' | 'time' | null;
}

export function emptyUsage(): UsageFigures {
  return { input_tokens: 0, output_tokens: 0, cached_input_tokens: 0, cost_usd: 0 };
}

export function initialState(session: SessionRecord): SessionState {
  return {
    session,
    messages: [],
    cursor: chainStep(session.entry_agent, 'user', session.request.text, null),
    plan: null,
    paused: null,
    pausesSinceMessage: 0,
    toolLoops: new Map(),
    approvals: new Map(),
    usedApprovals: new Set(),
    final: null,
    loopKeys: new Set(),
    usage: emptyUsage(),
    modelTimeMs: 0,
    stepDurations: new Map(),
    agentModelCalls: new Map(),
    replyFiles: [],
    finishedAt: null,
    runStartedAt: session.created_at,
    lastSequence: 0,
    voided: [],
    crashes: 0,
    lastCrash: null,
    cancelled: null,
    lineage: null,
    reusedSoFar: 0,
    decisions: new Map(),
    raised: {},
    haltFailed: null,
  };
}

/** True once the session has ended: its chain, a cancel, or the `finished` record. */
export function hasEnded(state: SessionState): boolean {
  return state.final !== null || state.cancelled !== null || state.finishedAt !== null;
}

/** Folds one record into the state (mutating it: states are owned by one session). */
export function applyRecord(state: SessionState, record: JournalRecord): void {
  switch (record.type) {
    case 'session':
      return;
    case 'exchange':
      state.usage.input_tokens += record.usage.input_tokens;
      state.usage.output_tokens += record.usage.output_tokens;
      state.usage.cached_input_tokens += record.usage.cached_input_tokens;
      state.usage.cost_usd += record.usage.cost_usd;
      state.modelTimeMs += record.duration_ms;
      state.stepDurations.set(record.step, (state.stepDurations.get(record.step) ?? 0) + record.duration_ms);
      state.agentModelCalls.set(record.agent, (state.agentModelCalls.get(record.agent) ?? 0) + 1);
      return;
    case 'reply':
      if (record.reused) state.reusedSoFar += 1;
      if (record.claimed_path)
        state.replyFiles.push({ claimedPath: record.claimed_path, sourceFile: record.source_file });
      if (state.paused) {
        const { agent, question, input, messageId } = state.paused;
        state.cursor = chainStep(agent, 'user', { reply: record.reply, question, previous_input: input }, messageId);
        state.paused = null;
        state.runStartedAt = record.at;
      }
      return;
    case 'finished':
      state.finishedAt = record.at;
      return;
    case 'void':
      state.voided.push({ messageId: record.message_id, sequence: record.sequence });
      state.lastSequence = Math.max(state.lastSequence, record.sequence);
      return;
    case 'crash':
      state.crashes += 1;
      state.lastCrash = record.error;
      return;
    case 'message':
      if (record.reused) state.reusedSoFar += 1;
      applyMessage(state, record);
      return;
    case 'control':
      applyControl(state, record);
      return;
    case 'tool_turn': {
      const loop = state.toolLoops.get(record.step) ?? { agent: record.agent, turns: [] };
      loop.turns.push({
        attempt: record.attempt,
        text: record.text,
        calls: record.calls,
        results: new Map(),
        started: new Set(),
      });
      state.toolLoops.set(record.step, loop);
      return;
    }
    case 'tool_start': {
      const turn = state.toolLoops
        .get(record.step)
        ?.turns.findLast((candidate) => candidate.calls.some((call) => call.id === record.id));
      turn?.started.add(record.id);
      if (state.approvals.has(record.id)) state.usedApprovals.add(record.id);
      return;
    }
    case 'tool_result': {
      const turn = state.toolLoops
        .get(record.step)
        ?.turns.findLast((candidate) => candidate.calls.some((call) => call.id === record.id));
      turn?.results.set(record.id, record);
      return;
    }
    case 'approval_request':
      applyApprovalRequest(state, record);
      return;
    case 'approval':
      state.approvals.set(record.call_id, record);
      state.usedApprovals.delete(record.call_id);
      if (record.claimed_path)
        state.replyFiles.push({ claimedPath: record.claimed_path, sourceFile: record.source_file });
      if (state.paused?.awaiting === 'approval' && state.paused.callId === record.call_id) {
        state.paused = null;
        state.runStartedAt = record.at;
      }
      return;
  }
}

function applyControl(state: SessionState, record: ControlRecord): void {
  if (record.action === 'intervene') {
    applyStewardDecision(state, record);
    return;
  }
  if (record.action === 'halt') {
    applyHalt(state, record);
    return;
  }
  if (record.action !== 'cancel') {
    state.lineage = record;
    return;
  }
  if (state.cancelled) return;
  state.cancelled = record;
  // A waiting question or approval is withdrawn: a later answer is refused (runner: replyToSession).
  state.paused = null;
  state.cursor = null;
  if (record.claimed_path) state.replyFiles.push({ claimedPath: record.claimed_path, sourceFile: record.source_file });
}

function applyApprovalRequest(state: SessionState, record: ApprovalRequestRecord): void {
  if (state.approvals.has(record.call_id) && !state.usedApprovals.has(record.call_id)) return;
  // A request journaled again for the call already waited on (a crash re-asked it) is the same pause.
  if (state.paused?.callId !== record.call_id) state.pausesSinceMessage += 1;
  state.paused = {
    agent: record.agent,
    messageId: '',
    question: record.question,
    input: record.input,
    awaiting: 'approval',
    callId: record.call_id,
    tool: record.tool,
    argsSha256: record.args_sha256 ?? argumentsSha256(record.input),
  };
}

function applyMessage(state: SessionState, record: MessageRecord): void {
  const message = record.message;
  state.messages.push(record);
  state.toolLoops.delete(record.task_id ? `task:${record.task_id}` : String(message.metadata.sequence_number));
  state.lastSequence = Math.max(state.lastSequence, message.metadata.sequence_number);
  state.voided = [];
  // A pause still waiting (a plan task's approval while another task commits) is the first after it.
  state.pausesSinceMessage = state.paused ? 1 : 0;
  // A step that commits its message has got past whatever crashed before it.
  state.crashes = 0;
  state.loopKeys.add(record.loop_key);
  if (record.kind === 'task' && state.plan && record.task_id) {
    state.plan.results.set(record.task_id, message);
    settlePlanIfDone(state);
    return;
  }
  state.cursor = null;
  const status = message.status.code;
  if (record.final) {
    state.final = record;
    state.plan = null;
    return;
  }
  if (status === 'pending') {
    state.pausesSinceMessage = 1;
    state.paused = {
      agent: message.agent.name,
      messageId: message.message_id,
      question: message.status.message,
      input: message.input.content,
    };
    return;
  }
  // A route decided (SPEC §24) comes before on_failure: a failed message goes where it names, or ends.
  const routed = record.route !== undefined && record.route.index !== null;
  if (status === 'failed' && !routed) {
    routeFailure(state, record);
    return;
  }
  if (record.plan) {
    state.plan = {
      messageId: message.message_id,
      agent: message.agent.name,
      next: message.next_agent.name,
      tasks: record.plan.tasks,
      results: new Map(),
    };
    return;
  }
  if (message.next_agent.name)
    state.cursor = chainStep(message.next_agent.name, message.agent.name, message, message.message_id);
  else state.final = record;
}

/**
 * Where a failed chain message goes (after any route an agent declares ahead of it): the agent its
 * `on_failure` names, a pause for a steward (`on_failure: intervene`, docs/run-control.md), or the end.
 */
function routeFailure(state: SessionState, record: MessageRecord): void {
  const message = record.message;
  if (record.on_failure === INTERVENE) {
    state.pausesSinceMessage = 1;
    state.paused = {
      agent: message.agent.name,
      messageId: message.message_id,
      question: message.status.message,
      input: message.input.content,
      awaiting: 'intervention',
    };
  } else if (record.on_failure) {
    state.cursor = chainStep(record.on_failure, message.agent.name, message, message.message_id);
  } else {
    state.final = record;
  }
}

function settlePlanIfDone(state: SessionState): void {
  const plan = state.plan!;
  const skipped = skippedTasks(plan);
  if (!plan.tasks.every((task) => plan.results.has(task.id) || skipped.has(task.id))) return;
  const results = plan.tasks.map((task) => {
    const result = plan.results.get(task.id);
    if (!result)
      return {
        task_id: task.id,
        agent: task.agent,
        status: 'skipped',
        message: 'not run: a task it depends on did not succeed',
        output: null,
      };
    return {
      task_id: task.id,
      agent: task.agent,
      status: result.status.code,
      message: result.status.message,
      content_type: result.output.content_type,
      output: result.output.content,
      message_id: result.message_id,
    };
  });
  state.plan = null;
  const planRecord = state.messages.find((record) => record.message.message_id === plan.messageId)!;
  if (!plan.next) {
    state.final = planRecord;
    return;
  }
  state.cursor = chainStep(
    plan.next,
    plan.agent,
    { request: state.session.request.text, plan: planRecord.message.output.content, results },
    plan.messageId,
  );
}

/** Rebuilds a session's state from its records. */
export function foldRecords(records: JournalRecord[]): SessionState {
  const session = records[0];
  if (!session || session.type !== 'session')
    throw new GovflowError('audit', 'journal does not start with a session record');
  const state = initialState(session);
  for (const record of records.slice(1)) applyRecord(state, record);
  return state;
}

/** Names one pause: the tool call awaiting approval, or the message whose question is pending. */
export function pauseKeyOf(paused: NonNullable<SessionState['paused']>): string {
  if (paused.awaiting === 'approval') return `approval:${paused.callId ?? ''}`;
  if (paused.awaiting === 'halt') return `halt:${paused.messageId}`;
  return paused.awaiting === 'intervention' ? `intervention:${paused.messageId}` : `reply:${paused.messageId}`;
}
