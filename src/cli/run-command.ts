/** `govflow run FILE|-`: one request (or a reply to a paused session) to the end, in process. */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { openRuntime } from '../daemon/runtime.js';
import { errorMessage } from '../errors.js';
import { generateRequestId, parseRequestFile } from '../intake/request-file.js';
import { RequestIdRegistry } from '../intake/request-id-registry.js';
import { ReplyRejectedError } from '../pipeline/session-runner.js';
import type { ResultDocument } from '../pipeline/session-result.js';
import { ScriptedProvider } from '../llm/scripted-provider.js';
import type { CommandDefinition } from './command-context.js';
import { loadConfig } from '../config/config-loader.js';
import { createProvider } from '../llm/create-provider.js';
import type { RecordingProvider } from '../llm/recording-provider.js';

const EXIT_BY_STATUS: Record<ResultDocument['status'], number> = { success: 0, partial: 0, failed: 1, pending: 3 };

function describeResult(result: ResultDocument): string {
  const output = typeof result.output === 'string' ? result.output : JSON.stringify(result.output, null, 2);
  return [
    `status: ${result.status}`,
    `request: ${result.request_id}  session: ${result.session_id}  messages: ${result.messages}`,
    `message: ${result.message}`,
    ...(result.error ? [`error: ${String(result.error.error_code)}: ${String(result.error.error_message)}`] : []),
    'output:',
    output,
  ].join('\n');
}

export const runCommand: CommandDefinition = {
  name: 'run',
  usage: 'govflow run FILE|- [--root DIR] [--json] [--record DIR]',
  summary: 'process one request now and print the result (exit 0 success/partial, 1 failed, 3 pending)',
  options: { json: { type: 'boolean' }, record: { type: 'string' } },
  allowPositionals: true,
  async run({ root, values, positionals, io }) {
    if (positionals.length !== 1) {
      io.stderr(`usage: ${runCommand.usage}\nname one request file, or - to read the request from standard input\n`);
      return 2;
    }
    const target = positionals[0];
    let name: string;
    let bytes: Buffer;
    if (target === '-') {
      const text = await io.readStdin();
      name = text.trimStart().startsWith('{') ? 'stdin.json' : 'stdin.txt';
      bytes = Buffer.from(text, 'utf8');
    } else {
      name = path.basename(target);
      try {
        bytes = readFileSync(target);
      } catch (error) {
        io.stderr(`govflow run: cannot read ${target}: ${errorMessage(error)}\n`);
        return 2;
      }
    }

    // --record DIR (SPEC §13): every model call of this run goes to a cassette in DIR.
    const recordDir = typeof values.record === 'string' ? path.resolve(values.record) : undefined;
    const provider = recordDir !== undefined ? createProvider(loadConfig(root, io.env), io.env, { recordDir }) : undefined;
    const runtime = await openRuntime(root, { env: io.env, log: undefined, provider });
    try {
      const parsed = parseRequestFile(name, bytes, runtime.config.intake.max_bytes);
      if (parsed.kind === 'invalid') {
        io.stderr(`govflow run: ${target} is not a request: ${parsed.reason}\n`);
        return 2;
      }
      const signal = new AbortController().signal;
      let outcome;
      if (parsed.kind === 'reply') {
        try {
          outcome = await runtime.runner.replyToSession(parsed.sessionId, { text: parsed.reply, sourceFile: name, claimedPath: null }, signal);
        } catch (error) {
          if (!(error instanceof ReplyRejectedError)) throw error;
          io.stderr(`govflow run: ${error.message}\n`);
          return 2;
        }
      } else {
        const requestId = parsed.requestId ?? generateRequestId();
        const registry = new RequestIdRegistry(runtime.config.paths);
        // Each run is its own claim: running the same file (or stdin) twice with one request_id is a duplicate.
        const claim = `run:${path.resolve(target === '-' ? 'stdin' : target)}:${process.pid}:${Date.now()}`;
        if ((await registry.claim(requestId, claim)) === 'duplicate') {
          io.stderr(`govflow run: duplicate request_id "${requestId}": it was already processed; use a new request_id\n`);
          return 2;
        }
        if (parsed.sessionId && runtime.runner.sessionExists(parsed.sessionId)) {
          io.stderr(`govflow run: session_id "${parsed.sessionId}" is already in use; omit session_id or choose a new one\n`);
          return 2;
        }
        outcome = await runtime.runner.startSession(
          { requestId, sessionId: parsed.sessionId, text: parsed.text, user: parsed.user, metadata: parsed.metadata, sourceFile: name, claimedPath: null },
          signal,
        );
      }
      const recorded = runtime.provider as Partial<RecordingProvider>;
      if (recorded.recorder) io.stderr(`recorded ${recorded.recorder.callCount} model call(s) to ${recorded.recorder.file}\n`);
      const scripted = recorded.inner ?? runtime.provider;
      if (scripted instanceof ScriptedProvider) {
        const unused = scripted.unusedResponses();
        if (Object.keys(unused).length > 0) io.stderr(`warning: scripted responses never asked for: ${JSON.stringify(unused)}\n`);
      }
      io.stdout(values.json ? `${JSON.stringify(outcome.result, null, 2)}\n` : `${describeResult(outcome.result)}\n`);
      return EXIT_BY_STATUS[outcome.status];
    } finally {
      await runtime.close();
    }
  },
};
