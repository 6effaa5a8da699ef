/**
 * An agent declaration (frontmatter or config `agents:`), already checked against the agent schema,
 * resolved into the definition the orchestrator uses: its output schema read and compiled, its tool
 * names checked against the root's tools and MCP servers, defaults applied. Problems are collected
 * with file and line.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import type { AgentDeclaration, GovflowConfig } from '../config/config-loader.js';
import { AGENT_DEFAULTS } from '../config/config-defaults.js';
import { ConfigError, errorMessage } from '../errors.js';
import { compileSchema } from '../message/schema-compiler.js';
import { toolPatternProblem } from '../tools/tool-names.js';
import { DEFAULT_CONTENT_TYPE, type AgentDefinition } from './agent-definition.js';
import { OutsideRootError } from './root-boundary.js';
import { compileAgentExpressions } from './agent-expressions.js';

/** A root-relative path with forward slashes. */
export function toPosix(relative: string): string {
  return relative.split(path.sep).join('/');
}

/** The definition of a declared agent, or null (with its problems in `errors`). */
export function resolveAgent(
  declaration: AgentDeclaration & { name: string },
  declaredIn: { file: string; line: number },
  file: string | null,
  instructions: string,
  config: GovflowConfig,
  errors: ConfigError[],
  read: (relative: string) => string,
  lineOf: (keyPath: string[]) => number = () => declaredIn.line,
): AgentDefinition | null {
  let outputSchema: Record<string, unknown> | null = null;
  if (declaration.output_schema !== undefined) {
    const line = lineOf(['output_schema']);
    try {
      if (typeof declaration.output_schema === 'string') {
        const schemaPath = toPosix(path.normalize(declaration.output_schema));
        if (!existsSync(path.join(config.root, schemaPath))) {
          throw new ConfigError(
            `output_schema file "${declaration.output_schema}" does not exist (paths are relative to the root)`,
          );
        }
        outputSchema = JSON.parse(read(schemaPath)) as Record<string, unknown>;
      } else {
        outputSchema = declaration.output_schema;
      }
      compileSchema(outputSchema);
    } catch (error) {
      const why =
        error instanceof OutsideRootError ? 'output_schema file' : 'output_schema is not a usable JSON Schema:';
      errors.push(new ConfigError(`agent "${declaration.name}": ${why} ${errorMessage(error)}`, declaredIn.file, line));
      return null;
    }
  }
  // Deny by default: a tool name that matches nothing is a mistake to hear about now, not a silent empty offer.
  const servers = Object.keys(config.mcp.servers);
  let toolsValid = true;
  for (const key of ['tools', 'approval'] as const) {
    (declaration[key] ?? []).forEach((pattern, index) => {
      const problem = toolPatternProblem(pattern, servers, config.commandPatterns.allow.length > 0);
      if (!problem) return;
      toolsValid = false;
      errors.push(
        new ConfigError(
          `agent "${declaration.name}": ${key}: ${problem}`,
          declaredIn.file,
          lineOf([key, String(index)]),
        ),
      );
    });
  }
  if (!toolsValid) return null;
  // A local model answers under a JSON grammar, which rules out tool calls (and so `delegate`).
  const toolKey =
    config.provider.kind !== 'local'
      ? undefined
      : (['tools', 'delegates'] as const).find((key) => (declaration[key] ?? []).length > 0);
  if (toolKey) {
    const why = toolKey === 'delegates' ? ', and delegating is a tool call (delegate)' : '';
    errors.push(
      new ConfigError(
        `agent "${declaration.name}": ${toolKey}: provider.kind local cannot offer tools${why} (a local model answers under a JSON grammar, ` +
          `which rules out tool calls); remove ${toolKey}: from this agent or use a provider kind with tool calls (openai, anthropic, google, ` +
            `openai-compatible, ollama, scripted)`,
        declaredIn.file,
        lineOf([toolKey]),
      ),
    );
    return null;
  }
  const attachmentsProblem = nativeAttachmentsProblem(declaration, config);
  if (attachmentsProblem) {
    errors.push(
      new ConfigError(`agent "${declaration.name}": ${attachmentsProblem}`, declaredIn.file, lineOf(['attachments'])),
    );
    return null;
  }
  for (const pattern of declaration.approval ?? []) {
    const offered = (declaration.tools ?? []).some(
      (tool) =>
        tool === pattern ||
        (tool.endsWith('*') && pattern.startsWith(tool.slice(0, -1))) ||
        (pattern.endsWith('*') && tool.startsWith(pattern.slice(0, -1))),
    );
    if (!offered)
      errors.push(
        new ConfigError(
          `agent "${declaration.name}": approval: "${pattern}" is not among its tools, so it can never be called; add it to tools: or remove it`,
          declaredIn.file,
          lineOf(['approval']),
        ),
      );
  }
  const expressions = compileAgentExpressions(declaration, declaredIn.file, lineOf, errors);
  return {
    name: declaration.name,
    type: declaration.type,
    description: declaration.description,
    entry: declaration.entry ?? false,
    next: declaration.next ?? [],
    contentType: declaration.content_type ?? DEFAULT_CONTENT_TYPE,
    outputSchema,
    plan: declaration.plan ?? false,
    onFailure: declaration.on_failure ?? null,
    model: declaration.model,
    temperature: declaration.temperature,
    maxTokens: declaration.max_tokens,
    timeoutMs: declaration.timeout_ms,
    maxRetries: declaration.max_retries,
    file,
    declaredIn: {
      ...declaredIn,
      keyLines: {
        entry: lineOf(['entry']),
        next: lineOf(['next']),
        plan: lineOf(['plan']),
        on_failure: lineOf(['on_failure']),
        delegates: lineOf(['delegates']),
      },
    },
    instructions,
    tools: [...(declaration.tools ?? [])],
    maxTurns: declaration.max_turns ?? AGENT_DEFAULTS.max_turns,
    approval: [...(declaration.approval ?? [])],
    delegates: [...(declaration.delegates ?? [])],
    attachments: declaration.attachments ?? null,
    routes: expressions.routes,
    input: expressions.input,
    answer: expressions.answer,
    expressionLines: expressions.lines,
    ...(declaration.protocol ? { protocol: declaration.protocol } : {}),
    messageFormat: declaration.message_format ?? config.message.format ?? 'sentient',
  };
}

/** Provider kinds whose APIs take PDFs and images as file parts (docs/attachments.md). */
const NATIVE_FILE_KINDS: readonly string[] = ['openai', 'anthropic', 'google'];

/** Why `attachments: native` cannot apply: another provider kind, or redaction (a file part cannot be redacted). */
function nativeAttachmentsProblem(declaration: AgentDeclaration, config: GovflowConfig): string | null {
  if (declaration.attachments !== 'native') return null;
  if (!NATIVE_FILE_KINDS.includes(config.provider.kind))
    return `attachments: native sends PDFs and images as file parts, which provider.kind "${config.provider.kind}" does not take ` +
      `(only ${NATIVE_FILE_KINDS.join(', ')}); use attachments: inline or list, or one of those provider kinds`;
  if (config.pii.redact.length > 0 || config.pii.custom.length > 0)
    return 'attachments: native sends PDFs and images to the model as they are, but pii.redact is set and a file part cannot be redacted; use ' +
      'attachments: inline (text attachments are redacted) or list, or drop pii.redact';
  return null;
}
