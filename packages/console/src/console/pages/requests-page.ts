import type { LogQuery, StatusClass } from '../../log/log-query.js';
import type { RequestLog } from '../../log/request-log.js';
import { href, html } from '../html.js';
import { layout, statusBadge, time } from './layout.js';
import { tenantLabel, type PageContext } from './page-context.js';

/** The request list's filters, as the form submits them (plain GET: no script needed). */
export interface RequestFilters {
  readonly status?: string;
  readonly userName?: string;
  readonly client?: string;
  readonly resourceId?: string;
  /** Only requests of the last `15m`, `1h`, `24h` or `7d`. */
  readonly since?: string;
  readonly after?: string;
}

const SINCE_CHOICES: [string, string, number][] = [
  ['', 'any time', 0],
  ['15m', 'last 15 minutes', 15 * 60_000],
  ['1h', 'last hour', 3_600_000],
  ['24h', 'last 24 hours', 86_400_000],
  ['7d', 'last 7 days', 7 * 86_400_000],
];

const STATUS_CHOICES: [string, string][] = [
  ['', 'any'],
  ['error', 'errors (400+)'],
  ['2xx', '2xx'],
  ['4xx', '4xx'],
  ['5xx', '5xx'],
];

export function logQueryOf(tenant: string, filters: RequestFilters, limit = 50, now = Date.now()): LogQuery {
  const window = SINCE_CHOICES.find(([value]) => value !== '' && value === filters.since)?.[2];
  const status = filters.status === undefined || filters.status === '' ? undefined : /^\d{3}$/.test(filters.status) ? Number(filters.status) : ['2xx', '3xx', '4xx', '5xx', 'error'].includes(filters.status) ? (filters.status as StatusClass) : undefined;
  return {
    tenant,
    limit,
    ...(status === undefined ? {} : { status }),
    ...(filters.userName ? { userName: filters.userName } : {}),
    ...(filters.client ? { client: filters.client } : {}),
    ...(filters.resourceId ? { resourceId: filters.resourceId } : {}),
    ...(window === undefined ? {} : { from: now - window }),
    ...(filters.after ? { after: filters.after } : {}),
  };
}

/** The request log with filters, newest first, 50 a page. */
export async function requestsPage(ctx: PageContext, log: RequestLog, filters: RequestFilters): Promise<string> {
  const page = await log.query(logQueryOf(ctx.tenant, filters));
  const keep = { tenant: ctx.tenant, status: filters.status, userName: filters.userName, client: filters.client, resourceId: filters.resourceId, since: filters.since };
  const body = html`
<form class="filters" method="get" action="${ctx.base}/requests" role="search" aria-label="Filter requests">
  <input type="hidden" name="tenant" value="${ctx.tenant}">
  <label for="f-status">Status<select id="f-status" name="status">${STATUS_CHOICES.map(([value, label]) => html`<option value="${value}"${value === (filters.status ?? '') ? html` selected` : ''}>${label}</option>`)}${
    filters.status !== undefined && /^\d{3}$/.test(filters.status) ? html`<option value="${filters.status}" selected>${filters.status}</option>` : ''
  }</select></label>
  <label for="f-user">userName<input id="f-user" name="userName" value="${filters.userName ?? ''}" placeholder="contains…"></label>
  <label for="f-client">Client<input id="f-client" name="client" value="${filters.client ?? ''}"></label>
  <label for="f-resource">Resource id<input id="f-resource" name="resourceId" value="${filters.resourceId ?? ''}"></label>
  <label for="f-since">Time<select id="f-since" name="since">${SINCE_CHOICES.map(([value, label]) => html`<option value="${value}"${value === (filters.since ?? '') ? html` selected` : ''}>${label}</option>`)}</select></label>
  <button class="primary" type="submit">Filter</button>
  <a href="${href(ctx.base, '/requests', { tenant: ctx.tenant })}">Clear filters</a>
</form>
${page.records.length === 0
    ? html`<p class="muted">No request matches.</p>`
    : html`<table><caption class="visually-hidden">Requests of ${tenantLabel(ctx.tenant)}, newest first</caption>
<thead><tr><th scope="col">time (UTC)</th><th scope="col">request</th><th scope="col">status</th><th scope="col">userName</th><th scope="col">client</th><th scope="col" class="num">ms</th></tr></thead>
<tbody>${page.records.map(
        (r) => html`<tr><td>${time(r.time)}</td><td><a href="${href(ctx.base, `/requests/${encodeURIComponent(r.id)}`, { tenant: ctx.tenant })}"><span class="mono">${r.method} ${r.path}</span></a>${r.hint === undefined ? '' : html` <span class="muted">(hint)</span>`}</td><td>${statusBadge(r.status)}${r.scimType === undefined ? '' : html` <span class="muted">${r.scimType}</span>`}</td><td>${r.userName ?? ''}</td><td>${r.client}${r.idp === undefined ? '' : html` <span class="muted">· ${r.idp}</span>`}</td><td class="num">${r.durationMs.toFixed(1)}</td></tr>`,
      )}</tbody></table>`}
<p class="pager">${page.next === undefined ? html`<span class="muted">End of the log.</span>` : html`<a href="${href(ctx.base, '/requests', { ...keep, after: page.next })}" rel="next">Older requests</a>`}</p>
${ctx.actions
    ? html`<form method="post" action="${href(ctx.base, '/actions/clear-log', { tenant: ctx.tenant })}"><input type="hidden" name="csrf" value="${ctx.csrf}"><button class="danger" type="submit">Clear this tenant's request log</button></form>`
    : ''}`;
  return layout(ctx, 'requests', `Requests · ${tenantLabel(ctx.tenant)}`, body);
}
