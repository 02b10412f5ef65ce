import { href, html, type SafeHtml } from '../html.js';
import type { ConsoleDeadLetter, ConsoleDeliveries, ConsoleDelivery, ConsoleDeliveryAttempt, ConsoleDeliveryState } from '../webhook-deliveries.js';
import { layout, statusBadge, time } from './layout.js';
import { tenantLabel, type PageContext } from './page-context.js';

const STATES: [string, string][] = [
  ['', 'any'],
  ['failing', 'failing'],
  ['dead', 'dead-lettered'],
  ['delivered', 'delivered'],
];

/** What a redeliver action did, shown on the page it returns to (fixed text: nothing from the URL is echoed but the event id). */
export interface Redelivered {
  readonly eventId: string;
  readonly ok: boolean;
}

export function deliveryState(value: string | undefined): ConsoleDeliveryState | undefined {
  return value === 'delivered' || value === 'failing' || value === 'dead' ? value : undefined;
}

/** The webhook deliveries of a tenant, newest first, with the dead letters below. */
export async function webhooksPage(ctx: PageContext, deliveries: ConsoleDeliveries, state: ConsoleDeliveryState | undefined, redelivered?: Redelivered): Promise<string> {
  const [list, dead] = await Promise.all([deliveries.deliveries(ctx.tenant, { limit: 100, ...(state === undefined ? {} : { state }) }), deliveries.deadLetters(ctx.tenant, 100)]);
  const body = html`
${outcome(redelivered)}
<form class="filters" method="get" action="${ctx.base}/webhooks" role="search" aria-label="Filter deliveries">
  <input type="hidden" name="tenant" value="${ctx.tenant}">
  <label for="f-state">State<select id="f-state" name="state">${STATES.map(([value, label]) => html`<option value="${value}"${value === (state ?? '') ? html` selected` : ''}>${label}</option>`)}</select></label>
  <button class="primary" type="submit">Filter</button>
</form>
<h2 id="deliveries">Deliveries</h2>
${list.length === 0
    ? html`<p class="muted">No delivery${state === undefined ? '' : ` ${state}`} since this instance started.</p>`
    : html`<table aria-labelledby="deliveries"><caption class="visually-hidden">Webhook deliveries of ${tenantLabel(ctx.tenant)}, most recently attempted first</caption>
<thead><tr><th scope="col">event time (UTC)</th><th scope="col">event</th><th scope="col">resource</th><th scope="col">state</th><th scope="col" class="num">attempts</th><th scope="col">last attempt</th>${ctx.actions ? html`<th scope="col">action</th>` : ''}</tr></thead>
<tbody>${list.map((d) => deliveryRow(ctx, d))}</tbody></table>`}
<h2 id="dead-letters">Dead letters</h2>
${dead.length === 0
    ? html`<p class="muted">No dead letter: every event was delivered or is still being retried.</p>`
    : html`<table aria-labelledby="dead-letters"><caption class="visually-hidden">Events given up on after their attempts, newest first</caption>
<thead><tr><th scope="col">dead-lettered (UTC)</th><th scope="col">event</th><th scope="col">resource</th><th scope="col" class="num">attempts</th><th scope="col">error</th>${ctx.actions ? html`<th scope="col">action</th>` : ''}</tr></thead>
<tbody>${dead.map((letter) => deadRow(ctx, letter))}</tbody></table>`}
${ctx.actions ? '' : html`<p class="muted">Read-only: this console does not redeliver (actions are not enabled).</p>`}`;
  return layout(ctx, 'webhooks', `Webhooks · ${tenantLabel(ctx.tenant)}`, body);
}

/** One delivery: the event, and every attempt with its time, status code and error. */
export function deliveryPage(ctx: PageContext, delivery: ConsoleDelivery, redelivered?: Redelivered): string {
  const body = html`
${outcome(redelivered)}
<dl class="facts">
  <dt>Event</dt><dd><code>${delivery.type}</code> <span class="mono">${delivery.eventId}</span></dd>
  <dt>Time (UTC)</dt><dd>${time(Date.parse(delivery.time))}</dd>
  <dt>Resource</dt><dd>${resourceLink(ctx, delivery.resourceType, delivery.resourceId)} · <a href="${href(ctx.base, '/requests', { tenant: ctx.tenant, resourceId: delivery.resourceId })}">its requests</a></dd>
  <dt>State</dt><dd>${stateBadge(delivery.state)}</dd>
  <dt>Attempts</dt><dd>${delivery.attemptCount}${delivery.attemptCount > delivery.attempts.length ? html` <span class="muted">(the newest ${delivery.attempts.length} shown)</span>` : ''}</dd>
  <dt>Tenant</dt><dd>${tenantLabel(ctx.tenant)}</dd>
</dl>
<h2 id="attempts">Attempts</h2>
<table aria-labelledby="attempts"><thead><tr><th scope="col">time (UTC)</th><th scope="col">result</th><th scope="col">status code</th><th scope="col" class="num">ms</th><th scope="col">error</th></tr></thead>
<tbody>${delivery.attempts.map((a) => attemptRow(a))}</tbody></table>
${ctx.actions ? html`<p>${redeliverForm(ctx, delivery.eventId, `${ctx.base}/webhooks/${encodeURIComponent(delivery.eventId)}`)}</p>` : html`<p class="muted">Read-only: this console does not redeliver (actions are not enabled).</p>`}
<p><a href="${href(ctx.base, '/webhooks', { tenant: ctx.tenant })}">Back to the deliveries</a></p>`;
  return layout(ctx, 'webhooks', `Delivery of ${delivery.type}`, body);
}

