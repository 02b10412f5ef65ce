import { TAGS, type CheckResult } from '../check.js';
import type { CheckReport, ProgressEvent } from '../run-checks.js';

const color = (enabled: boolean) => ({
  green: (text: string) => (enabled ? `\u001b[32m${text}\u001b[39m` : text),
  red: (text: string) => (enabled ? `\u001b[31m${text}\u001b[39m` : text),
  dim: (text: string) => (enabled ? `\u001b[2m${text}\u001b[22m` : text),
  bold: (text: string) => (enabled ? `\u001b[1m${text}\u001b[22m` : text),
});

/**
 * The live progress: on a terminal one line rewritten in place (`[12/60] filters.co …`), elsewhere
 * one line per finished check.
 */
export function progressPrinter(write: (text: string) => void, tty: boolean): (event: ProgressEvent) => void {
  const c = color(tty);
  return (event) => {
    if (event.type === 'start') {
      if (tty) write(`\r\u001b[2K[${event.index + 1}/${event.total}] ${event.check.id} ${c.dim(event.check.title)}`);
      return;
    }
    const { result } = event;
    const mark = result.status === 'pass' ? c.green('pass') : result.status === 'fail' ? c.red('FAIL') : c.dim('skip');
    if (tty) {
      if (result.status === 'fail') write(`\r\u001b[2K${mark} ${result.id}\n`);
    } else {
      write(`${mark} ${result.id}${result.status === 'skip' ? c.dim(` (${result.reason ?? ''})`) : ''}\n`);
    }
  };
}

/** The summary table by tag, then every failure in full. */
export function terminalReport(report: CheckReport, tty: boolean): string {
  const c = color(tty);
  const lines: string[] = [];
  if (tty) lines.push('\r\u001b[2K');
  lines.push(c.bold(`scimkit check ${report.baseUrl}`) + c.dim(` (${(report.durationMs / 1000).toFixed(1)} s${report.writes ? '' : ', read-only: --allow-writes to run the rest'})`), '');
  const rows = [['tag', 'passed', 'failed', 'skipped']];
  for (const tag of TAGS) {
    const of = report.results.filter((r) => r.tag === tag);
    if (of.length === 0) continue;
    rows.push([tag, count(of, 'pass'), count(of, 'fail'), count(of, 'skip')]);
  }
  rows.push(['total', String(report.summary.passed), String(report.summary.failed), String(report.summary.skipped)]);
  const widths = rows[0]!.map((_, column) => Math.max(...rows.map((row) => row[column]!.length)));
  for (const [i, row] of rows.entries()) {
    const text = row.map((cell, column) => (column === 0 ? cell.padEnd(widths[column]!) : cell.padStart(widths[column]!))).join('  ');
    lines.push(i === 0 || i === rows.length - 1 ? c.bold(text) : row[2] !== '0' ? c.red(text) : text);
  }
  const failed = report.results.filter((r) => r.status === 'fail');
  for (const result of failed) lines.push('', ...failureText(result, c));
  const skipped = report.results.filter((r) => r.status === 'skip');
  if (skipped.length > 0) {
    lines.push('', c.dim('Skipped:'));
    for (const result of skipped) lines.push(c.dim(`  ${result.id}: ${result.reason ?? ''}`));
  }
  lines.push('', failed.length === 0 ? c.green(`All ${report.summary.passed} applicable checks passed.`) : c.red(`${failed.length} check${failed.length === 1 ? '' : 's'} failed.`));
  return `${lines.join('\n')}\n`;
}

function count(results: readonly CheckResult[], status: CheckResult['status']): string {
  return String(results.filter((r) => r.status === status).length);
}

function failureText(result: CheckResult, c: ReturnType<typeof color>): string[] {
  const failure = result.failure!;
  const lines = [c.red(`✗ ${result.id}: ${result.title}`), `  ${result.idp === undefined ? 'rule' : 'imitates'}: ${result.reference}`, `  found:    ${failure.message}`, `  expected: ${failure.expected}`];
  if (failure.scimkitOption !== undefined) lines.push(`  scimkit:  on a scimkit server, the option ${failure.scimkitOption} changes this`);
  const exchange = failure.exchange;
  if (exchange !== undefined) {
    lines.push(`  sent:     ${exchange.method} ${exchange.url}`);
    if (exchange.requestBody !== undefined) lines.push(`            ${indent(exchange.requestBody)}`);
    lines.push(`  received: ${exchange.status}${exchange.responseHeaders['content-type'] ? ` (${exchange.responseHeaders['content-type']})` : ''}`);
    if (exchange.responseBody !== '') lines.push(`            ${indent(exchange.responseBody)}`);
  }
  return lines;
}

function indent(text: string): string {
  return text.replace(/\n/g, '\n            ');
}
