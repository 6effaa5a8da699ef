/**
 * What a replay miss says: which agent and call, why nothing matched, the prompt's diff. Every
 * agent downstream of a miss misses too (its input carries the failure), so a later miss leads
 * with the session's first and leaves out its own diff, which would only repeat it as escaped JSON.
 */
import { ProviderError } from '../errors.js';
import type { FileChanges } from './cassette-format.js';

export interface ReplayMissDetails {
  agent: string;
  /** The session's model call it was (1 = the first, replayed ones counted). */
  call: number;
  /** The agent's own call it was within the session (1 = its first). */
  agentCall: number;
  /** Why no recording matched: none of the agent's, all answers for the prompt used, or the prompt differs. */
  reason: 'no-recording' | 'used-up' | 'prompt-changed';
  /** Answers recorded for the prompt (for `used-up`). */
  recordedAnswers: number;
  /** Files added, removed and edited since the closest recording (none when there is none of the agent's). */
  governanceFileChanges: FileChanges;
  /** False when the system prompt is the closest recording's: only the call's input changed. */
  systemChanged: boolean;
  /** Line diff, recorded → now; null when the agent has no recording at all. */
  diff: string | null;
  /** Line diff of the system prompt alone; null when it is as recorded. */
  systemDiff: string | null;
  recordedAgents: string[];
  /** The first miss of the same session when this one came after it; null for the first. */
  after: ReplayMissDetails | null;
}

/** A call the cassettes do not hold. Not retryable: the same call would miss again. */
export class ReplayMissError extends ProviderError {
  constructor(
    readonly details: ReplayMissDetails,
    model: string,
  ) {
    super(describeMiss(details), { provider: 'replay', model, retryable: false, selfContained: true });
  }
}

const RECORD_AGAIN = 'record again (govflow test --update, or llm.record)';

function ordinal(value: number): string {
  const tens = value % 100;
  const suffix = tens >= 11 && tens <= 13 ? 'th' : (['th', 'st', 'nd', 'rd'][value % 10] ?? 'th');
  return `${value}${suffix}`;
}

function whichCall(details: ReplayMissDetails): string {
  return `model call ${details.call} of the session, its ${ordinal(details.agentCall)}`;
}

function changedFilesText(details: ReplayMissDetails): string {
  const { added, removed, changed } = details.governanceFileChanges;
  const parts: string[] = [];
  if (changed.length > 0) parts.push(`governance files whose text changed since the recording: ${changed.join(', ')}`);
  if (added.length > 0) parts.push(`governance files added to its prompt since the recording: ${added.join(', ')}`);
  if (removed.length > 0)
    parts.push(`governance files gone from its prompt since the recording: ${removed.join(', ')}`);
  if (parts.length > 0) return parts.join('; ');
  return details.systemChanged
    ? 'its system prompt differs from the recording, though no governance file in it does'
    : 'its input differs from the recording (its system prompt does not)';
}

/** The first (or only) miss of a session, whole. */
function describeFirst(details: ReplayMissDetails): string {
  const head = `replay: no recorded answer for agent "${details.agent}" (${whichCall(details)})`;
  if (details.reason === 'no-recording') {
    return (
      `${head}: the cassettes hold no call of it (they ` +
      `hold ${details.recordedAgents.length > 0 ? details.recordedAgents.join(', ') : 'no calls'}); ${RECORD_AGAIN}`
    );
  }
  if (details.reason === 'used-up') {
    return (
      `${head}: it made this call more often than recorded: the cassettes hold ${details.recordedAnswers} answer(s) for its prompt and ` +
      `all were used; ${RECORD_AGAIN}`
    );
  }
  return `${head}: ${changedFilesText(details)}; ${RECORD_AGAIN}. Its prompt against the closest recording:\n${details.diff ?? ''}`;
}

/** A miss that came after the session's first, in one line (and its system prompt's diff if that changed too). */
function describeLater(details: ReplayMissDetails): string {
  const head = `Then agent "${details.agent}" (${whichCall(details)}) had no recorded answer either`;
  if (details.reason === 'no-recording') return `${head}: the cassettes hold no call of it.`;
  if (details.reason === 'used-up') return `${head}: it made this call more often than recorded.`;
  if (!details.systemChanged)
    return `${head}: its input changed, as it carries the failure above (its prompt's diff is left out).`;
  return `${head}: ${changedFilesText(details)}. Its system prompt against the closest recording:\n${details.systemDiff ?? ''}`;
}

/** The miss as a person reads it: the session's first miss first. */
export function describeMiss(details: ReplayMissDetails): string {
  if (details.after === null) return describeFirst(details);
  return `${describeFirst(details.after)}\n\n${describeLater(details)}`;
}
