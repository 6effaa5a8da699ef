/**
 * The web view at /ui (README "Web view"), behind the API's auth: a browser signs in once with its
 * bearer token, kept in an HttpOnly, SameSite=Strict cookie that the auth hook reads when no
 * Authorization header is sent. Answers go through the same reply file as the API.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { isLogDate, readLogEntries, type LoggedEntry } from '../audit/audit-log-reader.js';
import { AuditLogFormatError } from '../audit/audit-errors.js';
import { mayActOn, maySee, readsEverything, type Caller } from '../http/http-auth.js';
import { HttpProblem, problemOf, type ProblemCode } from '../http/http-problem.js';
import { errorMessage } from '../errors.js';
import { callerOf, stringParam, type RouteContext } from '../http/http-routes.js';
import type { WebView, WebViewOptions } from '../http/http-server.js';
import { renderDayBody, renderDaysBody, sessionHref } from './audit-pages.js';
import { LISTING_STATUSES } from '../store/session-listing.js';
import { querySessions, type SessionPage, type SessionQuery } from './session-list.js';
import { renderQueuedBody, renderSessionBody } from './session-page.js';
import { controlBody, formDecision, forwardedCredentials, sentNotice, UI_ACTIONS } from './session-actions.js';
import { conversationBlock } from './conversation-page.js';
import { escapeHtml, liveUpdates, renderPage, statusBadge, WEB_CONTENT_SOURCES } from './web-page.js';

export const UI_COOKIE = 'govflow_token';
const PAGE_SIZE = 50;

/** The `Authorization` value a signed-in browser's cookie stands for, if it has one. */
export function cookieAuthorization(cookieHeader: string | undefined): string | undefined {
  for (const part of (cookieHeader ?? '').split(';')) {
    const [name, ...value] = part.trim().split('=');
    if (name === UI_COOKIE && value.length > 0) {
      try {
        return `Bearer ${decodeURIComponent(value.join('='))}`;
      } catch {
        return undefined;
      }
    }
  }
  return undefined;
}

/** Pages a browser reaches before it has signed in. */
export function isPublicUiPath(url: string): boolean {
  return url.split('?')[0] === '/ui/login';
}

export function isUiPath(url: string): boolean {
  return url === '/ui' || url.startsWith('/ui/') || url.startsWith('/ui?');
}

function html(reply: FastifyReply, page: string, status = 200): FastifyReply {
  return reply.code(status).type('text/html; charset=utf-8').header('cache-control', 'no-store').send(page);
}

function queryText(request: FastifyRequest, name: string): string | null {
  const value = (request.query as Record<string, unknown>)[name];
  return typeof value === 'string' && value !== '' ? value : null;
}

function loginPage(message: string | null): string {
  return renderPage({
    title: 'Sign in',
    user: null,
    body:
      `<h1>Sign in</h1>
${message ? `<p class="warning" role="alert">${escapeHtml(message)}</p>` : ''}
<form method="post" action="/ui/login">
<label for="token">Bearer token (the one <code>govflow token add USER</code> printed)<input id="token" name="token" type="password" ` +
      `autocomplete="current-password" required></label>
<p><button type="submit">Sign in</button></p>
</form>`,
  });
}

