/**
 * The web view in a real headless Chromium (playwright-core driving Debian's /usr/bin/chromium):
 * sign in with a token, filter and search the sessions, open a session with its chain diagram,
 * watch a running session update live, answer a pending question through the same reply file as
 * the API, and see a tampered log day flagged. Screenshots of each page go to a temp folder, or to
 * GOVFLOW_SCREENSHOTS_DIR (docs/screenshots/ for the README).
 */
import { existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { tokenSha256 } from '../../src/http/http-auth.js';
import { waitFor } from '../daemon/daemon-helpers.js';
import { exampleRoot, removeTempDirs } from '../pipeline/pipeline-test-helpers.js';
import { GatedProvider, postJson, startHttpDaemon, type HttpDaemon } from '../http/http-test-helpers.js';
import {
  launchChromium,
  skipsWithoutChromium,
  seesCount,
  seesText,
  shoot,
  signIn as signInWith,
} from './browser-helpers.js';

const skipped = skipsWithoutChromium('web UI');

const TOKENS = { alice: 'alice-web-token', bob: 'bob-web-token', audrey: 'audrey-web-token' };
const CONFIG = [
  'http:',
  '  tokens:',
  `    - { user: alice, sha256: "${tokenSha256(TOKENS.alice)}", role: operator }`,
  `    - { user: bob, sha256: "${tokenSha256(TOKENS.bob)}", role: operator }`,
  `    - { user: audrey, sha256: "${tokenSha256(TOKENS.audrey)}", role: auditor }`,
  '',
].join('\n');

let browser: Browser | null = null;
const running: HttpDaemon[] = [];

beforeAll(async () => {
  if (skipped) return;
  browser = await launchChromium();
}, 60_000);

afterAll(async () => {
  await browser?.close();
});

afterEach(async () => {
  for (const { daemon } of running.splice(0)) await daemon.stop();
  removeTempDirs();
});

function signIn(url: string, token: string, width = 1280): Promise<Page> {
  return signInWith(browser!, url, token, width);
}

describe.skipIf(skipped)('web view in headless Chromium', () => {
  it('signs in, filters and searches sessions, shows a session live, answers its question, flags a tampered day', async () => {
    const provider = new GatedProvider({ gated: true, pendingOnce: 'objective_agent' });
    const root = exampleRoot(CONFIG);
    const started = await startHttpDaemon(root, provider);
    running.push(started);
    const { url } = started;

    // Alice's first request stops on a question; Bob runs one of his own to the end.
    const asked = await postJson(
      `${url}/v1/requests`,
      { request: 'Summarize the budget meeting.', request_id: 'alice-question' },
      TOKENS.alice,
    );
    expect(asked.status).toBe(202);
    provider.release(1);
    await waitFor('the pending result', () => existsSync(path.join(root, 'system', 'outbox', 'alice-question.json')));
    const bobs = await postJson(
      `${url}/v1/requests`,
      { request: 'List the action items of the venue call.', request_id: 'bob-done' },
      TOKENS.bob,
    );
    provider.release(6);
    await waitFor("bob's result", () => existsSync(path.join(root, 'system', 'outbox', 'bob-done.json')));

    // Alice sees only her session; the status filter and the search narrow the list.
    const alice = await signIn(url, TOKENS.alice);
    await alice.getByRole('link', { name: asked.body.session_id }).waitFor({ state: 'visible' });
    expect(await alice.getByRole('link', { name: bobs.body.session_id }).count()).toBe(0);
    await alice.getByLabel('Status').selectOption('success');
    await alice.getByRole('button', { name: 'Filter' }).click();
    await alice.getByText('No session matches.').waitFor({ state: 'visible' });
    await alice.getByLabel('Status').selectOption('paused');
    await alice.getByLabel(/Search/).fill('budget meeting');
    await alice.getByRole('button', { name: 'Filter' }).click();
    await alice.getByRole('link', { name: asked.body.session_id }).waitFor({ state: 'visible' });
    await shoot(alice, 'sessions.png');

    // The paused session: its chain, the question, and the answer form.
    await alice.getByRole('link', { name: asked.body.session_id }).click();
    await seesText(alice.locator('#pending-question'), 'Which budget do you mean?');
    await alice.locator('svg.chain').waitFor({ state: 'visible' });
    await seesCount(alice.locator('svg.chain a'), 1);
    await alice.locator('#m-1 h4', { hasText: 'audit entry' }).waitFor({ state: 'visible' });
    expect(await alice.locator('#m-1').textContent()).toContain('[ENTRY_HASH: ');
    await shoot(alice, 'session-pending.png');

    // The answer goes to the inbox as a reply file; the session then runs on, and the page follows it live.
    await alice.getByLabel(/Your answer/).fill('The Q3 marketing budget.');
    await alice.getByRole('button', { name: 'Send answer' }).click();
    await seesText(alice.getByRole('status'), 'Your answer was sent');
    await provider.waitForCalls(8);
    await alice.reload();
    await seesText(alice.locator('h1 .status'), 'running');
    provider.release(1);
    await seesCount(alice.locator('svg.chain a'), 2, 15_000);
    provider.release(10);
    await seesText(alice.locator('h1 .status'), 'success', 15_000);
    await seesCount(alice.locator('svg.chain a'), 7);
    await shoot(alice, 'session.png');
    const replyLog = readdirSync(path.join(root, 'system', 'archive'), { recursive: true }).map(String);
    expect(replyLog.some((name) => name.includes('reply-'))).toBe(true);

    // The audit log: intact, then tampered and flagged with its first bad entry.
    const auditor = await signIn(url, TOKENS.audrey);
    await auditor.goto(`${url}/ui/days`);
    const [logName] = readdirSync(path.join(root, 'system', 'logs')).filter((name) => name.endsWith('.log'));
    const date = logName.slice(0, 8);
    await auditor.getByRole('link', { name: date }).click();
    await seesText(auditor.locator('.verify'), 'intact');
    await auditor.getByRole('link', { name: bobs.body.session_id }).first().waitFor({ state: 'visible' });
    await shoot(auditor, 'day.png');
    const logFile = path.join(root, 'system', 'logs', logName);
    writeFileSync(logFile, readFileSync(logFile, 'utf8').replace('[AGENT: goal_agent]', '[AGENT: goal_agenT]'));
    await auditor.reload();
    await seesText(auditor.locator('.verify').first(), 'verify failed');
    await seesText(auditor.locator('#first-bad-entry'), 'first bad entry');
    await shoot(auditor, 'day-tampered.png');
    await auditor.goto(`${url}/ui/days`);
    await auditor.getByRole('cell', { name: /verify failed at line \d+/ }).waitFor({ state: 'visible' });

    // An auditor reads any session but cannot answer; a phone-width page still fits.
    await auditor.goto(`${url}/ui/sessions/${encodeURIComponent(bobs.body.session_id)}`);
    await seesText(auditor.locator('h1 .status'), 'success');
    const phone = await signIn(url, TOKENS.bob, 390);
    // Evaluated in the page (a string: the test's own TypeScript has no DOM types).
    const overflow = (await phone.evaluate('document.documentElement.scrollWidth - window.innerWidth')) as number;
    expect(overflow).toBeLessThanOrEqual(1);
    await shoot(phone, 'sessions-phone.png');
    // Bob may not see Alice's session: the page says so, as HTML, with a 404.
    const denied = await phone.goto(`${url}/ui/sessions/${encodeURIComponent(asked.body.session_id)}`);
    expect(denied?.status()).toBe(404);
    await seesText(phone.getByRole('alert'), 'that you may see');
  }, 120_000);

  it('keeps every page behind the sign-in and rejects a wrong token', async () => {
    const root = exampleRoot(CONFIG);
    const started = await startHttpDaemon(root, new GatedProvider());
    running.push(started);
    const response = await fetch(`${started.url}/ui/days`, { redirect: 'manual' });
    expect(response.status).toBe(303);
    expect(response.headers.get('location')).toBe('/ui/login');
    const page = await browser!.newPage();
    await page.goto(`${started.url}/ui/login`);
    await page.getByLabel(/Bearer token/).fill('not-a-token');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await seesText(page.getByRole('alert'), 'not one of http.tokens');
  }, 60_000);
});
