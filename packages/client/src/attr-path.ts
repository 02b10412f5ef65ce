import type { AttrPath } from '@scimkit/core/printer';

// RFC 7643 §2.1: ATTRNAME = ALPHA *(nameChar), nameChar = "-" / "_" / DIGIT / ALPHA; `$ref` is the
// one sub-attribute name with a "$" (§2.3.7).
const NAME = /^(?:[A-Za-z][A-Za-z0-9_-]*|\$ref)$/;
// RFC 8141 NID and NSS characters, without the ones that end a token in a filter (space, quote, brackets, parentheses).
const URN = /^urn:[A-Za-z0-9][A-Za-z0-9-]{0,31}(?::[A-Za-z0-9.\-_~!$&'*+,;=@%/]+)+$/i;

/**
 * Reads an attribute name (`userName`, `name.givenName`, `urn:…:enterprise:2.0:User:manager.value`)
 * into the core's AttrPath, refusing anything else with a TypeError: a name is never a way to add
 * filter syntax.
 */
export function toAttrPath(name: string): AttrPath {
  if (typeof name !== 'string') throw new TypeError(`An attribute name must be a string, got ${typeof name}`);
  const colon = name.lastIndexOf(':');
  const uri = colon === -1 ? undefined : name.slice(0, colon);
  const rest = colon === -1 ? name : name.slice(colon + 1);
  if (uri !== undefined && !URN.test(uri)) throw new TypeError(`Not a schema URN: ${JSON.stringify(uri)}`);
  const parts = rest.split('.');
  const [attr, subAttr] = parts;
  if (parts.length > 2 || attr === undefined || !NAME.test(attr) || (subAttr !== undefined && !NAME.test(subAttr))) {
    throw new TypeError(`Not an attribute name (RFC 7643 §2.1): ${JSON.stringify(name)}`);
  }
  return { ...(uri === undefined ? {} : { uri }), attr, ...(subAttr === undefined ? {} : { subAttr }) };
}