async function sessionsBody(
  index: { query: (query: SessionQuery) => Promise<SessionPage> },
  caller: Caller,
  request: FastifyRequest,
): Promise<string> {
  const status = queryText(request, 'status');
  const search = queryText(request, 'q');
  const page = Number(queryText(request, 'page') ?? '1') || 1;
  const result = await index.query({
    status,
    search,
    page,
    pageSize: PAGE_SIZE,
    user: readsEverything(caller) ? null : caller.user,
  });
  const link = (changes: Record<string, string | number | null>) => {
    const params = new URLSearchParams();
    const merged = { status, q: search, page: result.page, ...changes };
    for (const [key, value] of Object.entries(merged))
      if (value !== null && value !== '' && !(key === 'page' && value === 1)) params.set(key, String(value));
    const text = params.toString();
    return `/ui/sessions${text ? `?${text}` : ''}`;
  };
  const options = [
    '<option value="">all</option>',
    ...LISTING_STATUSES.map(
      (name) =>
        `<option value="${name}"${name === status ? ' selected' : ''}>${name}${result.byStatus[name] ? ` (${result.byStatus[name]})` : ''}</option>`,
    ),
  ];
  const rows = result.rows.map(
    (row) =>
      `<tr><td><a href="${escapeHtml(sessionHref(row.sessionId))}">${escapeHtml(row.sessionId)}</a></td><td>` +
      `${statusBadge(row.status)}${row.state !== row.status ? ` <small>${escapeHtml(row.state)}</small>` : ''}</td><td>` +
      `${escapeHtml(row.requestId)}</td><td>${escapeHtml(row.user)}</td><td>` +
      `${escapeHtml(row.requestText.slice(0, 120))}${row.requestText.length > 120 ? '…' : ''}</td><td>${row.messages}</td><td>` +
      `${escapeHtml(row.currentAgent ?? '—')}</td><td>${escapeHtml(row.startedAt ?? 'not yet')}</td></tr>`,
  );
  return (
    `<h1>Sessions</h1>
<form class="filters" method="get" action="/ui/sessions" role="search">
<label for="status">Status<select id="status" name="status">${options.join('')}</select></label>
<label for="q">Search (session, request id or text, agent)<input id="q" name="q" type="search" value="${escapeHtml(search ?? '')}"></label>
<button type="submit">Filter</button>
</form>
<p>${result.total} sessions${status ? ` with status ${escapeHtml(status)}` : ''}${search ? ` matching “${escapeHtml(search)}”` : ''}; ` +
    `page ${result.page} of ${result.pages}.</p>
${
  rows.length === 0
    ? '<p>No session matches.</p>'
    : `<table><thead><tr><th scope="col">session</th><th scope="col">status</th><th ` +
      `scope="col">request</th><th scope="col">user</th><th scope="col">request text</th><th scope="col">messages</th><th ` +
      `scope="col">agent</th><th scope="col">started</th></tr></thead><tbody>${rows.join('\n')}</tbody></table>`
}
<nav class="pager" aria-label="pages">${
      result.page > 1 ? `<a href="${escapeHtml(link({ page: result.page - 1 }))}">previous ` + `page</a>` : ''
    }${result.page < result.pages ? `<a href="${escapeHtml(link({ page: result.page + 1 }))}">next page</a>` : ''}</nav>`
  );
}

/** The line a page shows after the form at ?sent=… went to the inbox (`session`: a fork's new session). */
async function sessionEntries(context: RouteContext, sessionId: string): Promise<LoggedEntry[]> {
  try {
    return (await readLogEntries(context.paths.logs)).filter((entry) => entry.sessionId === sessionId);
  } catch (error) {
    if (error instanceof AuditLogFormatError) return [];
    throw error;
  }
}