function deliveryRow(ctx: PageContext, d: ConsoleDelivery): SafeHtml {
  const last = d.attempts[d.attempts.length - 1];
  return html`<tr><td>${time(Date.parse(d.time))}</td><td><a href="${href(ctx.base, `/webhooks/${encodeURIComponent(d.eventId)}`, { tenant: ctx.tenant })}"><code>${d.type}</code></a></td><td>${resourceLink(ctx, d.resourceType, d.resourceId)}</td><td>${stateBadge(d.state)}</td><td class="num">${d.attemptCount}</td><td>${
    last === undefined ? '' : html`${time(Date.parse(last.at))} ${last.status === undefined ? '' : statusBadge(last.status)}${last.error === undefined ? '' : html` <span class="muted">${last.error}</span>`}`
  }</td>${ctx.actions ? html`<td>${redeliverForm(ctx, d.eventId, `${ctx.base}/webhooks`)}</td>` : ''}</tr>`;
}

function deadRow(ctx: PageContext, letter: ConsoleDeadLetter): SafeHtml {
  return html`<tr><td>${time(Date.parse(letter.at))}</td><td><code>${letter.type}</code> <span class="mono muted">${letter.eventId}</span></td><td>${resourceLink(ctx, letter.resourceType, letter.resourceId)}</td><td class="num">${letter.attempts}</td><td>${letter.error}</td>${ctx.actions ? html`<td>${redeliverForm(ctx, letter.eventId, `${ctx.base}/webhooks`)}</td>` : ''}</tr>`;
}

function attemptRow(a: ConsoleDeliveryAttempt): SafeHtml {
  return html`<tr><td>${time(Date.parse(a.at))}${a.redelivery === true ? html` <span class="muted">(redelivery)</span>` : ''}</td><td>${a.ok ? html`<span class="state ok">delivered</span>` : html`<span class="state bad">failed</span>`}</td><td>${a.status === undefined ? html`<span class="muted">no answer</span>` : statusBadge(a.status)}</td><td class="num">${a.durationMs}</td><td>${a.error ?? ''}</td></tr>`;
}

/** A redeliver button: a plain form (no script) posting the session's CSRF token. */
function redeliverForm(ctx: PageContext, eventId: string, back: string): SafeHtml {
  return html`<form class="inline" method="post" action="${href(ctx.base, '/actions/redeliver', { tenant: ctx.tenant })}"><input type="hidden" name="csrf" value="${ctx.csrf}"><input type="hidden" name="event" value="${eventId}"><input type="hidden" name="back" value="${back.endsWith('/webhooks') ? 'list' : 'detail'}"><button type="submit" class="primary" aria-label="Redeliver event ${eventId}">Redeliver</button></form>`;
}

function stateBadge(state: ConsoleDeliveryState): SafeHtml {
  const label = state === 'dead' ? 'dead-lettered' : state;
  return html`<span class="state ${state === 'delivered' ? 'ok' : state === 'dead' ? 'bad' : 'warn'}">${label}</span>`;
}

function resourceLink(ctx: PageContext, type: string, id: string): SafeHtml | string {
  const path = type === 'User' ? '/users/' : type === 'Group' ? '/groups/' : undefined;
  return ctx.directory && path !== undefined ? html`<a href="${href(ctx.base, `${path}${encodeURIComponent(id)}`, { tenant: ctx.tenant })}">${type} ${id}</a>` : `${type} ${id}`;
}

function outcome(redelivered: Redelivered | undefined): SafeHtml | string {
  if (redelivered === undefined) return '';
  return redelivered.ok
    ? html`<div class="notice" role="status">Event <span class="mono">${redelivered.eventId}</span> was delivered again.</div>`
    : html`<div class="error" role="alert">Event <span class="mono">${redelivered.eventId}</span> could not be delivered again; see its attempts.</div>`;
}
