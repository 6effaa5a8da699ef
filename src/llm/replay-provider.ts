/**
 * Provider `kind: replay` (SPEC §13): answers every call from recorded cassettes, streamed or
 * not, with no model and no network. Calls are found by agent + normalized prompt hash; several
 * answers under one key are given in the order they were recorded.
 *
 * A call with no recording fails loudly (`on_miss: fail`, the only mode): the error names the
 * agent, the governance files whose text changed since the closest recording of that agent, and
 * a line diff of the prompt against it.
 */
import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { ConfigError, ProviderError } from '../errors.js';
import {
  type RecordedToolCall,
  fileChanges,
  normalizeVolatile,
  promptFileHashes,
  promptKey,
  promptText,
  readCassette,
  type Cassette,
  type FileChanges,
  type RecordedCall,
} from './cassette-format.js';
import { countChangedLines, lineDiff } from './line-diff.js';
import { toolNameTable } from './ai-sdk-tools.js';
import { PROVIDER_INTERFACE_VERSION, type LlmProvider, type LlmRequest, type LlmResponse, type LlmToolCall } from './provider.js';

/** What a miss found out: the closest recording and how the prompt differs from it. */
export interface ReplayMissDetails {
  agent: string;
  /** Files whose text differs from the closest recording (empty when none of the agent's). */
  changedGovernanceFiles: string[];
  /** The same files as added, removed and edited ones. */
  governanceFileChanges: FileChanges;
  /** False when the system prompt is the closest recording's: only the call's input changed. */
  systemChanged: boolean;
  /** Line diff, recorded → now; null when the agent has no recording at all. */
  diff: string | null;
  recordedAgents: string[];
}

/** A call the cassettes do not hold. Not retryable: the same call would miss again. */
export class ReplayMissError extends ProviderError {
  constructor(message: string, readonly details: ReplayMissDetails, model: string) {
    super(message, { provider: 'replay', model, retryable: false });
  }
}

interface Recording {
  call: RecordedCall;
  system: string;
}

/** Loads cassettes: a `.json` file, or every `*.json` file in a folder (sorted by name). */
export function loadCassettes(target: string): Cassette[] {
  let stats;
  try {
    stats = statSync(target);
  } catch {
    throw new ConfigError(`replay: cassette file or folder ${target} does not exist; record one with llm.record, govflow run --record DIR or govflow test --update`, target);
  }
  if (stats.isFile()) return [readCassette(target)];
  const files = readdirSync(target).filter((name) => name.endsWith('.json')).sort();
  return files.map((name) => readCassette(path.join(target, name)));
}

export class ReplayProvider implements LlmProvider {
  readonly kind = 'replay';
  readonly interfaceVersion = PROVIDER_INTERFACE_VERSION;
  private readonly byKey = new Map<string, Recording[]>();
  private readonly byAgent = new Map<string, Recording[]>();
  private readonly positions = new Map<string, number>();
  private readonly misses: ReplayMissDetails[] = [];
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

  static fromTarget(target: string): ReplayProvider {
    return new ReplayProvider(loadCassettes(target));
  }

  /** Per agent, the governance/context file hashes of its first recording. */
  recordedFileHashes(): Map<string, Record<string, string>> {
    const hashes = new Map<string, Record<string, string>>();
    for (const [agent, recordings] of this.byAgent) hashes.set(agent, recordings[0].call.governance_files);
    return hashes;
  }

  /**
   * The governance files the recording ran under (their hashes, by path); null when a cassette
   * does not list them (recorded before they were kept).
   */
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
    const key = promptKey(request);
    const mapKey = `${request.agent}\u0000${key}`;
    const recordings = this.byKey.get(mapKey);
    if (!recordings) throw this.miss(request);
    const position = this.positions.get(mapKey) ?? 0;
    if (position >= recordings.length) {
      const details: ReplayMissDetails = {
        agent: request.agent,
        changedGovernanceFiles: [],
        governanceFileChanges: { added: [], removed: [], changed: [] },
        systemChanged: false,
        diff: null,
        recordedAgents: [...this.byAgent.keys()].sort(),
      };
      this.misses.push(details);
      throw new ReplayMissError(
        `replay: agent "${request.agent}" made this call more often than recorded: the cassettes hold ${recordings.length} answer(s) for its prompt and all were used; record again (govflow test --update, or llm.record)`,
        details,
        request.model,
      );
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

  private miss(request: LlmRequest): ReplayMissError {
    const candidates = this.byAgent.get(request.agent) ?? [];
    const now = normalizeVolatile(promptText(request));
    let closest: Recording | null = null;
    let closestDistance = Infinity;
    let recordedClosest: string | undefined;
    for (const candidate of candidates) {
      const recorded = normalizeVolatile(promptText({ system: candidate.system, prompt: candidate.call.prompt, history: candidate.call.history }));
      const distance = countChangedLines(recorded, now);
      if (distance < closestDistance) {
        closest = candidate;
        closestDistance = distance;
        recordedClosest = recorded;
      }
    }
    const governanceFileChanges = closest ? fileChanges(closest.call.governance_files, promptFileHashes(request.system)) : { added: [], removed: [], changed: [] };
    const details: ReplayMissDetails = {
      agent: request.agent,
      changedGovernanceFiles: [...governanceFileChanges.added, ...governanceFileChanges.removed, ...governanceFileChanges.changed].sort(),
      governanceFileChanges,
      // An agent never recorded has no system prompt to compare: all of it is new.
      systemChanged: closest === null || normalizeVolatile(closest.system) !== normalizeVolatile(request.system),
      diff: closest && recordedClosest !== undefined ? lineDiff(recordedClosest, now, { labels: ['recorded prompt', 'prompt now'] }) : null,
      recordedAgents: [...this.byAgent.keys()].sort(),
    };
    this.misses.push(details);
    return new ReplayMissError(describeMiss(details), details, request.model);
  }
}

/** The miss as a person reads it. */
export function describeMiss(details: ReplayMissDetails): string {
  if (details.diff === null) {
    return `replay: no recording for agent "${details.agent}" (the cassettes hold ${details.recordedAgents.length > 0 ? details.recordedAgents.join(', ') : 'no calls'}); record again (govflow test --update, or llm.record)`;
  }
  const files = details.changedGovernanceFiles.length > 0 ? `; governance files whose text changed since the recording: ${details.changedGovernanceFiles.join(', ')}` : '';
  return `replay: no recorded answer for this prompt of agent "${details.agent}"${files}; record again (govflow test --update, or llm.record). Its prompt against the closest recording:\n${details.diff}`;
}

/**
 * The recorded tool calls as the tool loop takes them: names recorded on the wire (AI SDK
 * middleware) mapped back to govflow's, inputs parsed from their JSON text.
 */
function replayedToolCalls(recorded: readonly RecordedToolCall[], request: LlmRequest): LlmToolCall[] {
  if (recorded.length === 0) return [];
  const table = toolNameTable(request.tools ?? [], request.toolTurns);
  return recorded.map((call) => {
    const name = table.fromWire.get(call.name) ?? call.name;
    try {
      return { id: call.id, name, input: JSON.parse(call.input) as unknown };
    } catch (error) {
      return { id: call.id, name, input: call.input, inputError: error instanceof Error ? error.message : String(error) };
    }
  });
}