export function registerWebRoutes(app: FastifyInstance, context: RouteContext, options: WebViewOptions): void {
  // The API's listing rows: this root's sessions indexed in memory, or (cluster mode) Postgres's at each request.
  const index = { query: async (query: SessionQuery) => querySessions(await context.sessionRows(), query) };
  void app.register(async (scope) => {
    // HTML forms post url-encoded bodies; only the /ui routes accept them.
    scope.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_request, body, done) => {
      done(null, Object.fromEntries(new URLSearchParams(String(body))));
    });

    // Errors as pages a person reads (the API's JSON shape is for programs).
    scope.setErrorHandler((error, request, reply) => {
      const problem = problemOf(error, Number.MAX_SAFE_INTEGER);
      if (problem.status >= 500)
        options.log?.error('web view: page failed', { url: request.url.slice(0, 200), error: errorMessage(error) });
      const caller = (request as FastifyRequest & { caller?: Caller | null }).caller ?? null;
      void html(
        reply,
        renderPage({
          title: `Error ${problem.status}`,
          user: caller?.user ?? null,
          body:
            `<h1>${problem.status}: ${escapeHtml(problem.code.replace('_', ' '))}</h1>\n<p ` +
            `role="alert">${escapeHtml(problem.message)}</p>\n<p><a href="/ui/sessions">Back to the sessions</a></p>`,
        }),
        problem.status,
      );
    });

    // The web view's address, as typed with or without the slash.
    scope.get('/ui', async (_request, reply) => reply.redirect('/ui/sessions'));
    scope.get('/ui/', async (_request, reply) => reply.redirect('/ui/sessions'));

    scope.get('/ui/login', async (_request, reply) =>
      options.tokensEnabled() ? html(reply, loginPage(null)) : reply.redirect('/ui/sessions'),
    );

    scope.post('/ui/login', async (request, reply) => {
      const token = String((request.body as Record<string, unknown> | null)?.token ?? '').trim();
      try {
        await options.authenticate(`Bearer ${token}`);
      } catch {
        return html(
          reply,
          loginPage('That token is not one of http.tokens. Check it, or create one with: govflow token add USER'),
          401,
        );
      }
      return reply
        .header('set-cookie', `${UI_COOKIE}=${encodeURIComponent(token)}; Path=/; HttpOnly; SameSite=Strict`)
        .redirect('/ui/sessions', 303);
    });

    scope.get('/ui/sessions', async (request, reply) => {
      const caller = callerOf(request);
      return html(
        reply,
        renderPage({ title: 'Sessions', user: caller.user, body: await sessionsBody(index, caller, request) }),
      );
    });

    /** The session the URL names, its view and the caller; 404 when the caller may not see it. Only its user may answer it. */
    const visibleSession = (request: FastifyRequest) => {
      const caller = callerOf(request);
      const sessionId = stringParam(request, 'session_id');
      const view = context.lookup.session(sessionId);
      if (!view || !maySee(caller, view.user))
        throw new HttpProblem(404, 'not_found', `no session "${sessionId.slice(0, 140)}" that you may see`);
      const mayAnswer = mayActOn(caller, view.user);
      return { caller, sessionId, view, mayAnswer };
    };

    /** A session accepted but not started (no journal yet): its listing, when the caller may see it. */
    const queuedSession = async (request: FastifyRequest) => {
      const caller = callerOf(request);
      const sessionId = stringParam(request, 'session_id');
      if (context.lookup.session(sessionId)) return null;
      const summary = await context.listing.summary(sessionId);
      return summary && summary.status === 'queued' && maySee(caller, summary.user)
        ? { caller, summary, mayAct: mayActOn(caller, summary.user) }
        : null;
    };

    scope.get('/ui/sessions/:session_id', async (request, reply) => {
      let queued = await queuedSession(request);
      // Right after a control form (`sent=`), a queued session may be between its claim and its first
      // journal record (a cancel makes and ends it at once): give it a moment rather than a 404.
      const asked = stringParam(request, 'session_id');
      for (let tries = 0; !queued && queryText(request, 'sent') && tries < 100; tries++) {
        if (context.lookup.session(asked)) break;
        await sleep(50);
        queued = await queuedSession(request);
      }
      if (queued) {
        const notice = sentNotice(queryText(request, 'sent'), null);
        return html(
          reply,
          renderPage({
            title: `Session ${queued.summary.session_id}`,
            user: queued.caller.user,
            body: renderQueuedBody(queued.summary, queued.mayAct, notice),
          }),
        );
      }
      const { caller, sessionId, view, mayAnswer } = visibleSession(request);
      const records = context.reads.records(sessionId);
      const page = renderSessionBody({
        sessionId,
        records,
        entries: await sessionEntries(context, sessionId),
        snapshotsDir: context.paths.snapshots,
        mayAnswer,
        mayAct: mayAnswer,
        notice: sentNotice(queryText(request, 'sent'), queryText(request, 'session')),
        derived: await context.listing.derivedFrom(sessionId),
        conversation: await conversationBlock(
          context,
          caller,
          view.state.session.chat?.conversation_id ?? sessionId,
          sessionId,
          view.state.session.chat !== undefined,
        ),
      });
      const live = page.running || page.waiting;
      return html(
        reply,
        renderPage({
          title: page.title,
          user: caller.user,
          body: page.body,
          tail: live
            ? liveUpdates(`/v1/sessions/${encodeURIComponent(sessionId)}/events`, view.messages.length, page.waiting)
            : '',
        }),
      );
    });

    scope.get('/ui/conversations/:conversation_id', async (request, reply) => {
      const caller = callerOf(request);
      const conversationId = stringParam(request, 'conversation_id');
      const block = await conversationBlock(context, caller, conversationId, null, true);
      if (block === null)
        throw new HttpProblem(404, 'not_found', `no conversation "${conversationId.slice(0, 140)}" that you may see`);
      return html(reply, renderPage({ title: `Conversation ${conversationId}`, user: caller.user, body: block }));
    });

    scope.post('/ui/sessions/:session_id/reply', async (request, reply) => {
      const { caller, sessionId, view, mayAnswer } = visibleSession(request);
      if (!mayAnswer) throw new HttpProblem(403, 'forbidden', `only the session's user (${view.user}) can answer it`);
      if (!view.state.paused)
        throw new HttpProblem(409, 'conflict', `session "${sessionId}" is not waiting for an answer`);
      const form = (request.body as Record<string, unknown> | null) ?? {};
      const awaiting = view.state.paused.awaiting ?? 'reply';
      if (awaiting === 'intervention' || awaiting === 'halt')
        throw new HttpProblem(409, 'conflict', `session "${sessionId}" waits for a steward's decision, not an answer`);
      const decision = awaiting === 'approval' ? formDecision(form) : null;
      const body = decision ?? { reply: typeof form.reply === 'string' ? form.reply : '' };
      // The same reply file the inbox takes from a person or the API (README "Give an agent tools").
      await context.intake.reply(sessionId, body, caller.user, awaiting);
      const sent = decision === null ? '1' : decision.approve ? 'approve' : 'deny';
      return reply.redirect(`${sessionHref(sessionId)}?sent=${sent}`, 303);
    });

    // Cancel, retry, re-run, fork: the API's own control routes, called with the browser's credentials,
    // so the checks, the control file and the audit entry are the API's (docs/run-control.md).
    for (const action of UI_ACTIONS) {
      scope.post(`/ui/sessions/:session_id/${action}`, async (request, reply) => {
        // A queued session has no journal yet: only a cancel applies to it.
        const queued = action === 'cancel' ? await queuedSession(request) : null;
        let sessionId: string;
        if (queued) {
          sessionId = queued.summary.session_id;
          if (!queued.mayAct)
            throw new HttpProblem(
              403,
              'forbidden',
              `you may not cancel this session (its user is ${queued.summary.user})`,
            );
        } else {
          const visible = visibleSession(request);
          sessionId = visible.sessionId;
          if (!visible.mayAnswer)
            throw new HttpProblem(
              403,
              'forbidden',
              `you may not ${action} this session (its user is ${visible.view.user})`,
            );
        }
        const answer = await app.inject({
          method: 'POST',
          url: `/v1/sessions/${encodeURIComponent(sessionId)}/${action}`,
          headers: forwardedCredentials(request),
          payload: controlBody(action, (request.body as Record<string, unknown> | null) ?? {}),
        });
        let body: { session_id?: string; error?: { code: string; message: string } } = {};
        try {
          body = answer.json();
        } catch {
          // not JSON (a 503 while stopping): the status and text say enough
        }
        if (answer.statusCode >= 400)
          throw new HttpProblem(
            answer.statusCode,
            (body.error?.code ?? 'internal') as ProblemCode,
            body.error?.message ?? answer.body,
          );
        const query =
          action === 'cancel' ? '?sent=cancel' : `?sent=${action}&session=${encodeURIComponent(body.session_id ?? '')}`;
        return reply.redirect(`${sessionHref(sessionId)}${query}`, 303);
      });
    }

    scope.get('/ui/days', async (request, reply) =>
      html(
        reply,
        renderPage({ title: 'Audit log', user: callerOf(request).user, body: await renderDaysBody(context.paths) }),
      ),
    );

    scope.get('/ui/days/:date', async (request, reply) => {
      const caller = callerOf(request);
      const date = stringParam(request, 'date');
      if (!isLogDate(date))
        throw new HttpProblem(404, 'not_found', `"${date.slice(0, 20)}" is not a day written YYYYMMDD`);
      const visible = (entry: LoggedEntry) => readsEverything(caller) || (entry.user ?? 'local') === caller.user;
      return html(
        reply,
        renderPage({
          title: `Audit log ${date}`,
          user: caller.user,
          body: await renderDayBody(context.paths, date, visible),
        }),
      );
    });
  });
}

/** What the daemon mounts on the HTTP API. */
export const webView: WebView = {
  register: registerWebRoutes,
  isPublicPath: isPublicUiPath,
  isPath: isUiPath,
  cookieAuthorization,
  contentSources: WEB_CONTENT_SOURCES,
};
