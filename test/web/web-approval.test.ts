/**
 * Answering an approval in the browser (issue 16, SPEC §10 + §14): an agent whose `write_file`
 * call needs a person's approval pauses; the session's user signs in, sees the tool and its input,
 * approves with a reason from the keyboard (or denies with a click), and watches the session go on
 * live. The decision goes to the inbox as the same reply file a person would drop there, and the
 * audit entry carries it in [APPROVALS]. Another operator neither sees nor answers the session.
 */
import { argumentsSha256 } from '../../src/message/canonical-json.js';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { tokenSha256 } from '../../src/http/http-auth.js';
import type { ScriptedProvider } from '../../src/llm/scripted-provider.js';
import { waitFor } from '../daemon/daemon-helpers.js';
import {
  agentFile,
  agentMessage,
  auditEntries,
  journalOf,
  makeTempDir,
  removeTempDirs,
  scripted,
  writeFile,
} from '../pipeline/pipeline-test-helpers.js';
import { getJson, postJson, startHttpDaemon, type HttpDaemon } from '../http/http-test-helpers.js';
import { launchChromium, skipsWithoutChromium, seesText, shoot, signIn } from './browser-helpers.js';

const skipped = skipsWithoutChromium('web approval');

const TOKENS = { alice: 'alice-approval-token', bob: 'bob-approval-token', audrey: 'audrey-approval-token' };
const REPORT_INPUT = {
  path: 'reports/q3.md',
  content:
    '# Q3 report\nSpending is on plan: https://example.org/budget/2026/q3/spending-on-plan-by-department-and-month\n',
};

let browser: Browser | null = null;
const running: HttpDaemon[] = [];
const heldCalls: Array<() => void> = [];

beforeAll(async () => {
  if (!skipped) browser = await launchChromium();
}, 60_000);

afterAll(async () => {
  await browser?.close();
});

afterEach(async () => {
  for (const release of heldCalls.splice(0)) release();
  for (const { daemon } of running.splice(0)) await daemon.stop();
  removeTempDirs();
});

/** A root whose one agent may write files, each write only after a person approves it. */
function approvalRoot(): string {
  const root = makeTempDir('govflow-web-approval-');
  writeFile(
    root,
    'govflow.config.yaml',
    [
      'timezone: UTC',
      'http:',
      '  tokens:',
      `    - { user: alice, sha256: "${tokenSha256(TOKENS.alice)}", role: operator }`,
      `    - { user: bob, sha256: "${tokenSha256(TOKENS.bob)}", role: operator }`,
      `    - { user: audrey, sha256: "${tokenSha256(TOKENS.audrey)}", role: auditor }`,
      '',
    ].join('\n'),
  );
  writeFile(root, 'context/application.md', '# App\nWrites reports.\n');
  writeFile(
    root,
    'governance/agents/writer_agent.md',
    agentFile([
      'name: writer_agent',
      'type: executional',
      'description: Writes reports.',
      'entry: true',
      'next: []',
      'content_type: report',
      'tools: [write_file]',
      'approval: [write_file]',
    ]),
  );
  return root;
}

function writerScript(): ScriptedProvider {
  return scripted({
    writer_agent: [
      { tool_calls: [{ id: 'w1', name: 'write_file', input: REPORT_INPUT }] },
      agentMessage({ content: { report: 'written' }, contentType: 'report' }),
    ],
  });
}

/** Starts the daemon, submits Alice's request and waits until its write waits for approval. */
async function pausedSession(requestId: string): Promise<{
  root: string;
  url: string;
  sessionId: string;
  provider: ScriptedProvider;
  releaseSecondCall: () => void;
}> {
  const root = approvalRoot();
  const provider = writerScript();
  const releaseSecondCall = provider.hold(2);
  heldCalls.push(releaseSecondCall);
  const started = await startHttpDaemon(root, provider);
  running.push(started);
  const { url } = started;
  const submitted = await postJson(
    `${url}/v1/requests`,
    { request: 'Write the Q3 report.', request_id: requestId },
    TOKENS.alice,
  );
  expect(submitted.status).toBe(202);
  const sessionId = submitted.body.session_id as string;
  await waitFor('the approval request', () =>
    journalOf(root, sessionId).some((record) => record.type === 'approval_request'),
  );
  return { root, url, sessionId, provider, releaseSecondCall };
}

