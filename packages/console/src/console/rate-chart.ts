import type { RateBucket } from '../log/log-query.js';
import { html, type SafeHtml } from './html.js';

/**
 * Requests and errors over time as an inline SVG bar chart (no script, no image request), with a
 * text alternative: the chart has a title and description, and the same figures follow as a table
 * in a `<details>` element.
 */
export function rateChart(buckets: readonly RateBucket[], bucketLabel: string): SafeHtml {
  const width = 900;
  const height = 180;
  const pad = { left: 40, right: 10, top: 10, bottom: 24 };
  const max = Math.max(1, ...buckets.map((b) => b.requests));
  const plotW = width - pad.left - pad.right;
  const plotH = height - pad.top - pad.bottom;
  const barW = plotW / Math.max(1, buckets.length);
  const y = (n: number): number => pad.top + plotH - (n / max) * plotH;
  const total = buckets.reduce((n, b) => n + b.requests, 0);
  const errors = buckets.reduce((n, b) => n + b.errors, 0);
  const label = (t: number): string => new Date(t).toISOString().slice(11, 16);
  const ticks = [0, Math.floor(buckets.length / 2), buckets.length - 1].filter((i, k, all) => i >= 0 && all.indexOf(i) === k);
  return html`<figure class="chart">
  <svg viewBox="0 0 ${width} ${height}" role="img" aria-labelledby="chart-title chart-desc" xmlns="http://www.w3.org/2000/svg">
    <title id="chart-title">Requests and errors per ${bucketLabel}</title>
    <desc id="chart-desc">${total} requests, ${errors} of them errors, over ${buckets.length} buckets of one ${bucketLabel}.</desc>
    <line x1="${pad.left}" y1="${pad.top + plotH}" x2="${width - pad.right}" y2="${pad.top + plotH}" stroke="#4a5360"/>
    <text x="${pad.left - 6}" y="${pad.top + 10}" text-anchor="end" font-size="11" fill="#4a5360">${max}</text>
    <text x="${pad.left - 6}" y="${pad.top + plotH}" text-anchor="end" font-size="11" fill="#4a5360">0</text>
    ${buckets.map((b, i) => {
      const x = pad.left + i * barW;
      const w = Math.max(1, barW - 1);
      return html`<rect x="${x.toFixed(1)}" y="${y(b.requests).toFixed(1)}" width="${w.toFixed(1)}" height="${(pad.top + plotH - y(b.requests)).toFixed(1)}" fill="#0b57b3"><title>${label(b.start)}: ${b.requests} requests, ${b.errors} errors</title></rect>${
        b.errors > 0 ? html`<rect x="${x.toFixed(1)}" y="${y(b.errors).toFixed(1)}" width="${w.toFixed(1)}" height="${(pad.top + plotH - y(b.errors)).toFixed(1)}" fill="#b3261e"/>` : ''
      }`;
    })}
    ${ticks.map((i) => html`<text x="${(pad.left + i * barW + barW / 2).toFixed(1)}" y="${height - 6}" text-anchor="middle" font-size="11" fill="#4a5360">${label((buckets[i] as RateBucket).start)}</text>`)}
  </svg>
  <figcaption class="legend"><span><span class="swatch req"></span>requests</span><span><span class="swatch err"></span>errors (status 400 and above)</span><span class="muted">times in UTC</span></figcaption>
  <details><summary>The figures as a table</summary>
    <table><caption>Requests and errors per ${bucketLabel}</caption><thead><tr><th scope="col">from (UTC)</th><th scope="col" class="num">requests</th><th scope="col" class="num">errors</th></tr></thead>
    <tbody>${buckets.filter((b) => b.requests > 0).map((b) => html`<tr><td>${new Date(b.start).toISOString().replace('T', ' ').slice(0, 16)}</td><td class="num">${b.requests}</td><td class="num">${b.errors}</td></tr>`)}</tbody></table>
  </details>
</figure>`;
}
