/**
 * The agent files of a root: `governance/agents/*.md` (govflow agent files, and Claude Code agent
 * files dropped in as found) and, with `agents.claude_code_dir`, every `.md` file of that folder
 * and its subfolders, all read as Claude Code files (docs/claude-code.md). Each file becomes an
 * agent or is recorded as errors and warnings naming the file and line.
 */
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { globSync } from 'tinyglobby';
import { CONFIG_FILE_NAME, type AgentDeclaration, type GovflowConfig } from '../config/config-loader.js';
import { parseYamlSource, type YamlSource } from '../config/yaml-source.js';
import type { SplitMarkdown } from '../config/frontmatter.js';
import { ConfigError, errorMessage } from '../errors.js';
import { isPlainObject } from '../message/json-text.js';
import { builtinValidator, describeSchemaErrors, errorKeyPath } from '../message/schema-compiler.js';
import type { AgentDefinition } from './agent-definition.js';
import { resolveAgent } from './agent-resolution.js';
import { claudeAgentWarning, fromClaudeCodeAgent, govflowAgentName } from './claude-agent-file.js';
import { hasClaudeCodeKeys, parseClaudeFrontmatter, topLevelKeys } from './claude-frontmatter.js';

const validateDeclaration = builtinValidator('agentDeclaration');

/** What reading agent files needs from the loader. */
export interface AgentFileContext {
  config: GovflowConfig;
  errors: ConfigError[];
  warnings: string[];
  /** Reads a root-relative file through the root boundary (and into the governance hash). */
  read: (relative: string) => string;
  /** A markdown file split at its frontmatter; null (error recorded) when it cannot be. */
  readMarkdown: (relative: string) => SplitMarkdown | null;
  addAgent: (agent: AgentDefinition) => void;
  /** The config's line of a key path, for errors about config settings. */
  configLine: (keyPath: readonly (string | number)[]) => number;
}

/** Loads `governance/agents/*.md` (but the files config `agents:` declares) and the Claude Code folder. */
export function loadAgentFiles(context: AgentFileContext, configAgentFiles: ReadonlySet<string>): void {
  const agentsFolder = path.join(context.config.root, 'governance', 'agents');
  const agentFiles = existsSync(agentsFolder)
    ? readdirSync(agentsFolder)
        .filter((name) => name.endsWith('.md'))
        .sort()
    : [];
  for (const fileName of agentFiles) {
    const relative = `governance/agents/${fileName}`;
    if (configAgentFiles.has(relative)) continue;
    loadAgentFile(context, relative, { claudeCodeOnly: false, frontmatterOptional: configAgentFiles.size > 0 });
  }
  const claudeCodeDir = context.config.agentSettings.claude_code_dir;
  if (claudeCodeDir === null) return;
  const folder = path.join(context.config.root, claudeCodeDir);
  if (!existsSync(folder) || !statSync(folder).isDirectory()) {
    context.errors.push(
      new ConfigError(
        `agents.claude_code_dir: "${claudeCodeDir}" is not a folder under the root; create it, or remove the setting`,
        CONFIG_FILE_NAME,
        context.configLine(['agents', 'claude_code_dir']),
      ),
    );
    return;
  }
  const files = globSync('**/*.md', { cwd: folder, onlyFiles: true, dot: false, followSymbolicLinks: false }).sort();
  for (const file of files) {
    const relative = `${claudeCodeDir}/${file.split(path.sep).join('/')}`;
    loadAgentFile(context, relative, { claudeCodeOnly: true, frontmatterOptional: true });
  }
}

/**
 * One agent file. A file is read as a Claude Code file when it lies in the Claude Code folder, or
 * when its frontmatter has no `type` and no key only govflow uses (see claude-frontmatter.ts).
 */
