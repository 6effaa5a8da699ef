/** The web view without tokens: loopback only, every caller is `local`, no sign-in (plain HTTP, no browser). */
import { afterEach, describe, expect, it } from 'vitest';
import { exampleRoot, removeTempDirs } from '../pipeline/pipeline-test-helpers.js';
import { GatedProvider, postJson, startHttpDaemon, type HttpDaemon } from '../http/http-test-helpers.js';
import { waitFor } from '../daemon/daemon-helpers.js';

const running: HttpDaemon[] = [];
afterEach(async () => {
  for (const { daemon } of running.splice(0)) await daemon.stop();
  removeTempDirs();
});

describe('web view without tokens', () => {
  it('serves every page to the local user, links each session by its id and each day by its date, escapes request text', async () => {
    const started = await startHttpDaemon(exampleRoot(), new GatedProvider());
    running.push(started);
    const { url } = started;
    const submitted = await postJson(`${url}/v1/requests`, {
      request: 'Summarize <b>this</b> & that.',
      request_id: 'local-1',
    });
    expect(submitted.status).toBe(202);
    await waitFor(
      'the result',
      async () =>
        ((await fetch(`${url}/v1/requests/local-1`).then((response) => response.json())) as { status: string })
          .status === 'success',
    );

    const login = await fetch(`${url}/ui/login`, { redirect: 'manual' });
    expect(login.status).toBe(302);
    expect(login.headers.get('location')).toBe('/ui/sessions');
    // The web view's address with or without its trailing slash (issue 39: /ui/ was a 404).
    for (const address of ['/ui', '/ui/']) {
      const entry = await fetch(`${url}${address}`, { redirect: 'manual' });
      expect(entry.status, address).toBe(302);
      expect(entry.headers.get('location'), address).toBe('/ui/sessions');
    }

    const sessions = await fetch(`${url}/ui/sessions`);
    expect(sessions.status).toBe(200);
    expect(sessions.headers.get('content-type')).toContain('text/html');
    const list = await sessions.text();
    expect(list).toContain('signed in as local');
    expect(list).toContain(`<a href="/ui/sessions/${submitted.body.session_id}">${submitted.body.session_id}</a>`);
    expect(list).toContain('Summarize &#60;b&#62;this&#60;/b&#62; &#38; that.');
    expect(list).not.toContain('<b>this</b>');

    const page = await (await fetch(`${url}/ui/sessions/${submitted.body.session_id}`)).text();
    expect(page).toContain('<svg class="chain"');
    expect(page.match(/<section class="message /g)).toHaveLength(6);
    expect(page).toContain('[ENTRY_HASH: ');

    const days = await (await fetch(`${url}/ui/days`)).text();
    const date = /<a href="\/ui\/days\/(\d{8})">\1<\/a>/.exec(days)?.[1];
    expect(date).toBeDefined();
    expect(days).toContain('Audit chain intact: 6 entries in 1 file.');
    const day = await (await fetch(`${url}/ui/days/${date}`)).text();
    expect(day).toContain('audit chain intact: 6 entries in 1 file');
    expect((await fetch(`${url}/ui/days/2026-01-01`)).status).toBe(404);
    expect((await fetch(`${url}/ui/sessions/no-such-session`)).status).toBe(404);
  });
});
