import type { RequestLog } from '../../log/request-log.js';
import { href, html } from '../html.js';
import { rateChart } from '../rate-chart.js';
import { layout, statusBadge, time } from './layout.js';
import { tenantLabel, type PageContext } from './page-context.js';

/** The windows the rate chart offers: span and bucket. */
export const WINDOWS: Record<string, { span: number; bucket: number; label: string; name: string }> = {
  '1h': { span: 3_600_000, bucket: 60_000, label: 'minute', name: 'last hour' },
  '24h': { span: 86_400_000, bucket: 1_800_000, label: '30 minutes', name: 'last 24 hours' },
  '7d': { span: 7 * 86_400_000, bucket: 6 * 3_600_000, label: '6 hours', name: 'last 7 days' },
};

/** Per tenant: totals, the request and error rates over time, and the clients seen with their last call. */
export async function overviewPage(ctx: PageContext, log: RequestLog, windowName: string): Promise<string> {
  const window = WINDOWS[windowName] ?? (WINDOWS['1h'] as (typeof WINDOWS)[string]);
  const to = Math.ceil(Date.now() / window.bucket) * window.bucket;
  const from = to - window.span;
  const [buckets, clients] = await Promise.all([log.rates(ctx.tenant, from, to, window.bucket), log.clients(ctx.tenant)]);
  const total = buckets.reduce((n, b) => n + b.requests, 0);
  const errors = buckets.reduce((n, b) => n + b.errors, 0);
  const body = html`
<section aria-labelledby="totals"><h2 id="totals">${window.name}</h2>
<div class="cards">
  <div class="card"><div class="muted">Requests</div><div class="value">${total}</div></div>
  <div class="card"><div class="muted">Errors</div><div class="value">${errors}</div></div>
  <div class="card"><div class="muted">Error rate</div><div class="value">${total === 0 ? '–' : `${((errors / total) * 100).toFixed(1)} %`}</div></div>
  <div class="card"><div class="muted">Clients</div><div class="value">${clients.length}</div></div>
</div>
<p>Window: ${Object.entries(WINDOWS).map(([name, w], i) => html`${i > 0 ? ' · ' : ''}<a href="${href(ctx.base, '/', { tenant: ctx.tenant, window: name })}"${name === windowName ? html` aria-current="true"` : ''}>${w.name}</a>`)}</p>
${rateChart(buckets, window.label)}
</section>
<section aria-labelledby="clients"><h2 id="clients">Clients</h2>
${clients.length === 0
    ? html`<p class="muted">No requests recorded for ${tenantLabel(ctx.tenant)} yet.</p>`
    : html`<table><caption class="visually-hidden">Clients of ${tenantLabel(ctx.tenant)}, most recent first</caption>
<thead><tr><th scope="col">client</th><th scope="col">identity provider</th><th scope="col">last call</th><th scope="col">last status</th><th scope="col" class="num">requests</th><th scope="col" class="num">errors</th></tr></thead>
<tbody>${clients.map(
        (c) => html`<tr><td><a href="${href(ctx.base, '/requests', { tenant: ctx.tenant, client: c.client })}">${c.client}</a></td><td>${c.idp ?? html`<span class="muted">${c.userAgent ?? 'unknown'}</span>`}</td><td>${time(c.lastCall)}</td><td>${statusBadge(c.lastStatus)}</td><td class="num">${c.requests}</td><td class="num">${c.errors}</td></tr>`,
      )}</tbody></table>`}
</section>`;
  return layout(ctx, 'overview', `Overview · ${tenantLabel(ctx.tenant)}`, body);
}
