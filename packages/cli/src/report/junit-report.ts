import { TAGS } from '../check.js';
import type { CheckReport } from '../run-checks.js';

/** JUnit XML: one testsuite per tag, one testcase per check (failure / skipped), for CI dashboards. */
export function junitReport(report: CheckReport): string {
  const suites: string[] = [];
  for (const tag of TAGS) {
    const results = report.results.filter((r) => r.tag === tag);
    if (results.length === 0) continue;
    const failures = results.filter((r) => r.status === 'fail').length;
    const skipped = results.filter((r) => r.status === 'skip').length;
    const time = results.reduce((sum, r) => sum + r.durationMs, 0) / 1000;
    const cases = results.map((r) => {
      const open = `    <testcase classname="scimkit.check.${tag}" name="${xml(`${r.id}: ${r.title}`)}" time="${(r.durationMs / 1000).toFixed(3)}"`;
      if (r.status === 'pass') return `${open}/>`;
      if (r.status === 'skip') return `${open}>\n      <skipped message="${xml(r.reason ?? '')}"/>\n    </testcase>`;
      const f = r.failure!;
      const body = [
        `${r.idp === undefined ? 'rule' : 'imitates'}: ${r.reference}`,
        `expected: ${f.expected}`,
        ...(f.scimkitOption === undefined ? [] : [`scimkit option: ${f.scimkitOption}`]),
        ...(f.exchange === undefined ? [] : [`sent: ${f.exchange.method} ${f.exchange.url}`, ...(f.exchange.requestBody === undefined ? [] : [f.exchange.requestBody]), `received: ${f.exchange.status}`, f.exchange.responseBody]),
      ].join('\n');
      return `${open}>\n      <failure message="${xml(f.message)}" type="${xml(r.reference)}">${xml(body)}</failure>\n    </testcase>`;
    });
    suites.push(`  <testsuite name="${tag}" tests="${results.length}" failures="${failures}" errors="0" skipped="${skipped}" time="${time.toFixed(3)}">\n${cases.join('\n')}\n  </testsuite>`);
  }
  const { passed, failed, skipped } = report.summary;
  return `<?xml version="1.0" encoding="UTF-8"?>\n<testsuites name="scimkit check ${xml(report.baseUrl)}" tests="${passed + failed + skipped}" failures="${failed}" errors="0" skipped="${skipped}" time="${(report.durationMs / 1000).toFixed(3)}" timestamp="${report.startedAt}">\n${suites.join('\n')}\n</testsuites>\n`;
}

function xml(text: string): string {
  // XML 1.0 forbids most control characters even escaped: drop them.
  // eslint-disable-next-line no-control-regex
  return text.replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/g, '').replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}
