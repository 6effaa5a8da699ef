/**
 * Shared helpers for the web view's Chromium tests: the launch (Debian's /usr/bin/chromium through
 * playwright-core, headless with the flags issue 16 names), the skip rule when it is absent, the
 * sign-in, waits on text and counts (no sleeps), and screenshots to a temp folder or to
 * GOVFLOW_SCREENSHOTS_DIR (docs/screenshots/ for the README).
 */
import { tmpdir } from 'node:os';
import { existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { expect } from 'vitest';
import { chromium, type Browser, type Locator, type Page } from 'playwright-core';
import { waitFor } from '../daemon/daemon-helpers.js';
import { skipsFor } from '../support/machine-requirement.js';
import { REPOSITORY_ROOT } from '../pipeline/pipeline-test-helpers.js';

export const CHROMIUM = '/usr/bin/chromium';
export const hasChromium = existsSync(CHROMIUM);

/** True when the browser tests of `what` skip (Chromium absent); in CI that is a failure instead. */
export function skipsWithoutChromium(what: string): boolean {
  return skipsFor(`${what} browser tests`, hasChromium ? null : `${CHROMIUM} is missing (apt-get install -y chromium)`);
}

// Tests write their screenshots to a temp folder; refresh the README's pictures with
// GOVFLOW_SCREENSHOTS_DIR=docs/screenshots npx vitest run test/web
const SCREENSHOTS = process.env.GOVFLOW_SCREENSHOTS_DIR
  ? path.resolve(REPOSITORY_ROOT, process.env.GOVFLOW_SCREENSHOTS_DIR)
  : path.join(tmpdir(), 'govflow-screenshots');

export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
      '--disable-quic',
    ],
  });
}

/** Opens /ui in a new page, signs in with `token` and lands on the sessions page. */
export async function signIn(browser: Browser, url: string, token: string, width = 1280): Promise<Page> {
  const page = await browser.newPage({ viewport: { width, height: 900 } });
  await page.goto(`${url}/ui`);
  expect(page.url()).toBe(`${url}/ui/login`);
  await page.getByLabel(/Bearer token/).fill(token);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL(`${url}/ui/sessions`);
  return page;
}

/** Waits until the (first) element's text contains `text`. */
export async function seesText(locator: Locator, text: string, timeoutMs = 10_000): Promise<void> {
  let lastPageText = '';
  await waitFor(
    `text "${text}"`,
    async () => {
      lastPageText = await locator
        .page()
        .locator('body')
        .innerText({ timeout: 1_000 })
        .catch(() => lastPageText);
      return (
        (await locator
          .first()
          .textContent({ timeout: 1_000 })
          .catch(() => '')) ?? ''
      ).includes(text);
    },
    {
      timeoutMs,
      // On a timeout, what the page showed instead (its address and text), to tell why.
      detail: () => `page ${locator.page().url()}: ${lastPageText.slice(0, 600)}`,
    },
  );
}

export async function seesCount(locator: Locator, count: number, timeoutMs = 10_000): Promise<void> {
  await waitFor(`${count} elements`, async () => (await locator.count()) === count, {
    timeoutMs,
    detail: () => `last count differs from ${count}`,
  });
}

export async function shoot(page: Page, name: string): Promise<void> {
  mkdirSync(SCREENSHOTS, { recursive: true });
  await page.screenshot({ path: path.join(SCREENSHOTS, name), fullPage: true });
}
