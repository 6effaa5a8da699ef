/**
 * Operator entries in the signed chain (docs/run-control.md, docs/audit-log.md): a daemon that
 * signs checkpoints cancels a session; `govflow verify` and `verify --key` pass with the operator's
 * entry in the chain; an edited operator entry is caught by the chain, and one forged or removed
 * with the chain consistently rewritten is caught by the signed checkpoints.
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTempFolder, removeTempFolders } from '../support/temp-dirs.js';
import { GENESIS_HASH, computeEntryHash } from '../../src/audit/audit-entry-format.js';
import { buildDistOnce } from '../daemon/build-once.js';
import {
  cleanupAll,
  dropJson,
  exampleScript,
  makeRoot,
  readResult,
  runCli,
  scriptedConfig,
  startDaemon,
  waitFor,
  writeScript,
} from '../daemon/daemon-helpers.js';
import { dropControl, sessionOfRequest } from './control-helpers.js';

const ENTRY_END = /\[ENTRY_HASH: [0-9a-f]{64}\]\n---\n/;

let root: string;
let witness: string;
let publicKey: string;
let logFile: string;
let signed: string;

beforeAll(async () => {
  await buildDistOnce();
  const keys = makeTempFolder('govflow-keys-');
  const made = await runCli(['keygen', '--out', path.join(keys, 'audit.key')]);
  expect(made.code, made.stderr).toBe(0);
  publicKey = path.join(keys, 'audit.key.pub');
  witness = makeTempFolder('govflow-witness-');
  root = makeRoot(
    scriptedConfig(
      `audit: { signing_key: ${JSON.stringify(path.join(keys, 'audit.key'))}, checkpoint_ms: 50, witnesses: [${JSON.stringify(witness)}] }\n`,
    ),
  );
  // goal_agent answers after a minute: the session is cancelled while it waits.
  writeScript(
    root,
    exampleScript({
      responses: {
        goal_agent: [{ json: JSON.parse(exampleScript()).responses.goal_agent[0].json, delay_ms: 60_000 }],
      },
    }),
  );
  const daemon = await startDaemon(root);
  dropJson(root, 'note.json', { request: 'Summarize: Ana sends the budget.', request_id: 'audited-1' });
  const session = await waitFor('the session', () => sessionOfRequest(root, 'audited-1'));
  await waitFor('its first message', () => sessionOfRequest(root, 'audited-1')!.messages.length === 1);
  dropControl(root, 'stop.json', { control: 'cancel', session_id: session.sessionId, reason: 'audit me' });
  await waitFor('cancelled', () => readResult(root, 'audited-1')?.status === 'cancelled', {
    detail: () => daemon.stderrTail(),
  });
  expect((await daemon.stop()).code).toBe(0);
  const logs = path.join(root, 'system', 'logs');
  logFile = path.join(
    logs,
    readdirSync(logs).find((name) => name.endsWith('.log'))!,
  );
  signed = readFileSync(logFile, 'utf8');
}, 240_000);

afterAll(cleanupAll);
afterAll(removeTempFolders);

/** The log with its bodies changed by `edit` and chained again consistently, with the head record to match. */
function rechained(edit: (bodies: string[]) => string[]): void {
  const bodies = edit(signed.split(ENTRY_END).filter((body) => body !== ''));
  let previous = GENESIS_HASH;
  let text = '';
  for (const body of bodies) {
    previous = computeEntryHash(previous, body);
    text += `${body}[ENTRY_HASH: ${previous}]\n---\n`;
  }
  writeFileSync(logFile, text);
  const headFile = path.join(root, 'system', 'state', 'audit-head.json');
  const head = JSON.parse(readFileSync(headFile, 'utf8')) as Record<string, unknown>;
  writeFileSync(
    headFile,
    JSON.stringify({
      ...head,
      entries: bodies.length,
      hash: previous,
      message_id: /\[MESSAGE_ID: (.*)\]/.exec(bodies.at(-1)!)![1],
    }),
  );
}

describe('operator entries in the signed chain', () => {
  it('verify and verify --key pass with the operator entry in the chain', async () => {
    expect(signed).toMatch(
      /\[AGENT: operator\]\n\[INPUT SOURCE: operator\]\n\[INPUT\]: audit me\n\[OUTPUT TYPE: control\]\n\[STATUS: cancelled\] Cancelled by /,
    );
    expect(signed).toMatch(
      /\[CONTROL\]: \{"action":"cancel","by":"[^"]+","reason":"audit me","at":"[^"]+"\}\n\[ENTRY_HASH/,
    );
    const plain = await runCli(['verify', '--root', root]);
    expect(plain.code, plain.stdout).toBe(0);
    expect(plain.stdout).toMatch(/audit chain intact: 2 entries/);
    const keyed = await runCli(['verify', '--root', root, '--key', publicKey, '--witness', witness]);
    expect(keyed.code, keyed.stdout).toBe(0);
    expect(keyed.stdout).toMatch(/the newest covering 2 entries/);
  }, 60_000);

  it('catches an edited operator entry (who cancelled), naming it', async () => {
    writeFileSync(logFile, signed.replace(/"by":"[^"]+"/, '"by":"somebody-else"'));
    const checked = await runCli(['verify', '--root', root]);
    expect(checked.code).toBe(1);
    const operatorId = /\[AGENT: operator\][^]*?\[MESSAGE_ID: (.*)\]/.exec(signed)![1]!;
    expect(checked.stdout).toContain(operatorId);
    writeFileSync(logFile, signed);
  }, 60_000);

  it('catches a forged or a removed operator entry even when the chain was rewritten to match', async () => {
    rechained((bodies) => bodies.map((body) => body.replace('[INPUT]: audit me', '[INPUT]: nothing happened')));
    expect((await runCli(['verify', '--root', root])).code).toBe(0);
    const forged = await runCli(['verify', '--root', root, '--key', publicKey, '--witness', witness]);
    expect(forged.code).toBe(1);
    expect(forged.stdout).toMatch(/signed checkpoint contradicted/);

    rechained((bodies) => bodies.filter((body) => !body.includes('[AGENT: operator]')));
    expect((await runCli(['verify', '--root', root])).code).toBe(0);
    const removed = await runCli(['verify', '--root', root, '--key', publicKey, '--witness', witness]);
    expect(removed.code).toBe(1);
    expect(removed.stdout).toMatch(/the logs hold only 1 entries: the last 1 were cut/);
    writeFileSync(logFile, signed);
  }, 60_000);
});
