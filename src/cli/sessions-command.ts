/**
 * `govflow sessions [--status S] [--user U] [--since ISO] [--limit N] [--json]` (SPEC §18): the
 * root's sessions, newest first, as the HTTP API's `GET /v1/sessions` lists them — read from the
 * root's files (no daemon needed), or from Postgres in cluster mode.
 */
import { UsageError } from '../errors.js';
import {
  ListingQueryError,
  MAX_LIST_LIMIT,
  parseListingFilters,
  type ListingQuery,
  type SessionListing,
  type SessionSummary,
} from '../store/session-listing.js';
import type { CommandDefinition } from './command-context.js';

/** Pages read at a time while walking the whole listing. */
const WALK_PAGE = MAX_LIST_LIMIT;

/** Every matching session (up to `limit`), walking the listing's cursor. */
async function walk(listing: SessionListing, query: ListingQuery, limit: number | null): Promise<SessionSummary[]> {
  const sessions: SessionSummary[] = [];
  let cursor: string | null = null;
  do {
    const wanted = limit === null ? WALK_PAGE : Math.min(WALK_PAGE, limit - sessions.length);
    const page = await listing.list({ ...query, limit: wanted, cursor });
    sessions.push(...page.sessions);
    cursor = page.next_cursor;
  } while (cursor !== null && (limit === null || sessions.length < limit));
  return sessions;
}

function lineageText(session: SessionSummary): string {
  const lineage = session.lineage;
  if (!lineage) return '';
  const from = lineage.from !== null && lineage.action === 'fork' ? ` from ${lineage.from}` : '';
  return `  ${lineage.action} of ${lineage.of_session}${from} by ${lineage.by}`;
}

function table(sessions: SessionSummary[]): string {
  if (sessions.length === 0) return 'no sessions match\n';
  const width = (pick: (session: SessionSummary) => string) =>
    Math.max(...sessions.map((session) => pick(session).length));
  const idWidth = width((session) => session.session_id);
  const statusWidth = Math.max(
    9,
    width((session) => session.status),
  );
  const userWidth = width((session) => session.user);
  const lines = sessions.map(
    (session) =>
      `${session.session_id.padEnd(idWidth)}  ${session.status.padEnd(statusWidth)}  ${session.user.padEnd(userWidth)}  ` +
      `started=${session.started_at ?? '-'}  finished=${session.finished_at ?? '-'}  request=${session.request_id}${lineageText(session)}`,
  );
  return `${lines.join('\n')}\n${sessions.length} session${sessions.length === 1 ? '' : 's'}\n`;
}

export const sessionsCommand: CommandDefinition = {
  options: {
    status: { type: 'string' },
    user: { type: 'string' },
    since: { type: 'string' },
    limit: { type: 'string' },
    json: { type: 'boolean' },
  },
  async run({ root, values, io, usage }) {
    let query: ListingQuery;
    let limit: number | null = null;
    try {
      query = parseListingFilters({
        status: values.status as string | undefined,
        user: values.user as string | undefined,
        since: values.since as string | undefined,
      });
      if (values.limit !== undefined) {
        limit = Number(values.limit);
        if (!/^\d+$/.test(String(values.limit)) || limit < 1)
          throw new ListingQueryError(`--limit must be a whole number of 1 or more, got "${String(values.limit)}"`);
      }
    } catch (error) {
      if (error instanceof ListingQueryError) throw new UsageError(`${error.message}\nusage: ${usage}`);
      throw error;
    }
    const { loadConfig } = await import('../config/config-loader.js');
    const config = loadConfig(root, io.env);
    let sessions: SessionSummary[];
    if (config.store.kind === 'postgres') {
      const { openPool, storeSettings } = await import('../cluster/postgres-connection.js');
      const { ClusterListing } = await import('../cluster/cluster-listing.js');
      const settings = storeSettings(config);
      const pool = await openPool(settings);
      try {
        sessions = await walk(new ClusterListing(pool, settings.schema, config.timezone), query, limit);
      } finally {
        await pool.end();
      }
    } else {
      const { SessionIndex } = await import('../store/session-index.js');
      const { QueuedRequests } = await import('../intake/queued-requests.js');
      const index = new SessionIndex(config.paths, {
        timezone: config.timezone,
        claims: new QueuedRequests(config.paths, config.timezone, config.intake.max_bytes),
      });
      sessions = await walk(index, query, limit);
    }
    io.stdout(values.json ? `${JSON.stringify({ sessions }, null, 2)}\n` : table(sessions));
    return 0;
  },
};
