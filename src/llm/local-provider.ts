/**
 * Provider `kind: local`: a GGUF model run in-process by node-llama-cpp 3, each answer constrained
 * by a JSON-schema grammar (grammar-schema.ts). node-llama-cpp is large, so not a dependency: it is
 * resolved at start and imported on the first call. Model files are checked first, because
 * llama.cpp aborts the process on some malformed files.
 */
import { existsSync, readFileSync, realpathSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { ConfigError, ProviderError } from '../errors.js';
import { readGgufHeader } from './gguf-header.js';
import { messageGrammarSchema } from './grammar-schema.js';
import { PROVIDER_INTERFACE_VERSION, type LlmProvider, type LlmRequest, type LlmResponse } from './provider.js';

export const INSTALL_HINT =
  'provider.kind "local" needs node-llama-cpp, which is not installed: run `npm i node-llama-cpp@3`';

export interface LocalProviderSettings {
  root: string;
  /** Default model file (provider.model); an agent's `model:` overrides it per call. */
  model: string;
  /** CPU threads; default: the machine's physical cores. */
  threads?: number | null;
  contextSize?: number;
  /** false: CPU only (default); 'auto' or a backend name lets node-llama-cpp use a GPU. */
  gpu?: false | 'auto' | 'cuda' | 'vulkan' | 'metal';
  allowOutsideRoot?: boolean;
  /** Folder whose node_modules holds node-llama-cpp (GOVFLOW_NODE_LLAMA_CPP_DIR), else normal resolution. */
  moduleDir?: string | null;
}

/** The parts of node-llama-cpp this provider uses. */
interface NodeLlamaCpp {
  getLlama(options: { gpu: unknown; skipDownload?: boolean; logLevel?: string }): Promise<Llama>;
  LlamaChatSession: new (options: { contextSequence: unknown; autoDisposeSequence?: boolean }) => ChatSession;
}
interface Llama {
  loadModel(options: { modelPath: string; gpuLayers?: number | 'auto' }): Promise<Model>;
  createGrammarForJsonSchema(schema: unknown): Promise<unknown>;
}
interface Model {
  createContext(options: { contextSize?: number; threads?: number; sequences?: number }): Promise<Context>;
  tokenize(text: string): unknown[];
}
interface Context {
  getSequence(): Sequence;
}
interface Sequence {
  clearHistory(): Promise<void>;
}
interface ChatSession {
  setChatHistory(
    history: Array<{ type: 'system' | 'user'; text: string } | { type: 'model'; response: string[] }>,
  ): void;
  prompt(
    text: string,
    options: {
      grammar?: unknown;
      maxTokens?: number;
      temperature?: number;
      onTextChunk?: (text: string) => void;
      onToken?: (tokens: unknown[]) => void;
      signal?: AbortSignal;
    },
  ): Promise<string>;
  dispose(options?: { disposeSequence?: boolean }): void;
}

interface LoadedModel {
  model: Model;
  sequence: Sequence;
}

/** Physical cores from /proc/cpuinfo (Linux), else the logical CPUs. More threads than cores is very slow. */
export function physicalCores(): number {
  try {
    const pairs = new Set<string>();
    let physical = '0';
    for (const line of readFileSync('/proc/cpuinfo', 'utf8').split('\n')) {
      const [key, value] = line.split(':').map((part) => part?.trim());
      if (key === 'physical id') physical = value;
      if (key === 'core id') pairs.add(`${physical}:${value}`);
    }
    if (pairs.size > 0) return pairs.size;
  } catch {
    // Not Linux: fall through.
  }
  return Math.max(1, os.availableParallelism());
}

/** Where node-llama-cpp's entry module is; throws ConfigError with the install hint when absent. */
export function resolveNodeLlamaCpp(moduleDir: string | null | undefined): string {
  if (moduleDir) {
    const entry = path.join(moduleDir, 'node_modules', 'node-llama-cpp', 'dist', 'index.js');
    if (!existsSync(entry))
      throw new ConfigError(
        `${INSTALL_HINT} (GOVFLOW_NODE_LLAMA_CPP_DIR=${moduleDir} holds no node_modules/node-llama-cpp)`,
      );
    return pathToFileURL(entry).href;
  }
  try {
    return import.meta.resolve('node-llama-cpp');
  } catch {
    throw new ConfigError(INSTALL_HINT);
  }
}

/** The real path of a model file, checked to lie inside the root (README "Files outside the root, and prices") and to be a sound GGUF. */
export function checkModelFile(root: string, model: string, allowOutsideRoot: boolean): string {
  const resolved = path.resolve(root, model);
  let real: string;
  try {
    real = realpathSync(resolved);
  } catch {
    throw new ConfigError(
      `model file ${resolved} does not exist; provider.model (or the agent's model:) must name a .gguf file in the root`,
      model,
    );
  }
  const realRoot = realpathSync(root);
  if (!allowOutsideRoot && real !== realRoot && !real.startsWith(realRoot + path.sep)) {
    throw new ConfigError(
      `model file ${real} is outside the root ${realRoot}; move it inside the root or set allow_outside_root: true`,
      model,
    );
  }
  readGgufHeader(real);
  return real;
}

export class LocalProvider implements LlmProvider {
  readonly kind = 'local';
  readonly interfaceVersion = PROVIDER_INTERFACE_VERSION;
  private llama: Promise<{ module: NodeLlamaCpp; llama: Llama }> | null = null;
  private readonly models = new Map<string, Promise<LoadedModel>>();
  private readonly grammars = new Map<string, Promise<unknown>>();
  /** llama.cpp runs one sequence per context: calls wait their turn. */
  private queue: Promise<unknown> = Promise.resolve();
  private readonly moduleUrl: string;
  private readonly threads: number;

  constructor(private readonly settings: LocalProviderSettings) {
    this.moduleUrl = resolveNodeLlamaCpp(settings.moduleDir);
    checkModelFile(settings.root, settings.model, settings.allowOutsideRoot === true);
    this.threads = settings.threads ?? physicalCores();
  }

  private runtime(): Promise<{ module: NodeLlamaCpp; llama: Llama }> {
    this.llama ??= (async () => {
      const module = (await import(this.moduleUrl)) as NodeLlamaCpp;
      const llama = await module.getLlama({ gpu: this.settings.gpu ?? false, skipDownload: true, logLevel: 'error' });
      return { module, llama };
    })();
    return this.llama;
  }

  private loadModel(file: string): Promise<LoadedModel> {
    let loaded = this.models.get(file);
    if (!loaded) {
      loaded = (async () => {
        const { llama } = await this.runtime();
        const model = await llama.loadModel({ modelPath: file, gpuLayers: this.settings.gpu ? 'auto' : 0 });
        const context = await model.createContext({
          contextSize: this.settings.contextSize,
          threads: this.threads,
          sequences: 1,
        });
        return { model, sequence: context.getSequence() };
      })();
      loaded.catch(() => this.models.delete(file));
      this.models.set(file, loaded);
    }
    return loaded;
  }

  private grammarFor(request: LlmRequest, llama: Llama): Promise<unknown> | null {
    if (!request.jsonSchema) return null;
    const schema = messageGrammarSchema(
      request.jsonSchema,
      request.expectation ?? { contentType: '', next: [], outputSchema: null },
    );
    const key = JSON.stringify(schema);
    let grammar = this.grammars.get(key);
    if (!grammar) {
      grammar = llama.createGrammarForJsonSchema(schema);
      grammar.catch(() => this.grammars.delete(key));
      if (this.grammars.size < 256) this.grammars.set(key, grammar);
    }
    return grammar;
  }

  generate(request: LlmRequest): Promise<LlmResponse> {
    const run = this.queue.then(() => this.generateNow(request));
    this.queue = run.catch(() => undefined);
    return run;
  }

  private async generateNow(request: LlmRequest): Promise<LlmResponse> {
    request.signal.throwIfAborted();
    const modelName = request.model && request.model.trim() !== '' ? request.model : this.settings.model;
    let file: string;
    try {
      file = checkModelFile(this.settings.root, modelName, this.settings.allowOutsideRoot === true);
    } catch (error) {
      throw new ProviderError(error instanceof ConfigError ? error.describe() : String(error), {
        provider: this.kind,
        model: modelName,
        retryable: false,
        cause: error,
      });
    }
    try {
      const { module, llama } = await this.runtime();
      const { model, sequence } = await this.loadModel(file);
      const grammar = await this.grammarFor(request, llama);
      await sequence.clearHistory();
      const session = new module.LlamaChatSession({ contextSequence: sequence, autoDisposeSequence: false });
      try {
        session.setChatHistory([
          { type: 'system', text: request.system },
          ...(request.history ?? []).map((turn) =>
            turn.role === 'user'
              ? { type: 'user' as const, text: turn.content }
              : { type: 'model' as const, response: [turn.content] },
          ),
        ]);
        let outputTokens = 0;
        const text = await session.prompt(request.prompt, {
          onToken: (tokens) => {
            outputTokens += tokens.length;
          },
          ...(grammar ? { grammar } : {}),
          maxTokens: request.maxTokens,
          temperature: request.temperature ?? 0,
          onTextChunk: request.onChunk,
          signal: request.signal,
        });
        const inputText = [request.system, ...(request.history ?? []).map((turn) => turn.content), request.prompt].join(
          '\n',
        );
        return {
          text,
          usage: { inputTokens: model.tokenize(inputText).length, outputTokens, cachedInputTokens: 0 },
          model: path.basename(file),
          provider: this.kind,
          finishReason: 'stop',
          attempts: 1,
        };
      } finally {
        session.dispose({ disposeSequence: false });
      }
    } catch (error) {
      if (request.signal.aborted) throw request.signal.reason ?? error;
      if (error instanceof ProviderError) throw error;
      throw new ProviderError(
        `local model ${path.basename(file)}: ${error instanceof Error ? error.message : String(error)}`,
        { provider: this.kind, model: modelName, retryable: false, cause: error },
      );
    }
  }
}
