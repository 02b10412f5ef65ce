import { href, html, type SafeHtml } from '../html.js';
import { tenantLabel, type PageContext } from './page-context.js';

export type Section = 'overview' | 'requests' | 'users' | 'groups' | 'webhooks';

/** The page around every view: header with navigation and tenant switch, then `main`. */
export function layout(ctx: PageContext, section: Section | undefined, heading: string, body: SafeHtml): string {
  const nav: [Section, string, string][] = [
    ['overview', 'Overview', '/'],
    ['requests', 'Requests', '/requests'],
    ...(ctx.directory
      ? ([
          ['users', 'Users', '/users'],
          ['groups', 'Groups', '/groups'],
        ] as [Section, string, string][])
      : []),
    ...(ctx.webhooks ? ([['webhooks', 'Webhooks', '/webhooks']] as [Section, string, string][]) : []),
  ];
  const current = section === undefined ? '/' : (nav.find(([s]) => s === section)?.[2] ?? '/');
  return `<!doctype html>${html`<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="same-origin">
<title>${heading} · ${ctx.title}</title>
<link rel="stylesheet" href="${ctx.base}/assets/console.css">
<link rel="icon" href="${ctx.base}/assets/icon.svg" type="image/svg+xml">
</head>
<body>
<a class="skip" href="#main">Skip to content</a>
<header class="top">
  <a class="brand" href="${href(ctx.base, '/', { tenant: ctx.tenant })}">${ctx.title}</a>
  <nav aria-label="Sections"><ul>${nav.map(([s, label, path]) => html`<li><a href="${href(ctx.base, path, { tenant: ctx.tenant })}"${s === section ? html` aria-current="page"` : ''}>${label}</a></li>`)}</ul></nav>
  <div class="who">${ctx.who === undefined ? '' : html`<span>${ctx.who}</span>`}${
    ctx.login ? html`<form method="post" action="${ctx.base}/logout"><input type="hidden" name="csrf" value="${ctx.csrf}"><button type="submit">Log out</button></form>` : ''
  }</div>
</header>
<main id="main">
${ctx.tenants.length > 1 || (ctx.tenants.length === 1 && ctx.tenants[0] !== ctx.tenant) ? html`<nav class="tenants" aria-label="Tenants"><span class="muted">Tenant:</span>${ctx.tenants.map((t) => html`<a href="${href(ctx.base, current, { tenant: t })}" aria-current="${t === ctx.tenant ? 'true' : 'false'}">${tenantLabel(t)}</a>`)}</nav>` : ''}
<h1>${heading}</h1>
${body}
</main>
</body>
</html>`}`;
}

/** A status code with its class colour. */
export function statusBadge(status: number): SafeHtml {
  return html`<span class="status s${Math.floor(status / 100)}">${status}</span>`;
}

/** A time as `YYYY-MM-DD HH:MM:SS` UTC, with the exact instant in `datetime`. */
export function time(ms: number): SafeHtml {
  const iso = new Date(ms).toISOString();
  return html`<time datetime="${iso}">${iso.replace('T', ' ').slice(0, 19)}</time>`;
}
