/**
 * folder-receipt.ts on real folders: a request folder is copied into files of the daemon's own
 * before it leaves the inbox (a descriptor its sender kept open writes to a file nobody reads), a
 * hard-linked file refuses the whole folder, and every state a crash can leave in
 * system/processing/ is finished at the next start (finishReceipts).
 */
import { closeSync, existsSync, linkSync, mkdirSync, openSync, readFileSync, statSync, writeSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { finishReceipts, receiveFolder, type Receipt } from '../../src/intake/folder-receipt.js';
import { writeTree } from '../daemon/attachments-support.js';
import { makeTempFolder, removeTempFolders } from '../support/temp-dirs.js';

afterEach(removeTempFolders);

function setup() {
  const root = makeTempFolder('govflow-receipt-');
  const inbox = path.join(root, 'inbox');
  const processing = path.join(root, 'processing');
  mkdirSync(inbox);
  mkdirSync(processing);
  const options = {
    processing,
    limits: { max_files: 5, max_bytes: 1000 },
    maxRequestBytes: 1000,
    durable: false,
  };
  return { root, inbox, processing, options };
}

describe('receiveFolder', () => {
  it('claims a copy of its own: the sender writing through a kept descriptor changes nothing', async () => {
    const { inbox, processing, options } = setup();
    const folder = path.join(inbox, 'invoice');
    writeTree(folder, { 'request.txt': 'Check it.', 'annex/invoice.txt': 'Total: 100 EUR' });
    const kept = openSync(path.join(folder, 'annex', 'invoice.txt'), 'r+');
    expect(await receiveFolder(folder, '1-abcdef-invoice', options)).toEqual({ kind: 'received' });
    writeSync(kept, 'Total: 999999 EUR', 0);
    closeSync(kept);
    const claimed = path.join(processing, '1-abcdef-invoice');
    expect(readFileSync(path.join(claimed, 'annex', 'invoice.txt'), 'utf8')).toBe('Total: 100 EUR');
    expect(statSync(path.join(claimed, 'annex', 'invoice.txt')).mode & 0o777).toBe(0o600);
    expect(statSync(path.join(claimed, 'annex')).mode & 0o777).toBe(0o700);
    expect(existsSync(folder)).toBe(false);
    expect(existsSync(path.join(processing, '.received-1-abcdef-invoice'))).toBe(false);
  });

  it('refuses a folder with a hard-linked file, naming it, and hands the sender’s folder over as it was', async () => {
    const { root, inbox, options } = setup();
    const outside = path.join(root, 'outside.txt');
    writeTree(root, { 'outside.txt': 'secret' });
    const folder = path.join(inbox, 'linked');
    writeTree(folder, { 'request.txt': 'Read it.' });
    linkSync(outside, path.join(folder, 'copy.txt'));
    const receipt = (await receiveFolder(folder, '2-abcdef-linked', options)) as Extract<Receipt, { kind: 'refused' }>;
    expect(receipt.kind).toBe('refused');
    expect(receipt.reason).toMatch(/"copy\.txt" has 2 hard links/);
    expect(readFileSync(path.join(receipt.claimedPath, 'copy.txt'), 'utf8')).toBe('secret');
  });

  it('answers null when the folder left the inbox before its claim', async () => {
    const { inbox, options } = setup();
    expect(await receiveFolder(path.join(inbox, 'gone'), '3-abcdef-gone', options)).toBeNull();
  });
});

describe('finishReceipts after a crash', () => {
  it('copies a claimed folder whose copy is not in place, drops a finished one and a copy never claimed', async () => {
    const { processing, options } = setup();
    writeTree(path.join(processing, '.received-4-abcdef-cut'), { 'request.txt': 'Cut.', 'a.txt': 'A' });
    writeTree(path.join(processing, '.receiving-4-abcdef-cut.tmp'), { 'request.txt': 'half' });
    writeTree(path.join(processing, '.received-5-abcdef-done'), { 'request.txt': 'Done.' });
    writeTree(path.join(processing, '5-abcdef-done'), { 'request.txt': 'Done.' });
    writeTree(path.join(processing, '.receiving-6-abcdef-never.tmp'), { 'request.txt': 'Never.' });
    const finished: Array<[string, Receipt]> = [];
    await finishReceipts(options, (claimName, receipt) => finished.push([claimName, receipt]));
    expect(finished).toEqual([['4-abcdef-cut', { kind: 'received' }]]);
    expect(readFileSync(path.join(processing, '4-abcdef-cut', 'a.txt'), 'utf8')).toBe('A');
    expect(readFileSync(path.join(processing, '4-abcdef-cut', 'request.txt'), 'utf8')).toBe('Cut.');
    for (const leftover of [
      '.received-4-abcdef-cut',
      '.receiving-4-abcdef-cut.tmp',
      '.received-5-abcdef-done',
      '.receiving-6-abcdef-never.tmp',
    ])
      expect(existsSync(path.join(processing, leftover)), leftover).toBe(false);
  });
});