function loadAgentFile(
  context: AgentFileContext,
  relative: string,
  options: { claudeCodeOnly: boolean; frontmatterOptional: boolean },
): void {
  const { errors, warnings } = context;
  const split = context.readMarkdown(relative);
  if (!split) return;
  if (split.frontmatter === null) {
    if (options.frontmatterOptional) {
      // A tree whose agents are declared in config (or a folder of Claude Code files) may keep other markdown beside them.
      const why = options.claudeCodeOnly
        ? 'no frontmatter, so not an agent file; ignored'
        : 'no frontmatter and not named by any `agents:` entry in govflow.config.yaml; ignored';
      warnings.push(`${relative}: ${why}`);
      return;
    }
    const how =
      'start the file with a "---" block (name, type, description, ...) or declare this agent under `agents:` in govflow.config.yaml with `file:`';
    errors.push(new ConfigError(`no YAML frontmatter: ${how}`, relative, 1));
    return;
  }
  const claudeCode = options.claudeCodeOnly || hasClaudeCodeKeys(topLevelKeys(split.frontmatter));
  let source: YamlSource;
  try {
    source = claudeCode
      ? parseClaudeFrontmatter(split.frontmatter, relative, split.frontmatterLine)
      : parseYamlSource(split.frontmatter, relative, split.frontmatterLine);
  } catch (error) {
    errors.push(error instanceof ConfigError ? error : new ConfigError(errorMessage(error), relative, 1));
    return;
  }
  let declaration = source.value;
  if (!isPlainObject(declaration)) {
    errors.push(
      new ConfigError('frontmatter must be a YAML mapping (name: ..., type: ...)', relative, split.frontmatterLine),
    );
    return;
  }
  if (claudeCode && (options.claudeCodeOnly || hasClaudeCodeKeys(Object.keys(declaration)))) {
    const converted = claudeCodeDeclaration(context, relative, declaration, source);
    if (converted === null) return;
    declaration = converted;
  }
  if (!validateDeclaration(declaration)) {
    for (const error of validateDeclaration.errors ?? []) {
      if (error.keyword === 'if') continue;
      const [sentence] = describeSchemaErrors([error]);
      const hint =
        claudeCode && errorKeyPath(error)[0] === 'name' ? ' (Claude Code names: letters, digits, "-" and ".")' : '';
      errors.push(
        new ConfigError(
          `frontmatter ${sentence.replace(/^\//, '')}${hint}`,
          relative,
          source.lineOf(errorKeyPath(error)),
        ),
      );
    }
    return;
  }
  const typed = declaration as AgentDeclaration & { name: string };
  const expectedName = path.posix.basename(relative).replace(/\.md$/, '');
  if (typed.name !== expectedName && typed.name !== govflowAgentName(expectedName)) {
    warnings.push(`${relative}: agent name "${typed.name}" differs from the file name "${expectedName}"`);
  }
  const agent = resolveAgent(
    typed,
    { file: relative, line: source.lineOf(['name']) },
    relative,
    split.body,
    context.config,
    errors,
    context.read,
    source.lineOf,
  );
  if (agent) context.addAgent(agent);
}

/** The govflow declaration of a Claude Code file; its left-out tools are one warning, or errors with `unknown_tools: error`. */
function claudeCodeDeclaration(
  context: AgentFileContext,
  relative: string,
  frontmatter: Record<string, unknown>,
  source: YamlSource,
): Record<string, unknown> | null {
  const { config } = context;
  const conversion = fromClaudeCodeAgent(
    frontmatter,
    { mcpServers: Object.keys(config.mcp.servers), commandsAllowed: config.commandPatterns.allow.length > 0 },
    source.lineOf,
  );
  if (config.agentSettings.claude_code.unknown_tools === 'error' && conversion.leftOut.length > 0) {
    for (const item of conversion.leftOut)
      context.errors.push(
        new ConfigError(
          `Claude Code tool "${item.tool}" cannot be given to this agent (${item.why}): remove it from tools, or set ` +
            `agents.claude_code.unknown_tools: warn to run the agent without it`,
          relative,
          item.line,
        ),
      );
    return null;
  }
  const line = conversion.leftOut.length > 0 ? source.lineOf(['tools']) : source.lineOf([conversion.ignoredKeys[0] ?? 'name']);
  const warning = claudeAgentWarning(relative, conversion, line);
  if (warning !== null) context.warnings.push(warning);
  return conversion.declaration;
}
