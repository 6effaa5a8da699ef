/**
 * Records every successful model call of any provider to a cassette file: AI SDK answers as the
 * model layer saw them (recording-middleware.ts), our own providers' from their response. The
 * prompt stored is the redacted one; the file is rewritten atomically after each call.
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { sha256Hex } from '../sha256-hex.js';
import { writeFileAtomic } from '../store/atomic-file.js';
import {
  emptyCassette,
  fileHashes,
  promptFileHashes,
  promptKey,
  type Cassette,
  type RecordedAnswer,
} from './cassette-format.js';
import { captureSlots, type CaptureSlot } from './capture-slots.js';
import { wrapProvider, type LlmProvider, type LlmRequest, type LlmResponse } from './provider.js';

/** Keeps a cassette in memory and on disk at `file`. */
export class CassetteRecorder {
  private readonly cassette: Cassette;

  constructor(
    readonly file: string,
    now: Date = new Date(),
  ) {
    this.cassette = emptyCassette(now);
    mkdirSync(path.dirname(file), { recursive: true });
  }

  /** Adds one call and rewrites the file. */
  add(request: LlmRequest, provider: string, answer: RecordedAnswer): void {
    const systemSha256 = sha256Hex(request.system);
    this.cassette.systems[systemSha256] = request.system;
    const history = (request.history ?? []).map((turn) => ({ role: turn.role, content: turn.content }));
    this.cassette.calls.push({
      agent: request.agent,
      key: promptKey({ system: request.system, prompt: request.prompt, history }),
      provider,
      model: request.model,
      system_sha256: systemSha256,
      history,
      prompt: request.prompt,
      governance_files: promptFileHashes(request.system),
      answer,
    });
    this.save();
  }

  /** Notes the governance files the recording runs under (hashed), so a replay can name what was added or removed since. */
  recordGovernance(files: Readonly<Record<string, string>>): void {
    this.cassette.governance_tree = fileHashes(files);
    this.save();
  }

  private save(): void {
    writeFileAtomic(this.file, `${JSON.stringify(this.cassette, null, 2)}\n`, false);
  }

  get callCount(): number {
    return this.cassette.calls.length;
  }
}

/** A new cassette file name in `directory` for one recording run. */
export function newCassetteFile(directory: string, now: Date = new Date()): string {
  const stamp = now.toISOString().replace(/[-:]/g, '').replace(/\..*$/, '').replace('T', '-');
  return path.join(directory, `${stamp}-${process.pid}.cassette.json`);
}

function answerFromResponse(response: LlmResponse): RecordedAnswer {
  return {
    text: response.text,
    // Recorded as the model layer records them: the input as JSON text.
    tool_calls: (response.toolCalls ?? []).map((call) => ({
      id: call.id,
      name: call.name,
      input:
        call.inputError !== undefined && typeof call.input === 'string' ? call.input : JSON.stringify(call.input ?? {}),
    })),
    usage: {
      input_tokens: response.usage.inputTokens,
      output_tokens: response.usage.outputTokens,
      cached_input_tokens: response.usage.cachedInputTokens,
    },
    model: response.model,
    finish_reason: response.finishReason ?? null,
  };
}

/** A provider being recorded, with what it wraps and where it records. */
export interface RecordingProvider extends LlmProvider {
  readonly inner: LlmProvider;
  readonly recorder: CassetteRecorder;
}

/** `inner`, with every successful call written to `recorder`. Failed calls are not recorded. */
export function recordingProvider(inner: LlmProvider, recorder: CassetteRecorder): RecordingProvider {
  async function generate(request: LlmRequest): Promise<LlmResponse> {
    const slot: CaptureSlot = { answer: null };
    const response = await captureSlots.run(slot, () => inner.generate(request));
    // The model layer's own answer when the middleware saw one (AI SDK providers), else ours.
    const answer = slot.answer && slot.answer.text === response.text ? slot.answer : answerFromResponse(response);
    recorder.add(request, inner.kind, answer);
    return response;
  }
  return wrapProvider(inner, generate, { inner, recorder });
}
