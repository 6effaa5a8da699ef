/**
 * `govflow run FILE|-`: one request or reply to the end: in process under the root lock, handed to
 * the root's daemon (run-handover.ts), or after waiting for another run that owns the root.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { loadConfig, type GovflowConfig } from '../config/config-loader.js';
import { openRuntime, type Runtime } from '../daemon/runtime.js';
import { errorCode, errorMessage } from '../errors.js';
import { parseRequestFile } from '../intake/request-file.js';
import { generateRequestId } from '../intake/request-ids.js';
import { RequestIdRegistry } from '../intake/request-id-registry.js';
import type { ResultDocument } from '../pipeline/session-result.js';
import { ScriptedProvider } from '../llm/scripted-provider.js';
import { RootLock, RootLockedError, type RootOwner } from '../daemon/root-lock.js';
import { innermostProvider } from '../llm/retrying-provider.js';
import type { CommandDefinition, CommandIo } from './command-context.js';
import { resumeOrphanedRuns } from '../daemon/orphaned-runs.js';
import { ReplyRejectedError } from '../pipeline/runner-contract.js';
import type { OperationalLog } from '../log-contract.js';
import { RunClaims } from '../daemon/run-claims.js';
import { EXIT_CODE_BY_STATUS } from './exit-codes.js';
import { handOverToDaemon, type HandoverOutcome } from './run-handover.js';
import type { StoreResults } from '../cluster/store-results.js';
import { internalFailureResult } from './run-failure-result.js';
import { createProvider } from '../llm/create-provider.js';
import type { RecordingProvider } from '../llm/recording-provider.js';
import { userNameOf } from '../intake/file-owner.js';
import { controlIdOf } from '../pipeline/session-cancel.js';

/** `govflow run` runs requests and replies; controls act on sessions a daemon holds (docs/run-control.md). */
const CONTROL_BY_DAEMON =
  'this is a control file: controls are applied by the daemon only; use govflow cancel|retry|fork|rerun, or drop the file into system/inbox/ ' +
  'of a running daemon';

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

/** Warnings and errors of resuming killed runs, on stderr (stdout may hold --json). */
function stderrLog(io: CommandIo): OperationalLog {
  const line = (level: string) => (message: string, fields?: Record<string, unknown>) =>
    io.stderr(`govflow run: ${level}: ${message}${fields ? ` ${JSON.stringify(fields)}` : ''}\n`);
  return { info() {}, warn: line('warning'), error: line('error') };
}

