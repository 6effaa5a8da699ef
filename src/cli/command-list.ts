/**
 * The CLI's commands by name, with usage, summary and loader: each is imported only when run, so
 * `govflow --help` or `status` never load the daemon, the AI SDK or the schema compiler.
 */
import type { CommandDefinition } from './command-context.js';

export interface CommandSummary {
  name: string;
  usage: string;
  summary: string;
  /** Imports the command's module; called once the command was chosen. */
  load: () => Promise<CommandDefinition>;
}

export const COMMAND_LIST: readonly CommandSummary[] = Object.freeze([
  {
    name: 'init',
    usage: 'govflow init [DIR] [--force]',
    summary:
      'create a working root in DIR (default: here): config, the example agent chain, context, schemas, a passing test',
    load: async () => (await import('./init-command.js')).initCommand,
  },
  {
    name: 'start',
    usage: 'govflow start [--root DIR] [--http HOST:PORT]',
    summary:
      'run the daemon in the foreground (prints a line with "ready" once the inbox is watched); --http also serves the HTTP API',
    load: async () => (await import('./start-command.js')).startCommand,
  },
  {
    name: 'run',
    usage: 'govflow run FILE|- [--root DIR] [--json] [--record DIR]',
    summary: 'process one request now and print the result (exit 0 success/partial, 1 failed, 3 pending)',
    load: async () => (await import('./run-command.js')).runCommand,
  },
  {
    name: 'validate',
    usage: 'govflow validate [--root DIR]',
    summary: 'check config, agents, routing graph and schemas',
    load: async () => (await import('./validate-command.js')).validateCommand,
  },
  {
    name: 'logs',
    usage: 'govflow logs [--date YYYYMMDD] [--session S] [--agent A] [--status C] [--json] [--root DIR]',
    summary: 'read audit entries back, filtered',
    load: async () => (await import('./audit-commands.js')).logsCliCommand,
  },
  {
    name: 'verify',
    usage: 'govflow verify [--root DIR] [--store] [--key FILE.pub [--witness DIR]...]',
    summary:
      'check the hash chain of all audit logs; names the first bad entry (exit 0 intact, 1 not); --key: also every signed checkpoint (the ' +
      "root's and each witness's) against the logs; --store: the chain in Postgres and the log files against it (cluster mode), with --key " +
      "also the checkpoints kept in Postgres and each witness's against that chain",
    load: async () => (await import('./audit-commands.js')).verifyCliCommand,
  },
  {
    name: 'keygen',
    usage: 'govflow keygen --out FILE [--force]',
    summary: 'write an Ed25519 key pair for signed audit checkpoints: FILE (private, mode 0600) and FILE.pub',
    load: async () => (await import('./keygen-command.js')).keygenCommand,
  },
  {
    name: 'migrate',
    usage: 'govflow migrate [--root DIR]',
    summary:
      "cluster mode: apply the Postgres store's schema migrations and exit (the daemon also applies them at start)",
    load: async () => (await import('./migrate-command.js')).migrateCommand,
  },
  {
    name: 'status',
    usage: 'govflow status [--root DIR] [--json]',
    summary:
      'sessions running, paused, interrupted, recently finished; in cluster mode also the daemons alive and stale',
    load: async () => (await import('./status-command.js')).statusCommand,
  },
  {
    name: 'sessions',
    usage: 'govflow sessions [--status S] [--user U] [--since ISO] [--limit N] [--json] [--root DIR]',
    summary:
      'list sessions newest first (session, request, status, user, started, finished, lineage); status: queued, running, paused, ' +
      'intervention_required, halted_cost, halted_time, success, partial, failed, cancelled',
    load: async () => (await import('./sessions-command.js')).sessionsCommand,
  },
  {
    name: 'cancel',
    usage:
      'govflow cancel SESSION_ID [--reason TEXT] | govflow cancel --status running|paused|queued [--user U] [--since ISO] [--reason TEXT] ' +
      '[--dry-run] [--json] [--root DIR]',
    summary:
      'cancel a running, queued or paused session and wait until it ended (exit 0 cancelled, 1 already ended, 2 unknown session, 3 no daemon ' +
      'runs); with --status, every match (--dry-run lists them)',
    load: async () => (await import('./control-commands.js')).cancelCommand,
  },
  {
    name: 'retry',
    usage: 'govflow retry SESSION_ID [--reason TEXT] [--request-id ID] [--json] [--root DIR]',
    summary:
      'a new session from an ended one, reusing its messages up to the first that did not succeed; prints the new session_id and request_id ' +
      '(exit 0 accepted, 1 refused, 2 unknown session, 3 no daemon runs)',
    load: async () => (await import('./control-commands.js')).retryCommand,
  },
  {
    name: 'rerun',
    usage: 'govflow rerun SESSION_ID [--reason TEXT] [--request-id ID] [--json] [--root DIR]',
    summary: 'a new session running an ended one again from its first message, under the current governance',
    load: async () => (await import('./control-commands.js')).rerunCommand,
  },
  {
    name: 'fork',
    usage:
      'govflow fork SESSION_ID --from K [--request-file FILE] [--reason TEXT] [--request-id ID] [--json] [--root DIR]',
    summary:
      'a new session that reuses messages 1…K-1 of an ended one (no model call) and runs from K on; --request-file replaces the request text',
    load: async () => (await import('./control-commands.js')).forkSessionCommand,
  },
  {
    name: 'intervene',
    usage:
      'govflow intervene SESSION_ID --retry [--advice TEXT] | --fail [--reason TEXT] | --continue [--cost-usd N] [--minutes N] [--root DIR]',
    summary:
      "a steward's decision for a session waiting in intervention_required: run the failed agent again with advice, or end it failed " +
      '(exit 0 applied, 1 not waiting for a steward, 2 unknown session, 3 no daemon runs)',
    load: async () => (await import('./control-commands.js')).interveneCommand,
  },
  {
    name: 'test',
    usage: 'govflow test [--root DIR] [NAME…] [--update]',
    summary:
      "run the root's tests/*.yaml cases against their cassettes (exit 0 all pass, 1 otherwise); --update records again",
    load: async () => (await import('./test-command.js')).testCommand,
  },
  {
    name: 'report',
    usage: 'govflow report [--date YYYYMMDD] [--format md|html] [--out FILE] [--root DIR]',
    summary: "one day's summary for auditors: sessions by status, agents, failures, compliance flags, cost, verify",
    load: async () => (await import('./report-command.js')).reportCommand,
  },
  {
    name: 'token',
    usage: 'govflow token add USER [--role operator|auditor|admin] [--root DIR]',
    summary: 'create an HTTP API token: prints it once, writes only its sha-256 into govflow.config.yaml',
    load: async () => (await import('./token-command.js')).tokenCommand,
  },
]);
