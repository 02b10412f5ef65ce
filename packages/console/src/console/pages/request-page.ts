import type { RecordedBody, RequestLogRecord } from '../../log/request-log-record.js';
import { href, html, type SafeHtml } from '../html.js';
import { layout, statusBadge, time } from './layout.js';
import { tenantLabel, type PageContext } from './page-context.js';

/** One request: what was asked and answered (redacted), the hint, and each changed resource as a diff. */
export function requestPage(ctx: PageContext, record: RequestLogRecord): string {
  const resourceLink = (type: string, id: string): SafeHtml | string => {
    const path = type === 'User' ? '/users/' : type === 'Group' ? '/groups/' : undefined;
    return ctx.directory && path !== undefined ? html`<a href="${href(ctx.base, `${path}${encodeURIComponent(id)}`, { tenant: ctx.tenant })}">${type} ${id}</a>` : `${type} ${id}`;
  };
  const body = html`
<dl class="facts">
  <dt>Time (UTC)</dt><dd>${time(record.time)} <span class="muted">(${record.durationMs.toFixed(1)} ms)</span></dd>
  <dt>Status</dt><dd>${statusBadge(record.status)}${record.scimType === undefined ? '' : html` <code>${record.scimType}</code>`}</dd>
  ${record.detail === undefined ? '' : html`<dt>Detail</dt><dd>${record.detail}</dd>`}
  <dt>Client</dt><dd><a href="${href(ctx.base, '/requests', { tenant: ctx.tenant, client: record.client })}">${record.client}</a>${record.idp === undefined ? '' : html` · ${record.idp}`}</dd>
  ${record.userAgent === undefined ? '' : html`<dt>User-Agent</dt><dd class="mono">${record.userAgent}</dd>`}
  ${record.userName === undefined ? '' : html`<dt>userName</dt><dd><a href="${href(ctx.base, '/requests', { tenant: ctx.tenant, userName: record.userName })}">${record.userName}</a></dd>`}
  ${record.resourceId === undefined || record.resourceType === undefined ? '' : html`<dt>Resource</dt><dd>${resourceLink(record.resourceType, record.resourceId)} · <a href="${href(ctx.base, '/requests', { tenant: ctx.tenant, resourceId: record.resourceId })}">its requests</a></dd>`}
  <dt>Request id</dt><dd class="mono">${record.requestId}</dd>
  <dt>Tenant</dt><dd>${tenantLabel(record.tenant)}</dd>
</dl>
${record.hint === undefined
    ? ''
    : html`<div class="hint" role="note" aria-labelledby="hint-title"><strong id="hint-title">Hint: ${record.hint.option}</strong>${record.hint.profile === undefined ? '' : html` <span>(the <code>${record.hint.profile}</code> profile turns it on)</span>`}<p>${record.hint.message}</p></div>`}
<h2 id="changes">Changes</h2>
${record.changes.length === 0
    ? html`<p class="muted">This request changed nothing.</p>`
    : record.changes.map(
        (change, i) => html`<section aria-labelledby="change-${i}">
<h3 id="change-${i}">${change.operation} ${resourceLink(change.resourceType, change.id)} <span class="muted">version ${change.versionBefore ?? '–'} → ${change.versionAfter ?? '–'}</span></h3>
${change.diff.length === 0
          ? html`<p class="muted">No attribute changed.</p>`
          : html`<table class="diff"><caption>Before and after, attribute by attribute</caption><thead><tr><th scope="col">attribute</th><th scope="col">before</th><th scope="col">after</th></tr></thead>
<tbody>${change.diff.map((d) => html`<tr><td class="mono">${d.path}</td><td class="mono">${d.before === undefined ? html`<span class="muted">(none)</span>` : html`<del class="diff">${d.before}</del>`}</td><td class="mono">${d.after === undefined ? html`<span class="muted">(removed)</span>` : html`<ins class="diff">${d.after}</ins>`}</td></tr>`)}</tbody></table>`}
${change.diffTruncated === true ? html`<p class="muted">More attributes changed than the log keeps.</p>` : ''}
</section>`,
      )}
<h2>Request</h2>
<p class="mono">${record.method} ${record.path}${Object.keys(record.query).length === 0 ? '' : `?${new URLSearchParams(record.query as Record<string, string>).toString()}`}</p>
<table><caption class="visually-hidden">Request headers</caption><thead><tr><th scope="col">header</th><th scope="col">value</th></tr></thead>
<tbody>${Object.entries(record.requestHeaders).map(([name, value]) => html`<tr><td class="mono">${name}</td><td class="mono">${value}</td></tr>`)}</tbody></table>
${bodyView('Request body', record.requestBody)}
<h2>Response</h2>
<p>${statusBadge(record.status)}</p>
${bodyView('Response body', record.responseBody, record.status < 400 ? 'Not kept: a success is shown by its changes above.' : undefined)}
<p><a href="${href(ctx.base, '/requests', { tenant: ctx.tenant })}">Back to the requests</a></p>`;
  return layout(ctx, 'requests', `${record.method} ${record.path}`, body);
}

function bodyView(title: string, body: RecordedBody | undefined, absent?: string): SafeHtml {
  if (body === undefined) return html`<h3>${title}</h3><p class="muted">${absent ?? 'None.'}</p>`;
  return html`<h3>${title} <span class="muted">(${body.bytes} bytes${body.truncated ? ', cut' : ''}, redacted)</span></h3><pre>${pretty(body.text)}</pre>`;
}

function pretty(text: string): string {
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return text;
  }
}
