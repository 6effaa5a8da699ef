/**
 * `govflow token add USER [--role auditor|admin]`: prints a new HTTP API token once and adds its SHA-256
 * to `http.tokens`, keeping the file's comments and order; a running daemon applies it by itself.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { isMap, isSeq, parseDocument, YAMLMap, YAMLSeq } from 'yaml';
import { CONFIG_FILE_NAME, loadConfig } from '../config/config-loader.js';
import { readConfigStatus } from '../daemon/config-status.js';
import { RootLock } from '../daemon/root-lock.js';
import { UsageError } from '../errors.js';
import { newToken, tokenSha256 } from '../http/http-auth.js';
import { writeFileAtomic } from '../store/atomic-file.js';
import type { CommandDefinition } from './command-context.js';

const USER_PATTERN = /^[A-Za-z0-9._@-]{1,128}$/;

export const tokenCommand: CommandDefinition = {
  options: { role: { type: 'string' } },
  allowPositionals: true,
  async run({ root, io, values, positionals }) {
    const [action, user, ...extra] = positionals;
    if (action !== 'add' || user === undefined || extra.length > 0) {
      throw new UsageError('write: govflow token add USER [--role operator|auditor|admin]');
    }
    if (!USER_PATTERN.test(user))
      throw new UsageError(
        `user "${user.slice(0, 40)}" is not allowed: use 1 to 128 characters from A-Z a-z 0-9 . _ @ -`,
      );
    const role = (values.role as string | undefined) ?? 'operator';
    if (role !== 'operator' && role !== 'auditor' && role !== 'admin')
      throw new UsageError(`--role must be operator, auditor or admin, got "${role}"`);

    // The config must be valid before we touch it, so a broken file is reported, not rewritten.
    const { paths } = loadConfig(root, io.env);
    const file = path.join(root, CONFIG_FILE_NAME);
    const document = parseDocument(existsSync(file) ? readFileSync(file, 'utf8') : '');
    if (document.contents === null) document.contents = new YAMLMap() as unknown as typeof document.contents;
    if (!isMap(document.contents))
      throw new UsageError(`${CONFIG_FILE_NAME} must be a YAML mapping to add http.tokens to it`);
    let http = document.get('http', true);
    if (http === undefined || http === null) {
      http = new YAMLMap();
      document.set('http', http);
    }
    if (!isMap(http))
      throw new UsageError(`http in ${CONFIG_FILE_NAME} must be a mapping (http: { listen: ..., tokens: [...] })`);
    let tokens: unknown = http.get('tokens', true);
    if (tokens === undefined || tokens === null) {
      tokens = new YAMLSeq();
      http.set('tokens', tokens as never);
    }
    if (!isSeq(tokens)) throw new UsageError(`http.tokens in ${CONFIG_FILE_NAME} must be a list`);
    const token = newToken();
    tokens.add(document.createNode({ user, sha256: tokenSha256(token), role }));
    writeFileAtomic(file, document.toString({ lineWidth: 0 }));
    loadConfig(root, io.env); // the result must load; a failure here is a bug worth an exit 1
    io.stderr(
      `added an HTTP token for ${user} (${role}) to ${file}\n${whoUsesIt(paths.state)}\nthe token is shown once, store it now:\n`,
    );
    io.stdout(`${token}\n`);
    return 0;
  },
};

/** What happens to the new token now: the running daemon picks it up, or needs a (re)start with the HTTP API. */
function whoUsesIt(stateDir: string): string {
  const owner = RootLock.owner(stateDir);
  if (owner?.kind !== 'daemon')
    return 'no daemon runs on this root: it works once one starts with the HTTP API (govflow start --http HOST:PORT, or http.listen)';
  const status = readConfigStatus(stateDir, owner.pid);
  if (status === null) return `a daemon (pid ${owner.pid}) runs on this root: restart it to apply the token`;
  if (status.http === null)
    return `the running daemon (pid ${owner.pid}) serves no HTTP API: restart it with govflow start --http HOST:PORT (or set http.listen) to use the token`;
  return `the running daemon (pid ${owner.pid}) picks it up within a moment (HTTP API on ${status.http})`;
}
