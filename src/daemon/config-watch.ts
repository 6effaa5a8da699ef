/**
 * Edits of govflow.config.yaml under a running daemon (issue 32): `http.tokens` and `http.rate_limit` apply at once;
 * any other key was read at start, so its change is named in one warning and in `govflow status`
 * as waiting for a restart. An invalid edit is logged with file and line; the config stays.
 */
import { watchSettled } from './governance-watch.js';
import path from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { CONFIG_FILE_NAME, loadConfig, type GovflowConfig } from '../config/config-loader.js';
import { ConfigError, errorMessage } from '../errors.js';
import type { HttpApi } from '../http/http-server.js';
import type { OperationalLog } from '../log-contract.js';
import { writeConfigStatus } from './config-status.js';

/**
 * Top-level keys of `next` that differ from `started` and only a restart applies, in the order
 * written (keys removed last); `http` counts only when more than its tokens and rate limits changed.
 */
function keysNeedingRestart(
  started: Readonly<Record<string, unknown>>,
  next: Readonly<Record<string, unknown>>,
): string[] {
  const withoutTokens = (value: unknown) =>
    typeof value === 'object' && value !== null ? { ...value, tokens: undefined, rate_limit: undefined } : value;
  const keys = [...new Set([...Object.keys(next), ...Object.keys(started)])];
  return keys.filter((key) =>
    key === 'http'
      ? !isDeepStrictEqual(withoutTokens(started.http), withoutTokens(next.http))
      : !isDeepStrictEqual(started[key], next[key]),
  );
}

/** Watches the file of `config`, the tokens of `http` following it; resolves once ready, with its stop function. */
export async function watchConfig(
  config: GovflowConfig,
  env: NodeJS.ProcessEnv,
  log: OperationalLog,
  http: Pick<HttpApi, 'replaceTokens' | 'replaceRateLimits' | 'url'> | null,
): Promise<() => Promise<void>> {
  const write = (restartNeeded: string[]) => {
    try {
      writeConfigStatus(config.paths.state, {
        pid: process.pid,
        http: http?.url ?? null,
        restart_needed: restartNeeded,
      });
    } catch (error) {
      log.warn('could not write system/state/config.json for govflow status', { error: errorMessage(error) });
    }
  };
  let tokens = config.http.tokens;
  let rateLimit = config.http.rate_limit;
  let restartNeeded: string[] = [];
  write(restartNeeded);

  const check = () => {
    let next: GovflowConfig;
    try {
      next = loadConfig(config.root, env);
    } catch (error) {
      const what = error instanceof ConfigError ? error.describe() : `${CONFIG_FILE_NAME}: ${errorMessage(error)}`;
      log.error(
        `${what} — this edit of ${CONFIG_FILE_NAME} does not validate: fix it (the file is read again when saved); the daemon keeps running ` +
          `on the config it has`,
      );
      return;
    }
    if (!isDeepStrictEqual(next.http.tokens, tokens)) {
      try {
        http?.replaceTokens(next.http.tokens);
        tokens = next.http.tokens;
        if (http) log.info(`${CONFIG_FILE_NAME}: http.tokens applied`, { tokens: tokens.length });
      } catch (error) {
        log.error(
          `${CONFIG_FILE_NAME}: http.tokens not applied, the HTTP API keeps the tokens it had: ${errorMessage(error)}`,
        );
      }
    }
    if (!isDeepStrictEqual(next.http.rate_limit, rateLimit)) {
      rateLimit = next.http.rate_limit;
      http?.replaceRateLimits(rateLimit);
      if (http) log.info(`${CONFIG_FILE_NAME}: http.rate_limit applied`, { rate_limit: rateLimit });
    }
    const changed = keysNeedingRestart(config.written, next.written);
    if (isDeepStrictEqual(changed, restartNeeded)) return;
    restartNeeded = changed;
    write(restartNeeded);
    if (changed.length > 0)
      log.warn(
        `${CONFIG_FILE_NAME} changed ${changed.join(', ')}: restart the daemon to apply (until then it runs on the config it started with)`,
      );
    else log.info(`${CONFIG_FILE_NAME} is back to the config the daemon started with: no restart needed`);
  };

  // The file itself, not the root: chokidar follows it across atomic renames and while it is absent.
  return watchSettled(path.join(config.root, CONFIG_FILE_NAME), check, (error) =>
    log.error('config watcher error', { error: errorMessage(error) }),
  );
}