/** Signs Alice in and opens the session from the list; the page shows the call waiting. */
async function openAsAlice(url: string, sessionId: string, width = 1280): Promise<Page> {
  const page = await signIn(browser!, url, TOKENS.alice, width);
  await page.getByRole('link', { name: sessionId }).click();
  await seesText(page.locator('h1 .status'), 'pending');
  await seesText(page.locator('#approval-tool'), 'write_file');
  await seesText(page.locator('#approval-input'), 'reports/q3.md');
  await seesText(page.locator('#pending-question'), 'writer_agent wants to call write_file');
  return page;
}

function archivedReplies(root: string): Array<Record<string, unknown>> {
  const archive = path.join(root, 'system', 'archive');
  return readdirSync(archive, { recursive: true })
    .map(String)
    .filter((name) => path.basename(name).startsWith('reply-') && name.endsWith('.json'))
    .map((name) => JSON.parse(readFileSync(path.join(archive, name), 'utf8')) as Record<string, unknown>);
}

describe.skipIf(skipped)('answering an approval in headless Chromium', () => {
  it('shows the waiting call, takes an approval with a reason from the keyboard, and follows the session to success', async () => {
    const { root, url, sessionId, releaseSecondCall } = await pausedSession('web-approve');

    // Bob, another operator, neither lists the session nor opens or answers it.
    const bob = await signIn(browser!, url, TOKENS.bob);
    await bob.getByText('No session matches.').waitFor({ state: 'visible' });
    const hidden = await bob.goto(`${url}/ui/sessions/${encodeURIComponent(sessionId)}`);
    expect(hidden?.status()).toBe(404);
    await seesText(bob.getByRole('alert'), 'that you may see');
    const bobPost = await fetch(`${url}/ui/sessions/${encodeURIComponent(sessionId)}/reply`, {
      method: 'POST',
      headers: { authorization: `Bearer ${TOKENS.bob}`, 'content-type': 'application/x-www-form-urlencoded' },
      body: 'approve=true&reason=mine+now',
      redirect: 'manual',
    });
    expect(bobPost.status).toBe(404);
    expect((await postJson(`${url}/v1/sessions/${sessionId}/reply`, { approve: true }, TOKENS.bob)).status).toBe(404);
    expect(journalOf(root, sessionId).some((record) => record.type === 'approval')).toBe(false);

    // Audrey, an auditor, reads the waiting call but gets no form, and her post is refused.
    const audrey = await signIn(browser!, url, TOKENS.audrey);
    await audrey.goto(`${url}/ui/sessions/${encodeURIComponent(sessionId)}`);
    await seesText(audrey.locator('#approval-tool'), 'write_file');
    await audrey.getByText("Only the session's user can answer.").waitFor({ state: 'visible' });
    expect(await audrey.getByRole('button', { name: 'Approve' }).count()).toBe(0);
    const audreyPost = await fetch(`${url}/ui/sessions/${encodeURIComponent(sessionId)}/reply`, {
      method: 'POST',
      headers: { authorization: `Bearer ${TOKENS.audrey}`, 'content-type': 'application/x-www-form-urlencoded' },
      body: 'approve=true',
      redirect: 'manual',
    });
    expect(audreyPost.status).toBe(403);

    // A form without a decision (no button pressed) is refused, never taken as a denial (the one
    // reply file archived at the end is Alice's approval).
    const undecided = await fetch(`${url}/ui/sessions/${encodeURIComponent(sessionId)}/reply`, {
      method: 'POST',
      headers: { authorization: `Bearer ${TOKENS.alice}`, 'content-type': 'application/x-www-form-urlencoded' },
      body: 'reason=forgot+the+button',
      redirect: 'manual',
    });
    expect(undecided.status).toBe(400);
    expect(await undecided.text()).toContain('press Approve or Deny');

    // Alice sees the tool and its input, types a reason and presses Enter: the form's first button, Approve.
    const alice = await openAsAlice(url, sessionId);
    await shoot(alice, 'session-approval.png');
    const reason = alice.getByLabel(/Reason for your decision/);
    await reason.focus();
    await alice.keyboard.type('Checked the path and the text.');
    await alice.keyboard.press('Enter');
    await seesText(alice.getByRole('status'), 'Your approval was sent');
    // Each load of the page puts the focus on that line, so a screen reader reads it first.
    const focused = () => alice.evaluate('document.activeElement && document.activeElement.id').catch(() => null);
    await waitFor('the focus on the notice', async () => (await focused()) === 'notice');

    // The tool runs; the model's next call is held, so the page shows the session running, then done.
    await seesText(alice.locator('h1 .status'), 'running', 15_000);
    // The tool creates the file, then writes it: wait for the write, not the creation (CI once read it empty).
    const report = path.join(root, 'workspace', sessionId, REPORT_INPUT.path);
    await waitFor('the approved tool call to write its file', () => existsSync(report) && statSync(report).size > 0);
    expect(readFileSync(report, 'utf8')).toBe(REPORT_INPUT.content);
    releaseSecondCall();
    await seesText(alice.locator('h1 .status'), 'success', 15_000);
    await seesText(alice.locator('#m-1'), '[APPROVALS]');
    // The step's tool call is listed under "tool calls", with the approval that let it run.
    await seesText(alice.locator('#m-1 .tool-calls'), 'write_file (w1): ok');
    expect(await alice.locator('#approval-tool').count()).toBe(0);

    // The decision went through the inbox as a reply file, and the audit entry names Alice and her reason.
    // Bound to the call the page showed (SPEC §16), and Alice as the token's user, not a claim.
    expect(archivedReplies(root)).toEqual([
      {
        session_id: sessionId,
        approve: true,
        reason: 'Checked the path and the text.',
        call_id: 'w1',
        args_sha256: argumentsSha256(REPORT_INPUT),
        http_user: 'alice',
      },
    ]);
    const entry = (await auditEntries(root)).find((candidate) => candidate.sessionId === sessionId)!;
    expect(entry.body).toMatch(/\[APPROVALS\]: \[\{[^\]]*"approve":true/);
    expect(entry.body).toMatch(/\[APPROVALS\]: [^\n]*"user":"alice"/);
    expect(entry.body).toMatch(/\[APPROVALS\]: [^\n]*"reason":"Checked the path and the text."/);
    expect((await getJson(`${url}/v1/requests/web-approve`, TOKENS.alice)).body).toMatchObject({ status: 'success' });
  }, 90_000);

  it('takes a denial by a click: the model gets the error result and the page shows the session going on', async () => {
    const { root, url, sessionId, provider, releaseSecondCall } = await pausedSession('web-deny');
    // At a phone's width the call, its input and the form fit without scrolling sideways.
    const alice = await openAsAlice(url, sessionId, 390);
    expect(
      (await alice.evaluate('document.documentElement.scrollWidth - window.innerWidth')) as number,
    ).toBeLessThanOrEqual(1);
    await alice.getByLabel(/Reason for your decision/).fill('Wrong folder.');
    await alice.getByRole('button', { name: 'Deny' }).click();
    await seesText(alice.getByRole('status'), 'Your denial was sent');

    // The model's next call starts with the refusal as the tool's result; the page shows the session running.
    const second = await provider.callStarted(2);
    expect(second.toolTurns).toBe(1);
    const refused = journalOf(root, sessionId).find((record) => record.type === 'tool_result' && record.id === 'w1');
    expect(refused).toMatchObject({ is_error: true, refused: 'approval_denied' });
    expect((refused as { output: string }).output).toContain('denied it: Wrong folder.');
    await seesText(alice.locator('h1 .status'), 'running', 15_000);
    expect(existsSync(path.join(root, 'workspace', sessionId, REPORT_INPUT.path))).toBe(false);

    releaseSecondCall();
    await seesText(alice.locator('h1 .status'), 'success', 15_000);
    expect(archivedReplies(root)).toEqual([
      {
        session_id: sessionId,
        approve: false,
        reason: 'Wrong folder.',
        call_id: 'w1',
        args_sha256: argumentsSha256(REPORT_INPUT),
        http_user: 'alice',
      },
    ]);
    const entry = (await auditEntries(root)).find((candidate) => candidate.sessionId === sessionId)!;
    expect(entry.body).toMatch(/\[APPROVALS\]: [^\n]*"approve":false[^\n]*"reason":"Wrong folder."/);
  }, 90_000);
});
