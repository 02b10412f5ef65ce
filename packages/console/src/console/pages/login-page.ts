import { html } from '../html.js';

/** The login form: one password field, the CSRF token, no script. */
export function loginPage(base: string, title: string, csrf: string, failed: boolean): string {
  return `<!doctype html>${html`<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="same-origin">
<title>Log in · ${title}</title>
<link rel="stylesheet" href="${base}/assets/console.css">
<link rel="icon" href="${base}/assets/icon.svg" type="image/svg+xml">
</head>
<body>
<header class="top"><span class="brand">${title}</span></header>
<main id="main">
<h1>Log in</h1>
${failed ? html`<div class="error" role="alert">Wrong password.</div>` : ''}
<form class="login" method="post" action="${base}/login">
  <input type="hidden" name="csrf" value="${csrf}">
  <label for="password">Password<input id="password" name="password" type="password" autocomplete="current-password" required autofocus></label>
  <button class="primary" type="submit">Log in</button>
</form>
</main>
</body>
</html>`}`;
}

/** A refusal page (no login configured, or a forged form). */
export function refusedPage(title: string, status: number, message: string): string {
  return `<!doctype html>${html`<html lang="en"><head><meta charset="utf-8"><title>${status} · ${title}</title></head><body><main><h1>${status}</h1><p>${message}</p></main></body></html>`}`;
}
