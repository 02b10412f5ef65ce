import { href, html, type SafeHtml } from '../html.js';
import type { Redactor } from '../../log/redactor.js';
import type { Directory } from '../directory.js';
import { layout } from './layout.js';
import { tenantLabel, type PageContext } from './page-context.js';

const PAGE = 50;

type Resource = Record<string, unknown>;

/** Users (or groups), 50 a page, searchable by userName (displayName), with their membership. */
export async function listPage(ctx: PageContext, directory: Directory, redactor: Redactor, kind: 'users' | 'groups', search: string, startIndex: number): Promise<string> {
  const isUsers = kind === 'users';
  const nameAttribute = isUsers ? 'userName' : 'displayName';
  const query: Record<string, string> = { count: String(PAGE), startIndex: String(startIndex), sortBy: nameAttribute };
  if (search !== '') query['filter'] = `${nameAttribute} co ${JSON.stringify(search)}`;
  if (!isUsers) query['excludedAttributes'] = 'members';
  const answer = await directory.get(ctx.tenant, isUsers ? '/Users' : '/Groups', query);
  const resources = ((answer.body['Resources'] as Resource[] | undefined) ?? []).map((r) => redactor.json(r) as Resource);
  const total = Number(answer.body['totalResults'] ?? 0);
  const title = `${isUsers ? 'Users' : 'Groups'} · ${tenantLabel(ctx.tenant)}`;
  const body = html`
<form class="filters" method="get" action="${ctx.base}/${kind}" role="search" aria-label="Search ${kind}">
  <input type="hidden" name="tenant" value="${ctx.tenant}">
  <label for="q">${nameAttribute} contains<input id="q" name="q" value="${search}"></label>
  <button class="primary" type="submit">Search</button>
</form>
${answer.status >= 400 ? html`<div class="error" role="alert">${String(answer.body['detail'] ?? `Status ${answer.status}`)}</div>` : ''}
<p class="muted">${total} ${kind}${search === '' ? '' : html` matching “${search}”`}.</p>
${resources.length === 0
    ? ''
    : isUsers
      ? html`<table><caption class="visually-hidden">Users</caption><thead><tr><th scope="col">userName</th><th scope="col">displayName</th><th scope="col">active</th><th scope="col">groups</th></tr></thead>
<tbody>${resources.map((u) => html`<tr><td><a href="${href(ctx.base, `/users/${encodeURIComponent(String(u['id']))}`, { tenant: ctx.tenant })}">${String(u['userName'] ?? u['id'])}</a></td><td>${String(u['displayName'] ?? '')}</td><td>${u['active'] === false ? 'no' : u['active'] === true ? 'yes' : ''}</td><td>${groupLinks(ctx, u['groups'])}</td></tr>`)}</tbody></table>`
      : html`<table><caption class="visually-hidden">Groups</caption><thead><tr><th scope="col">displayName</th><th scope="col">externalId</th><th scope="col">id</th></tr></thead>
<tbody>${resources.map((g) => html`<tr><td><a href="${href(ctx.base, `/groups/${encodeURIComponent(String(g['id']))}`, { tenant: ctx.tenant })}">${String(g['displayName'] ?? g['id'])}</a></td><td>${String(g['externalId'] ?? '')}</td><td class="mono">${String(g['id'])}</td></tr>`)}</tbody></table>`}
<p class="pager">${startIndex > 1 ? html`<a href="${href(ctx.base, `/${kind}`, { tenant: ctx.tenant, q: search, startIndex: Math.max(1, startIndex - PAGE) })}" rel="prev">Previous</a> ` : ''}${
    startIndex + PAGE <= total ? html`<a href="${href(ctx.base, `/${kind}`, { tenant: ctx.tenant, q: search, startIndex: startIndex + PAGE })}" rel="next">Next</a>` : ''
  }</p>`;
  return layout(ctx, kind, title, body);
}

/** One user or group: its attributes (the log's personal-data policy applied), membership, and its requests. */
export async function resourcePage(ctx: PageContext, directory: Directory, redactor: Redactor, kind: 'users' | 'groups', id: string): Promise<string | undefined> {
  const answer = await directory.get(ctx.tenant, `/${kind === 'users' ? 'Users' : 'Groups'}/${encodeURIComponent(id)}`);
  if (answer.status === 404) return undefined;
  const resource = redactor.json(answer.body) as Resource;
  const name = String(resource[kind === 'users' ? 'userName' : 'displayName'] ?? id);
  const members = (resource['members'] as Resource[] | undefined) ?? [];
  const shown = members.slice(0, 500);
  const body = html`
${answer.status >= 400 ? html`<div class="error" role="alert">${String(answer.body['detail'] ?? `Status ${answer.status}`)}</div>` : ''}
<p><a href="${href(ctx.base, '/requests', { tenant: ctx.tenant, resourceId: id })}">Requests about this ${kind === 'users' ? 'user' : 'group'}</a></p>
${kind === 'users'
    ? html`<h2>Groups</h2>${Array.isArray(resource['groups']) && resource['groups'].length > 0 ? html`<ul>${(resource['groups'] as Resource[]).map((g) => html`<li>${groupLink(ctx, g)}</li>`)}</ul>` : html`<p class="muted">Member of no group.</p>`}`
    : html`<h2>Members <span class="muted">(${members.length})</span></h2>${shown.length === 0
        ? html`<p class="muted">No members.</p>`
        : html`<table><caption class="visually-hidden">Members</caption><thead><tr><th scope="col">member</th><th scope="col">type</th></tr></thead><tbody>${shown.map((m) => html`<tr><td>${memberLink(ctx, m)}</td><td>${String(m['type'] ?? '')}</td></tr>`)}</tbody></table>`}${
        members.length > shown.length ? html`<p class="muted">The first ${shown.length} of ${members.length} members.</p>` : ''
      }`}
<h2>Attributes</h2>
<pre>${JSON.stringify(withoutMembers(resource), null, 2)}</pre>`;
  return layout(ctx, kind, `${kind === 'users' ? 'User' : 'Group'} ${name}`, body);
}

function withoutMembers(resource: Resource): Resource {
  const { members: _members, ...rest } = resource;
  return rest;
}

function groupLinks(ctx: PageContext, groups: unknown): SafeHtml | string {
  if (!Array.isArray(groups) || groups.length === 0) return '';
  return html`${(groups as Resource[]).map((g, i) => html`${i > 0 ? ', ' : ''}${groupLink(ctx, g)}`)}`;
}

function groupLink(ctx: PageContext, g: Resource): SafeHtml {
  return html`<a href="${href(ctx.base, `/groups/${encodeURIComponent(String(g['value']))}`, { tenant: ctx.tenant })}">${String(g['display'] ?? g['value'])}</a>`;
}

function memberLink(ctx: PageContext, m: Resource): SafeHtml {
  const path = m['type'] === 'Group' ? '/groups/' : '/users/';
  return html`<a href="${href(ctx.base, `${path}${encodeURIComponent(String(m['value']))}`, { tenant: ctx.tenant })}">${String(m['display'] ?? m['value'])}</a>`;
}
