/**
 * Provider `kind: replay`: answers every call from recorded cassettes, with no model or network.
 * A call with no recording fails loudly, naming the governance files changed since the closest
 * recording and a diff of the prompt against it (replay-miss.ts).
 */
import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { ConfigError } from '../errors.js';
import {
  fileChanges,
  normalizeVolatile,
  promptFileHashes,
  promptKey,
  promptText,
  readCassette,
  type Cassette,
  type RecordedCall,
  type RecordedToolCall,
} from './cassette-format.js';
import { countChangedLines, lineDiff } from './line-diff.js';
import { toolNameTable } from './tool-names.js';
import {
  PROVIDER_INTERFACE_VERSION,
  type LlmProvider,
  type LlmRequest,
  type LlmResponse,
  type LlmToolCall,
} from './provider.js';
import { ReplayMissError, type ReplayMissDetails } from './replay-miss.js';

/** Model calls of one session so far, and its first miss (the cause of any miss after it). */
interface SessionCalls {
  calls: number;
  byAgent: Map<string, number>;
  firstMiss: ReplayMissDetails | null;
}

/** Sessions whose calls are counted at once; the oldest is forgotten beyond it (a long-running daemon). */
const COUNTED_SESSIONS = 1_000;

interface Recording {
  call: RecordedCall;
  system: string;
}

export class ReplayProvider implements LlmProvider {
  readonly kind = 'replay';
  readonly interfaceVersion = PROVIDER_INTERFACE_VERSION;
  private readonly byKey = new Map<string, Recording[]>();
  private readonly byAgent = new Map<string, Recording[]>();
  private readonly positions = new Map<string, number>();
  private readonly misses: ReplayMissDetails[] = [];
  private readonly sessions = new Map<string, SessionCalls>();
  /** True when every recorded answer was made up by the dry-run provider: still no LLM involved. */
  readonly synthetic: boolean;

  constructor(private readonly cassettes: Cassette[]) {
    const calls = cassettes.flatMap((cassette) => cassette.calls);
    this.synthetic = calls.length > 0 && calls.every((call) => call.provider === 'dry-run');
    for (const cassette of cassettes) {
      for (const call of cassette.calls) {
        const recording = { call, system: cassette.systems[call.system_sha256] };
        const mapKey = `${call.agent}\u0000${call.key}`;
        this.byKey.set(mapKey, [...(this.byKey.get(mapKey) ?? []), recording]);
        this.byAgent.set(call.agent, [...(this.byAgent.get(call.agent) ?? []), recording]);
      }
    }
  }

  /** Replays the cassettes of `target`: a `.json` file, or every `*.json` file in a folder (sorted by name). */
  static fromTarget(target: string): ReplayProvider {
    let stats;
    try {
      stats = statSync(target);
    } catch {
      throw new ConfigError(
        `replay: cassette file or folder ${target} does not exist; record one with llm.record, govflow run --record DIR or govflow test --update`,
        target,
      );
    }
    const files = stats.isFile()
      ? [target]
      : readdirSync(target)
          .filter((name) => name.endsWith('.json'))
          .sort()
          .map((name) => path.join(target, name));
    return new ReplayProvider(files.map(readCassette));
  }

  /** Per agent, the governance/context file hashes of its first recording. */
  recordedFileHashes(): Map<string, Record<string, string>> {
    const hashes = new Map<string, Record<string, string>>();
    for (const [agent, recordings] of this.byAgent) hashes.set(agent, recordings[0].call.governance_files);
    return hashes;
  }

  /** Hashes of the governance files the recording ran under; null when a cassette predates them. */
  recordedGovernanceTree(): Record<string, string> | null {
    if (this.cassettes.length === 0 || this.cassettes.some((cassette) => !cassette.governance_tree)) return null;
    return Object.assign({}, ...this.cassettes.map((cassette) => cassette.governance_tree)) as Record<string, string>;
  }

  /** Every miss so far (govflow test reports them). */
  get missed(): readonly ReplayMissDetails[] {
    return this.misses;
  }

