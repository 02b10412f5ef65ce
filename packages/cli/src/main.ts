import { writeFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { IDPS, TAGS, type Idp, type Tag } from './check.js';
import { ALL_CHECKS } from './checks/index.js';
import { junitReport } from './report/junit-report.js';
import { progressPrinter, terminalReport } from './report/terminal-report.js';
import { isLoopback, runChecks, UnreachableServerError, type CheckOptions } from './run-checks.js';

export interface CliIo {
  readonly stdout: (text: string) => void;
  readonly stderr: (text: string) => void;
  /** stdout is a terminal: live progress line and colours. */
  readonly tty: boolean;
  readonly fetch?: typeof fetch;
}

export const USAGE = `Usage: scimkit check <base-url> [options]

Checks a SCIM 2.0 service the way identity providers use it (RFC 7643/7644, RFC 9865;
Entra ID, Okta, OneLogin and Google request shapes). Exit code 0 when every applicable
check passes, 1 when one fails, 2 for a usage error or an unreachable server.

Options:
  --token <token>        Authorization: Bearer <token> on every request
  --header "Name: value" an extra header (repeatable)
  --timeout <ms>         per request (default 10000)
  --tag <tag>            only these groups (repeatable or comma-separated):
                         ${TAGS.join(', ')}
  --only-idp <idp>       leave out the checks imitating the other providers: ${IDPS.join(', ')}
  --allow-writes         create and delete resources on a server that is not on this machine
                         (on by default for localhost, 127.0.0.1 and ::1)
  --json                 the report as JSON on stdout (no progress line)
  --junit <file>         also write a JUnit XML report to <file>
  --list                 list the checks and exit
  -h, --help             this help
`;

/** `scimkit <argv>`: returns the exit code. */
export async function main(argv: readonly string[], io: CliIo): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      args: [...argv],
      allowPositionals: true,
      options: {
        token: { type: 'string' },
        header: { type: 'string', multiple: true },
        timeout: { type: 'string' },
        tag: { type: 'string', multiple: true },
        'only-idp': { type: 'string' },
        'allow-writes': { type: 'boolean' },
        json: { type: 'boolean' },
        junit: { type: 'string' },
        list: { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
      },
    });
  } catch (error) {
    io.stderr(`${error instanceof Error ? error.message : String(error)}\n\n${USAGE}`);
    return 2;
  }
  const { values, positionals } = parsed;
  if (values.help) {
    io.stdout(USAGE);
    return 0;
  }
  if (values.list) {
    for (const check of ALL_CHECKS) io.stdout(`${check.id.padEnd(40)} ${check.reference}${check.idp === undefined ? '' : ` [${check.idp}]`}\n`);
    return 0;
  }
  const [command, baseUrl, ...extra] = positionals;
  if (command !== 'check' || baseUrl === undefined || extra.length > 0) {
    io.stderr(USAGE);
    return 2;
  }
  const problems: string[] = [];
  try {
    const url = new URL(baseUrl);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') problems.push(`the base URL must be http or https: ${baseUrl}`);
  } catch {
    problems.push(`not a URL: ${baseUrl}`);
  }
  const tags = (values.tag ?? []).flatMap((tag) => tag.split(',')).map((tag) => tag.trim()).filter((tag) => tag !== '');
  for (const tag of tags) if (!(TAGS as readonly string[]).includes(tag)) problems.push(`unknown --tag ${tag} (one of ${TAGS.join(', ')})`);
  const onlyIdp = values['only-idp'];
  if (onlyIdp !== undefined && !(IDPS as readonly string[]).includes(onlyIdp)) problems.push(`unknown --only-idp ${onlyIdp} (one of ${IDPS.join(', ')})`);
  const timeout = values.timeout === undefined ? 10_000 : Number(values.timeout);
  if (!Number.isInteger(timeout) || timeout <= 0) problems.push(`--timeout takes a positive number of milliseconds, got ${values.timeout}`);
  const headers: Record<string, string> = {};
  for (const header of values.header ?? []) {
    const colon = header.indexOf(':');
    const name = header.slice(0, colon).trim();
    if (colon <= 0 || !/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(name)) problems.push(`--header takes "Name: value", got ${JSON.stringify(header)}`);
    else headers[name] = header.slice(colon + 1).trim();
  }
  if (problems.length > 0) {
    io.stderr(`${problems.map((problem) => `scimkit: ${problem}`).join('\n')}\n`);
    return 2;
  }
  const allowWrites = values['allow-writes'] === true || isLoopback(baseUrl);
  const options: CheckOptions = {
    baseUrl,
    ...(values.token === undefined ? {} : { token: values.token }),
    headers,
    timeoutMs: timeout,
    tags: tags as Tag[],
    ...(onlyIdp === undefined ? {} : { onlyIdp: onlyIdp as Idp }),
    allowWrites,
    ...(values.json ? {} : { onProgress: progressPrinter(io.stdout, io.tty) }),
    ...(io.fetch === undefined ? {} : { fetch: io.fetch }),
  };
  let report;
  try {
    report = await runChecks(options);
  } catch (error) {
    if (error instanceof UnreachableServerError) {
      io.stderr(`scimkit: ${error.message} (${baseUrl})\n`);
      return 2;
    }
    throw error;
  }
  if (values.json) io.stdout(`${JSON.stringify(report, null, 2)}\n`);
  else io.stdout(terminalReport(report, io.tty));
  if (values.junit !== undefined) await writeFile(values.junit, junitReport(report));
  return report.summary.failed === 0 ? 0 : 1;
}
