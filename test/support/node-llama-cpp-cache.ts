/**
 * node-llama-cpp for the local-provider tests, installed once into a cached folder under the OS
 * temp dir (not node_modules: it would make every `npm ci` ~85 MB and 30 s heavier). Only the
 * package and this platform's prebuilt binary are installed; nothing is downloaded at run time.
 * Returns null, with the reason, when the install is impossible (no registry, another platform).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

export const NODE_LLAMA_CPP_VERSION = '3.22.1';

export function nodeLlamaCppCacheDir(): string {
  return path.join(tmpdir(), `govflow-node-llama-cpp-${NODE_LLAMA_CPP_VERSION}`);
}

/** The folder whose node_modules holds node-llama-cpp, or why it could not be installed. */
export function ensureNodeLlamaCpp(): { dir: string } | { reason: string } {
  const dir = nodeLlamaCppCacheDir();
  const platformPackage = `@node-llama-cpp/${process.platform}-${process.arch}`;
  if (
    existsSync(path.join(dir, 'node_modules', 'node-llama-cpp', 'dist', 'index.js')) &&
    existsSync(path.join(dir, 'node_modules', platformPackage))
  )
    return { dir };
  mkdirSync(dir, { recursive: true });
  if (!existsSync(path.join(dir, 'package.json')))
    writeFileSync(path.join(dir, 'package.json'), '{"name":"govflow-node-llama-cpp-cache","private":true}\n');
  const install = spawnSync(
    'npm',
    [
      'install',
      '--no-audit',
      '--no-fund',
      '--omit=optional',
      `node-llama-cpp@${NODE_LLAMA_CPP_VERSION}`,
      `${platformPackage}@${NODE_LLAMA_CPP_VERSION}`,
    ],
    { cwd: dir, env: { ...process.env, NODE_LLAMA_CPP_SKIP_DOWNLOAD: 'true' }, encoding: 'utf8', timeout: 150_000 },
  );
  if (install.status !== 0) {
    return {
      reason:
        `npm install node-llama-cpp@${NODE_LLAMA_CPP_VERSION} ${platformPackage} into ${dir} failed: ` +
        `${(install.stderr || install.error?.message || '').trim().split('\n').slice(-2).join(' ')}`,
    };
  }
  return { dir };
}