export const runCommand: CommandDefinition = {
  options: { json: { type: 'boolean' }, record: { type: 'string' } },
  allowPositionals: true,
  async run({ root, values, positionals, io, usage }) {
    if (positionals.length !== 1) {
      io.stderr(`usage: ${usage}\nname one request file, or - to read the request from standard input\n`);
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
        const folder = errorCode(error) === 'EISDIR';
        io.stderr(
          folder
            ? `govflow run: ${target} is a folder; govflow run takes one request file: move a request folder (request.txt plus attachments) ` +
                `into system/inbox/ of a running daemon, or POST it as multipart/form-data (docs/attachments.md)\n`
            : `govflow run: cannot read ${target}: ${errorMessage(error)}\n`,
        );
        return 2;
      }
    }

    const fail = (text: string) => {
      io.stderr(`govflow run: ${text}\n`);
      return 2;
    };
    const print = (result: ResultDocument) => {
      io.stdout(values.json ? `${JSON.stringify(result, null, 2)}\n` : `${describeResult(result)}\n`);
      return EXIT_CODE_BY_STATUS[result.status];
    };
    const parse = (config: GovflowConfig) => parseRequestFile(name, bytes, config.intake.max_bytes);
    /** Hands the request to the daemon `owner` and prints its outcome; null when the daemon went before it took it. */
    const handOver = async (
      config: GovflowConfig,
      owner: RootOwner,
      openResults?: () => Promise<StoreResults>,
    ): Promise<number | null> => {
      const parsed = parse(config);
      if (parsed.kind === 'invalid') return fail(`${target} is not a request: ${parsed.reason}`);
      if (parsed.kind === 'control') return fail(CONTROL_BY_DAEMON);
      const requestId = parsed.kind === 'request' ? (parsed.requestId ?? generateRequestId()) : null;
      let results: StoreResults | undefined;
      try {
        results = await openResults?.();
      } catch (error) {
        return fail(errorMessage(error));
      }
      let handed: HandoverOutcome;
      try {
        handed = await handOverToDaemon(
          config.paths,
          owner,
          parsed,
          requestId,
          (line) => io.stderr(`govflow run: ${line}\n`),
          results,
        );
      } finally {
        await results?.close();
      }
      if (handed.kind === 'daemon-gone') return null;
      return handed.kind === 'rejected' ? fail(handed.reason) : print(handed.result);
    };

    // Cluster mode (docs/cluster.md): sessions run in the daemons, so a run is handed to this root's daemon.
    const rootConfig = loadConfig(root, io.env);
    if (rootConfig.store.kind === 'postgres') {
      const daemon = RootLock.owner(rootConfig.paths.state);
      if (daemon === null || daemon.kind !== 'daemon') {
        return fail(
          "this root is in cluster mode (store.kind: postgres), where sessions run in the daemons: start this root's daemon with `govflow " +
            'start` and run again (or drop the file into system/inbox/)',
        );
      }
      // Results are read from the store: a reply's goes to the daemon that took the request (pg only in cluster mode).
      const openResults = async () => (await import('../cluster/store-results.js')).openStoreResults(rootConfig);
      return (
        (await handOver(rootConfig, daemon, openResults)) ??
        fail('the daemon stopped before it took the request; start it again and run again')
      );
    }

    // --record DIR (README "Record, replay and governance tests"): every model call of this run goes to a cassette in DIR.
    const recordDir = typeof values.record === 'string' ? path.resolve(values.record) : undefined;
    let runtime: Runtime;
    let waitingNoted = false;
    for (;;) {
      try {
        const provider =
          recordDir !== undefined ? await createProvider(loadConfig(root, io.env), io.env, { recordDir }) : undefined;
        runtime = await openRuntime(root, { env: io.env, log: undefined, owner: 'run', provider });
        break;
      } catch (error) {
        if (!(error instanceof RootLockedError)) throw error;
        if (error.owner.kind === 'run') {
          if (!waitingNoted) io.stderr(`govflow run: waiting: ${error.message}\n`);
          waitingNoted = true;
          await new Promise((resolve) => setTimeout(resolve, 100));
          continue;
        }
        const exitCode = await handOver(loadConfig(root, io.env), error.owner);
        if (exitCode !== null) return exitCode;
      }
    }
    try {
      const parsed = parse(runtime.config);
      if (parsed.kind === 'invalid') return fail(`${target} is not a request: ${parsed.reason}`);
      if (parsed.kind === 'control') return fail(CONTROL_BY_DAEMON);
      const signal = new AbortController().signal;
      // Sessions of earlier `govflow run`s that were killed mid-way are finished first (README: CLI).
      const claims = new RunClaims(runtime.config.paths.state);
      // A session this process resumes had its first answers from an earlier process's script.
      let resumedHere = parsed.kind === 'reply';
      for (const resumed of await resumeOrphanedRuns(
        runtime.config.paths.state,
        runtime.runner,
        signal,
        stderrLog(io),
      )) {
        resumedHere = true;
        io.stderr(
          `govflow run: resumed session ${resumed.sessionId} of a killed govflow run: ${resumed.status}; result in system/outbox/${resumed.requestId}.json\n`,
        );
      }
      const startedAt = new Date();
      let outcome: { status: ResultDocument['status']; result: ResultDocument };
      let sessionId: string | null = parsed.kind === 'reply' ? parsed.sessionId : null;
      let requestId: string | null = null;
      // SIGINT stops this run's own session: it ends cancelled (docs/run-control.md); a second one quits at once.
      const interrupt = () => {
        process.once('SIGINT', () => process.exit(130));
        if (sessionId === null) process.exit(130);
        io.stderr('govflow run: SIGINT: cancelling the session (press Ctrl-C again to quit at once)\n');
        void runtime.runner.cancelRunning(sessionId, {
          controlId: controlIdOf(`govflow-run\0${process.pid}\0${sessionId}\0${Date.now()}`),
          by: userNameOf(process.getuid?.() ?? -1),
          claimedBy: null,
          reason: 'govflow run was interrupted (SIGINT)',
          claimedAt: new Date().toISOString(),
          sourceFile: name,
          claimedPath: null,
        });
      };
      process.once('SIGINT', interrupt);
      try {
        if (parsed.kind === 'reply') {
          claims.register(parsed.sessionId);
          try {
            outcome = await runtime.runner.replyToSession(
              parsed.sessionId,
              {
                text: parsed.reply,
                sourceFile: name,
                claimedPath: null,
                ...(parsed.approval ? { approval: parsed.approval } : {}),
              },
              signal,
            );
          } catch (error) {
            if (!(error instanceof ReplyRejectedError)) throw error;
            claims.release(parsed.sessionId);
            return fail(error.message);
          }
        } else {
          requestId = parsed.requestId ?? generateRequestId();
          const registry = new RequestIdRegistry(runtime.config.paths);
          // Each run is its own claim: running the same file (or stdin) twice with one request_id is a duplicate.
          const claim = `run:${path.resolve(target === '-' ? 'stdin' : target)}:${process.pid}:${Date.now()}`;
          if ((await registry.claim(requestId, claim)) === 'duplicate')
            return fail(`duplicate request_id "${requestId}": it was already processed; use a new request_id`);
          if (parsed.sessionId && runtime.runner.sessionExists(parsed.sessionId))
            return fail(`session_id "${parsed.sessionId}" is already in use; omit session_id or choose a new one`);
          outcome = await runtime.runner.startSession(
            {
              requestId,
              sessionId: parsed.sessionId,
              text: parsed.text,
              user: parsed.user,
              metadata: parsed.metadata,
              sourceFile: name,
              claimedPath: null,
            },
            signal,
            (id) => {
              sessionId = id;
              claims.register(id);
            },
          );
        }
        // Released only when the session came to an end or a pause; after an internal failure the
        // claim stays, so the next start or run resumes the session from its journal.
        claims.release(sessionId!);
      } catch (error) {
        // Whatever failed inside, the caller gets a result document (docs/results.md) and exit 1 (docs/exit-codes.md).
        io.stderr(`govflow run: the session failed with an internal error: ${errorMessage(error)}\n`);
        outcome = {
          status: 'failed',
          result: internalFailureResult({
            requestId,
            sessionId,
            sourceFile: name,
            startedAt,
            error,
            timezone: runtime.config.timezone,
          }),
        };
      }
      process.off('SIGINT', interrupt);
      const recorded = runtime.provider as Partial<RecordingProvider>;
      if (recorded.recorder)
        io.stderr(`recorded ${recorded.recorder.callCount} model call(s) to ${recorded.recorder.file}\n`);
      const scriptedProvider = innermostProvider(recorded.inner ?? runtime.provider);
      // A paused session has its later answers still to come.
      if (scriptedProvider instanceof ScriptedProvider && outcome.status !== 'pending') {
        const unused = scriptedProvider.unusedResponses();
        if (resumedHere) {
          // Only agents asked here are known: their positions count the answers the journal shows.
          const asked = new Set(scriptedProvider.calls.map((call) => call.agent));
          for (const agent of Object.keys(unused)) if (!asked.has(agent)) delete unused[agent];
        }
        if (Object.keys(unused).length > 0)
          io.stderr(`warning: scripted responses never asked for: ${JSON.stringify(unused)}\n`);
      }
      return print(outcome.result);
    } finally {
      await runtime.close();
    }
  },
};
