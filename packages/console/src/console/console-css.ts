/**
 * The console's only stylesheet, served from the package at `assets/console.css` (no CDN, no inline
 * style, so the Content Security Policy allows `style-src 'self'` only). Colours meet WCAG AA
 * contrast (4.5:1 for text) on their backgrounds.
 */
export const CONSOLE_CSS = `
:root { --fg: #1b1f24; --muted: #4a5360; --bg: #ffffff; --panel: #f4f6f8; --line: #c9d0d8; --link: #0b57b3; --ok: #116329; --warn: #8a4b00; --bad: #b3261e; --focus: #f2a900; }
* { box-sizing: border-box; }
body { margin: 0; font: 15px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: var(--fg); background: var(--bg); }
a { color: var(--link); }
a:focus-visible, button:focus-visible, input:focus-visible, select:focus-visible, summary:focus-visible { outline: 3px solid var(--focus); outline-offset: 2px; }
.skip { position: absolute; left: -9999px; top: 0; }
.skip:focus { left: 8px; top: 8px; background: var(--bg); padding: 4px 8px; z-index: 10; }
header.top { display: flex; align-items: center; gap: 24px; padding: 10px 24px; background: #14212f; color: #fff; flex-wrap: wrap; }
header.top a { color: #fff; }
header.top .brand { font-weight: 700; text-decoration: none; font-size: 17px; }
header.top nav ul { list-style: none; display: flex; gap: 18px; margin: 0; padding: 0; }
header.top nav a[aria-current="page"] { text-decoration: underline; text-underline-offset: 4px; font-weight: 600; }
header.top .who { margin-left: auto; display: flex; gap: 12px; align-items: center; }
header.top form { margin: 0; }
header.top button { background: transparent; color: #fff; border: 1px solid #8fa3b8; border-radius: 4px; padding: 2px 10px; cursor: pointer; font: inherit; }
main { padding: 18px 24px 40px; max-width: 1280px; }
h1 { font-size: 22px; margin: 4px 0 14px; }
h2 { font-size: 17px; margin: 26px 0 10px; }
.tenants { display: flex; gap: 8px; align-items: center; flex-wrap: wrap; margin-bottom: 12px; }
.tenants a { padding: 2px 10px; border: 1px solid var(--line); border-radius: 14px; text-decoration: none; }
.tenants a[aria-current="true"] { background: var(--link); color: #fff; border-color: var(--link); }
table { border-collapse: collapse; width: 100%; font-size: 14px; }
caption { text-align: left; font-weight: 600; padding: 4px 0 8px; }
th, td { text-align: left; padding: 6px 8px; border-bottom: 1px solid var(--line); vertical-align: top; }
th { background: var(--panel); font-weight: 600; }
tbody tr:hover { background: #f9fafb; }
td.num, th.num { text-align: right; font-variant-numeric: tabular-nums; }
code, pre, .mono { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; font-size: 13px; }
pre { background: var(--panel); border: 1px solid var(--line); padding: 10px; overflow: auto; max-height: 420px; white-space: pre-wrap; word-break: break-word; }
.status { font-weight: 600; font-variant-numeric: tabular-nums; }
.s2 { color: var(--ok); } .s3 { color: var(--muted); } .s4 { color: var(--warn); } .s5 { color: var(--bad); }
.muted { color: var(--muted); }
form.filters { display: flex; gap: 12px; flex-wrap: wrap; align-items: flex-end; background: var(--panel); padding: 12px; border: 1px solid var(--line); border-radius: 6px; margin-bottom: 14px; }
form.filters label, form.login label { display: flex; flex-direction: column; font-size: 13px; font-weight: 600; gap: 3px; }
input, select { font: inherit; padding: 5px 8px; border: 1px solid #7d8896; border-radius: 4px; background: #fff; color: var(--fg); }
button.primary { font: inherit; background: var(--link); color: #fff; border: 0; border-radius: 4px; padding: 6px 14px; cursor: pointer; }
button.danger { font: inherit; background: var(--bad); color: #fff; border: 0; border-radius: 4px; padding: 6px 14px; cursor: pointer; }
.cards { display: grid; grid-template-columns: repeat(auto-fit, minmax(170px, 1fr)); gap: 12px; margin-bottom: 8px; }
.card { border: 1px solid var(--line); border-radius: 6px; padding: 10px 14px; background: var(--panel); }
.card .value { font-size: 24px; font-weight: 700; }
.hint { border-left: 5px solid var(--warn); background: #fff6e5; padding: 10px 14px; margin: 12px 0; }
.hint strong { color: var(--warn); }
.notice { border-left: 5px solid var(--ok); background: #e6f4ea; padding: 10px 14px; margin: 12px 0; }
.state { font-weight: 600; }
.state.ok { color: var(--ok); } .state.warn { color: var(--warn); } .state.bad { color: var(--bad); }
form.inline { margin: 0; display: inline; }
form.inline button { padding: 3px 10px; font-size: 13px; }
.error { border-left: 5px solid var(--bad); background: #fdecea; padding: 10px 14px; margin: 12px 0; }
dl.facts { display: grid; grid-template-columns: max-content 1fr; gap: 4px 16px; margin: 0; }
dl.facts dt { font-weight: 600; color: var(--muted); }
dl.facts dd { margin: 0; }
del.diff { background: #fdecea; color: #7a1712; text-decoration: line-through; }
ins.diff { background: #e6f4ea; color: #0b4a1f; text-decoration: none; }
.chart svg { width: 100%; max-width: 900px; height: auto; border: 1px solid var(--line); border-radius: 6px; background: #fff; }
.legend { display: flex; gap: 16px; font-size: 13px; margin: 6px 0; }
.swatch { display: inline-block; width: 12px; height: 12px; border-radius: 2px; vertical-align: -1px; margin-right: 4px; }
.swatch.req { background: #0b57b3; } .swatch.err { background: #b3261e; }
.pager { margin-top: 12px; }
form.login { max-width: 360px; display: flex; flex-direction: column; gap: 14px; margin-top: 20px; }
.visually-hidden { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; }
details summary { cursor: pointer; }
`;

/** A small icon, so that the browser does not ask the origin's root for /favicon.ico. */
export const CONSOLE_ICON = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 16 16"><rect width="16" height="16" rx="3" fill="#14212f"/><path d="M4 5h8M4 8h8M4 11h5" stroke="#fff" stroke-width="1.6"/></svg>`;
