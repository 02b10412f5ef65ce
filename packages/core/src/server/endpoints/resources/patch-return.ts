import { requestHeader } from '../../request/request-header.js';
import type { ScimRequest } from '../../request/scim-request.js';
import type { ServerContext } from '../../config/server-context.js';
import type { AttributeSelection } from '../../query/attribute-selection.js';

/**
 * Whether a successful PATCH answers 204 without a body (RFC 7644 §3.5.2 allows 200 with the
 * resource or 204). A request with `attributes` or `excludedAttributes` always gets 200 with the
 * resource: "The server MUST return a 200 OK if the "attributes" parameter is specified in the
 * request" (RFC 7644 §3.5.2). Otherwise the request decides when it says so with
 * `Prefer: return=minimal` (204) or `Prefer: return=representation` (200), RFC 7240 §4.2; otherwise
 * `patchResponse` does.
 */
export function patchAnswersNoContent(context: ServerContext, request: ScimRequest, selection: AttributeSelection): boolean {
  if (selection.attributes !== undefined || selection.excludedAttributes !== undefined) return false;
  const prefer = preferredReturn(request);
  if (prefer !== undefined) return prefer === 'minimal';
  return context.config.patchResponse === 'noContent';
}

/** The `return` preference of a `Prefer` header (RFC 7240 §2: tokens case-insensitive, comma-separated). */
export function preferredReturn(request: ScimRequest): 'minimal' | 'representation' | undefined {
  const header = requestHeader(request, 'prefer');
  if (header === undefined) return undefined;
  for (const preference of header.split(',')) {
    const match = /^\s*return\s*=\s*"?(minimal|representation)"?\s*(;.*)?$/i.exec(preference);
    if (match !== null) return (match[1] as string).toLowerCase() as 'minimal' | 'representation';
  }
  return undefined;
}
