/**
 * Run control in the browser (SPEC §18 "Web view", issue 43): a session's page offers Cancel to
 * whoever may act on it while it runs, and Retry, Re-run and Fork from a step (per message) once it
 * ended, each with a reason box; the forms go through the API's control routes. Lineage links both
 * ways: the original lists what was made from it, the new session names its original. Operators
 * act on their own sessions only, auditors on none, admins on all; without tokens the `local` user
 * acts. The pages run under the Content-Security-Policy with no violation.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { tokenSha256 } from '../../src/http/http-auth.js';
import { waitFor } from '../daemon/daemon-helpers.js';
import { exampleRoot, removeTempDirs } from '../pipeline/pipeline-test-helpers.js';
import { GatedProvider, getJson, postJson, startHttpDaemon, type HttpDaemon } from '../http/http-test-helpers.js';
import { launchChromium, seesText, shoot, signIn, skipsWithoutChromium } from './browser-helpers.js';

const skipped = skipsWithoutChromium('web run control');

const TOKENS = { alice: 'alice-act-token', bob: 'bob-act-token', audrey: 'audrey-act-token', ada: 'ada-act-token' };
const CONFIG = [
  'http:',
  '  tokens:',
  `    - { user: alice, sha256: "${tokenSha256(TOKENS.alice)}", role: operator }`,
  `    - { user: bob, sha256: "${tokenSha256(TOKENS.bob)}", role: operator }`,
  `    - { user: audrey, sha256: "${tokenSha256(TOKENS.audrey)}", role: auditor }`,
  `    - { user: ada, sha256: "${tokenSha256(TOKENS.ada)}", role: admin }`,
  '',
].join('\n');
/** Model calls of one example-app session: objective, goal, planning, two tasks, final. */
const CALLS_PER_SESSION = 6;

let browser: Browser | null = null;
const running: Array<{ started: HttpDaemon; provider: GatedProvider }> = [];
/** CSP violations any page reported, by page URL. */
const violations: string[] = [];

beforeAll(async () => {
  if (!skipped) browser = await launchChromium();
}, 60_000);

afterAll(async () => {
  await browser?.close();
});

afterEach(async () => {
  violations.length = 0;
  for (const { started, provider } of running.splice(0)) {
    provider.release(100);
    // Cleanup, not a test of draining: a second stop ends running steps at once, so the slow steps
    // of a loaded machine cannot hold this hook past its timeout (seen once in CI at 30 s).
    const stopped = started.daemon.stop();
    void started.daemon.stop();
    await stopped;
  }
  removeTempDirs();
}, 60_000);

/** Notes every CSP violation the page reports (console errors naming the policy). */
function watchPolicy(page: Page): Page {
  page.on('console', (message) => {
    if (/Content Security Policy/i.test(message.text())) violations.push(`${page.url()}: ${message.text()}`);
  });
  return page;
}

async function open(url: string, token: string): Promise<Page> {
  return watchPolicy(await signIn(browser!, url, token));
}

async function sessionStatus(url: string, sessionId: string): Promise<string> {
  const { body } = await getJson(`${url}/v1/sessions?limit=1000`, TOKENS.ada);
  return (
    (body.sessions as Array<{ session_id: string; status: string }>).find((session) => session.session_id === sessionId)
      ?.status ?? 'unlisted'
  );
}