  async generate(request: LlmRequest): Promise<LlmResponse> {
    request.signal.throwIfAborted();
    const session = this.countCall(request);
    const key = promptKey(request);
    const mapKey = `${request.agent}\u0000${key}`;
    const recordings = this.byKey.get(mapKey);
    if (!recordings) throw this.miss(request, session);
    const position = this.positions.get(mapKey) ?? 0;
    if (position >= recordings.length) {
      throw this.noteMiss(request, session, {
        reason: 'used-up',
        recordedAnswers: recordings.length,
        systemChanged: false,
      });
    }
    const recording = recordings[position];
    this.positions.set(mapKey, position + 1);
    const answer = recording.call.answer;
    if (request.onChunk && answer.text !== '') request.onChunk(answer.text);
    const toolCalls = replayedToolCalls(answer.tool_calls, request);
    return {
      ...(toolCalls.length > 0 ? { toolCalls } : {}),
      text: answer.text,
      usage: {
        inputTokens: answer.usage.input_tokens,
        outputTokens: answer.usage.output_tokens,
        cachedInputTokens: answer.usage.cached_input_tokens,
      },
      model: answer.model,
      provider: this.kind,
      finishReason: answer.finish_reason ?? undefined,
      attempts: 1,
    };
  }

  /** Counts the call in its session (calls outside a session count together). */
  private countCall(request: LlmRequest): SessionCalls {
    const id = request.sessionId ?? '';
    let session = this.sessions.get(id);
    if (!session) {
      if (this.sessions.size >= COUNTED_SESSIONS) this.sessions.delete(this.sessions.keys().next().value as string);
      session = { calls: 0, byAgent: new Map(), firstMiss: null };
      this.sessions.set(id, session);
    }
    session.calls += 1;
    session.byAgent.set(request.agent, (session.byAgent.get(request.agent) ?? 0) + 1);
    return session;
  }

  private miss(request: LlmRequest, session: SessionCalls): ReplayMissError {
    const candidates = this.byAgent.get(request.agent) ?? [];
    if (candidates.length === 0)
      return this.noteMiss(request, session, { reason: 'no-recording', systemChanged: true });
    const now = normalizeVolatile(promptText(request));
    let closest = candidates[0];
    let closestDistance = Infinity;
    let recordedClosest = '';
    for (const candidate of candidates) {
      const recorded = normalizeVolatile(
        promptText({ system: candidate.system, prompt: candidate.call.prompt, history: candidate.call.history }),
      );
      const distance = countChangedLines(recorded, now);
      if (distance < closestDistance) {
        closest = candidate;
        closestDistance = distance;
        recordedClosest = recorded;
      }
    }
    const [systemThen, systemNow] = [normalizeVolatile(closest.system), normalizeVolatile(request.system)];
    const systemChanged = systemThen !== systemNow;
    return this.noteMiss(request, session, {
      reason: 'prompt-changed',
      governanceFileChanges: fileChanges(closest.call.governance_files, promptFileHashes(request.system)),
      systemChanged,
      diff: lineDiff(recordedClosest, now, ['recorded prompt', 'prompt now']),
      systemDiff: systemChanged
        ? lineDiff(systemThen, systemNow, ['recorded system prompt', 'system prompt now'])
        : null,
    });
  }

  /** Notes a miss of this call (no answers, file changes or diffs unless `found` has them) and the error that says it. */
  private noteMiss(
    request: LlmRequest,
    session: SessionCalls,
    found: Pick<ReplayMissDetails, 'reason' | 'systemChanged'> & Partial<ReplayMissDetails>,
  ): ReplayMissError {
    const details: ReplayMissDetails = {
      agent: request.agent,
      call: session.calls,
      agentCall: session.byAgent.get(request.agent) ?? 1,
      recordedAnswers: 0,
      governanceFileChanges: { added: [], removed: [], changed: [] },
      diff: null,
      systemDiff: null,
      ...found,
      recordedAgents: [...this.byAgent.keys()].sort(),
      // Calls outside a session (no sessionId) are not one run: none follows another.
      after: request.sessionId === undefined ? null : session.firstMiss,
    };
    session.firstMiss ??= details;
    this.misses.push(details);
    return new ReplayMissError(details, request.model);
  }
}

/** The recorded tool calls with govflow's names and parsed inputs. */
function replayedToolCalls(recorded: readonly RecordedToolCall[], request: LlmRequest): LlmToolCall[] {
  if (recorded.length === 0) return [];
  const table = toolNameTable(request.tools ?? [], request.toolTurns);
  return recorded.map((call) => {
    const name = table.fromWire.get(call.name) ?? call.name;
    try {
      return { id: call.id, name, input: JSON.parse(call.input) as unknown };
    } catch (error) {
      return {
        id: call.id,
        name,
        input: call.input,
        inputError: error instanceof Error ? error.message : String(error),
      };
    }
  });
}
