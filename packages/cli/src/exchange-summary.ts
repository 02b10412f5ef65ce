import type { ScimExchange } from '@scimkit/client';
import type { ExchangeSummary } from './check.js';

const LIMIT = 4000;

/** What a report shows of an exchange: credentials redacted, long bodies cut. */
export function summarize(exchange: ScimExchange): ExchangeSummary {
  const requestHeaders: Record<string, string> = {};
  for (const [name, value] of Object.entries(exchange.request.headers)) requestHeaders[name] = redact(name, value);
  const responseHeaders: Record<string, string> = {};
  exchange.response.headers.forEach((value, name) => {
    responseHeaders[name] = redact(name, value);
  });
  return {
    method: exchange.request.method,
    url: exchange.request.url,
    requestHeaders,
    ...(exchange.request.body === undefined ? {} : { requestBody: cut(exchange.request.body) }),
    status: exchange.response.status,
    responseHeaders,
    responseBody: cut(exchange.response.text),
  };
}

function redact(name: string, value: string): string {
  if (!/^(authorization|cookie|set-cookie|x-api-key)$/i.test(name) || value === '') return value;
  const space = value.indexOf(' ');
  return space === -1 ? '***' : `${value.slice(0, space)} ***`;
}

function cut(text: string): string {
  return text.length <= LIMIT ? text : `${text.slice(0, LIMIT)}… (${text.length - LIMIT} more characters)`;
}
