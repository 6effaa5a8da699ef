/** The sessions page's query over the listing's rows (store/session-index.ts), in memory: status, search, page numbers. */
import type { SessionRow } from '../store/session-listing.js';

export interface SessionQuery {
  status: string | null;
  search: string | null;
  page: number;
  pageSize: number;
  /** Only sessions this user may see; null for everything. */
  user: string | null;
}

export interface SessionPage {
  rows: SessionRow[];
  total: number;
  page: number;
  pages: number;
  /** Count of every visible session per status, before the status filter. */
  byStatus: Record<string, number>;
}

/** Filters, counts and pages rows already in page order (see compareRows), in memory. */
export function querySessions(ordered: readonly SessionRow[], query: SessionQuery): SessionPage {
  const search = query.search?.trim().toLowerCase() ?? '';
  const byStatus: Record<string, number> = {};
  const matches = (row: SessionRow) =>
    (query.user === null || row.user === query.user) && (search === '' || row.searchText.includes(search));
  // One pass counts and keeps only the requested page's rows (no array of every match).
  const collect = (page: number) => {
    const first = (page - 1) * query.pageSize;
    const rows: SessionRow[] = [];
    let total = 0;
    for (const row of ordered) {
      if (!matches(row)) continue;
      byStatus[row.status] = (byStatus[row.status] ?? 0) + 1;
      if (query.status && row.status !== query.status) continue;
      if (total >= first && rows.length < query.pageSize) rows.push(row);
      total += 1;
    }
    return { rows, total };
  };
  const wanted = Math.max(1, Math.floor(query.page));
  let { rows, total } = collect(wanted);
  const pages = Math.max(1, Math.ceil(total / query.pageSize));
  const page = Math.min(wanted, pages);
  if (page !== wanted) {
    for (const key of Object.keys(byStatus)) delete byStatus[key];
    ({ rows, total } = collect(page));
  }
  return { rows, total, page, pages, byStatus };
}