describe.skipIf(skipped)('run control in the web view', () => {
  it('cancels a running session, re-runs and retries it, forks from a step, and links lineage both ways', async () => {
    const provider = new GatedProvider({ gated: true });
    const started = await startHttpDaemon(exampleRoot(CONFIG), provider);
    running.push({ started, provider });
    const { url } = started;
    const asked = await postJson(`${url}/v1/requests`, { request: 'Summarize the venue call.' }, TOKENS.alice);
    const original: string = asked.body.session_id;
    await provider.waitForCalls(1);

    // Who sees which controls: the owner and an admin act, an auditor reads, another operator sees nothing.
    const auditor = await open(url, TOKENS.audrey);
    await auditor.goto(`${url}/ui/sessions/${original}`);
    await seesText(auditor.locator('h1 .status'), 'running');
    expect(await auditor.getByRole('button', { name: 'Cancel session' }).count()).toBe(0);
    const bob = await open(url, TOKENS.bob);
    expect((await bob.goto(`${url}/ui/sessions/${original}`))?.status()).toBe(404);
    const bobsPost = await fetch(`${url}/ui/sessions/${original}/cancel`, {
      method: 'POST',
      headers: { authorization: `Bearer ${TOKENS.bob}`, 'content-type': 'application/x-www-form-urlencoded' },
      body: 'reason=not+mine',
      redirect: 'manual',
    });
    expect(bobsPost.status).toBe(404);

    // Alice cancels with a reason: the model call is aborted and the page follows the session to its end.
    const alice = await open(url, TOKENS.alice);
    await alice.goto(`${url}/ui/sessions/${original}`);
    await alice.getByLabel(/Reason for the cancel/).fill('Wrong venue in the request.');
    await shoot(alice, 'session-cancel.png');
    await alice.getByRole('button', { name: 'Cancel session' }).click();
    await seesText(alice.getByRole('status'), 'Your cancel was sent');
    await waitFor('the cancelled result', async () => (await sessionStatus(url, original)) === 'cancelled');
    // The page may still be live and reload itself on the session's end: a reload of ours can be
    // cut short by that one (ERR_ABORTED), so load the page until it shows the end.
    await waitFor('the page showing the cancel', async () => {
      await alice.goto(`${url}/ui/sessions/${original}`).catch(() => undefined);
      return (
        (
          await alice
            .locator('h1 .status')
            .textContent()
            .catch(() => null)
        )?.includes('cancelled') === true
      );
    });
    await seesText(alice.locator('#cancelled-by'), 'Cancelled by alice');
    await seesText(alice.locator('#cancelled-by'), 'Wrong venue in the request.');
    expect(await alice.getByRole('button', { name: 'Cancel session' }).count()).toBe(0);

    // Re-run with an edited request: the original lists it, the new session names its original.
    await alice.getByLabel(/Reason for the re-run/).fill('Venue corrected.');
    await alice
      .getByLabel(/Edited request/)
      .first()
      .fill('Summarize the venue call at the town hall.');
    await alice.getByRole('button', { name: 'Re-run' }).click();
    await seesText(alice.getByRole('status'), 'Your re-run was accepted');
    const rerunLink = alice.locator('#derived a');
    await rerunLink.first().waitFor({ state: 'visible' });
    await seesText(alice.locator('#derived'), 're-run by alice');
    const rerun = (await rerunLink.first().textContent())!;
    // One more: the cancelled call's turn is still in the provider's queue (it was aborted, not answered).
    provider.release(CALLS_PER_SESSION + 1);
    await waitFor('the re-run to succeed', async () => (await sessionStatus(url, rerun)) === 'success');
    await rerunLink.first().click();
    await seesText(alice.locator('h1 .status'), 'success');
    await seesText(alice.locator('#lineage-of'), `A re-run of session ${original}`);
    await seesText(alice.locator('#lineage-of'), 'Venue corrected.');
    await seesText(alice.locator('details[open] pre').first(), 'town hall');
    await shoot(alice, 'session-rerun.png');

    // An admin forks Alice's re-run from message 3: messages 1 and 2 are reused, the rest runs again.
    const admin = await open(url, TOKENS.ada);
    await admin.goto(`${url}/ui/sessions/${rerun}`);
    const fork3 = admin.locator('#m-3 details.fork');
    await fork3.locator('summary').click();
    await fork3.getByLabel(/Reason for the fork/).fill('Plan again under the new policy.');
    await fork3.getByRole('button', { name: 'Fork from message 3' }).click();
    await seesText(admin.getByRole('status'), 'Your fork was accepted');
    await seesText(admin.locator('#derived'), 'fork from message 3 by ada');
    const fork = (await admin.locator('#derived a').first().textContent())!;
    provider.release(CALLS_PER_SESSION - 2);
    await waitFor('the fork to succeed', async () => (await sessionStatus(url, fork)) === 'success');
    await admin.locator('#derived a').first().click();
    await seesText(admin.locator('#lineage-of'), `A fork of session ${rerun}`);
    await seesText(admin.locator('#m-1 .reused'), `Reused from session ${rerun}`);
    await seesText(admin.locator('#m-2 .reused'), 'no model call');
    expect(await admin.locator('#m-3 .reused').count()).toBe(0);
    await shoot(admin, 'session-fork.png');

    // Retry of the cancelled original (its first message never committed): from message 1.
    await admin.goto(`${url}/ui/sessions/${original}`);
    await admin.getByLabel(/Reason for the retry/).fill('Try once more.');
    await admin.getByRole('button', { name: 'Retry' }).click();
    await seesText(admin.getByRole('status'), 'Your retry was accepted');
    await seesText(admin.locator('#derived'), 'retry');
    provider.release(CALLS_PER_SESSION);
    const listed = await getJson(`${url}/v1/sessions?limit=1000`, TOKENS.ada);
    const lineages = (
      listed.body.sessions as Array<{
        session_id: string;
        lineage: { action: string; of_session: string; by: string } | null;
      }>
    )
      .filter((session) => session.lineage !== null)
      .map((session) => [session.lineage!.action, session.lineage!.of_session, session.lineage!.by]);
    expect(lineages.sort()).toEqual(
      [
        ['fork', rerun, 'ada'],
        ['rerun', original, 'alice'],
        ['retry', original, 'ada'],
      ].sort(),
    );

    // The policy held on every page (nothing reported), and inline code it does not allow by hash does not run.
    expect(violations).toEqual([]);
    await admin.addScriptTag({ content: 'window.injected = true;' }).catch(() => undefined);
    expect(await admin.evaluate('window.injected === true')).toBe(false);
    expect(violations.length).toBeGreaterThan(0);
    const header = (await admin.evaluate(
      "getComputedStyle(document.querySelector('header')).backgroundColor",
    )) as string;
    expect(header).toBe('rgb(20, 33, 61)');
  }, 120_000);

  it('lets the local user act when no tokens are set', async () => {
    const provider = new GatedProvider({ gated: true });
    const started = await startHttpDaemon(exampleRoot(), provider);
    running.push({ started, provider });
    const { url } = started;
    const asked = await postJson(`${url}/v1/requests`, { request: 'Summarize the budget.' });
    provider.release(CALLS_PER_SESSION);
    await waitFor('the result', async () => (await sessionStatus(url, asked.body.session_id)) === 'success');
    const page = watchPolicy(await browser!.newPage());
    await page.goto(`${url}/ui/sessions/${asked.body.session_id}`);
    expect(await page.getByRole('button', { name: 'Retry' }).count()).toBe(0); // it succeeded: nothing to retry
    await page.getByRole('button', { name: 'Re-run' }).click();
    await seesText(page.getByRole('status'), 'Your re-run was accepted');
    await seesText(page.locator('#derived'), 're-run by local');
    expect(violations).toEqual([]);
  }, 60_000);

  it('shows a queued session with Cancel, and cancels it before it starts', async () => {
    const provider = new GatedProvider({ gated: true });
    const started = await startHttpDaemon(exampleRoot(`${CONFIG}intake: { concurrency: 1 }\n`), provider);
    running.push({ started, provider });
    const { url } = started;
    await postJson(`${url}/v1/requests`, { request: 'Summarize the first.' }, TOKENS.alice);
    await provider.waitForCalls(1);
    const second = await postJson(`${url}/v1/requests`, { request: 'Summarize the second.' }, TOKENS.alice);
    const queued: string = second.body.session_id;
    await waitFor('the second to be listed queued', async () => (await sessionStatus(url, queued)) === 'queued');

    const auditor = await open(url, TOKENS.audrey);
    await auditor.goto(`${url}/ui/sessions/${queued}`);
    await seesText(auditor.locator('h1 .status'), 'queued');
    expect(await auditor.getByRole('button', { name: 'Cancel session' }).count()).toBe(0);

    const alice = await open(url, TOKENS.alice);
    await alice.getByLabel('Status').selectOption('queued');
    await alice.getByRole('button', { name: 'Filter' }).click();
    await alice.getByRole('link', { name: queued }).click();
    await seesText(alice.locator('h1 .status'), 'queued');
    await alice.getByLabel(/Reason for the cancel/).fill('Not needed any more.');
    await alice.getByRole('button', { name: 'Cancel session' }).click();
    await alice.waitForURL(/sent=cancel/);
    await seesText(alice.getByRole('status'), 'Your cancel was sent');
    await waitFor('the queued session cancelled', async () => (await sessionStatus(url, queued)) === 'cancelled');
    expect(provider.calls).toBe(1); // the cancelled one never reached the model
    expect(violations).toEqual([]);
  }, 60_000);
});
