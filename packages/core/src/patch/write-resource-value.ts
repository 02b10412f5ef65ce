import { err, ok, type Result } from '../errors/result.js';
import { scimError } from '../errors/scim-error.js';
import { parseAttrPath } from '../filter/parse-attr-path.js';
import type { SchemaDefinition } from '../schema/attribute-definition.js';
import { modelLayout } from '../schema/model-layout.js';
import type { ResolvedAttribute } from '../schema/resource-model.js';
import { findKey, isJsonObject, isUnassigned } from '../values/index.js';
import type { PatchContext, WriteRequest } from './patch-context.js';
import { writeAttribute } from './write-attribute.js';
import { writeElements } from './write-elements.js';
import { everyElement } from './resolve-patch-target.js';
import { commitValue, readPath } from './working-copy.js';

type Extension = { readonly schema: SchemaDefinition; readonly required: boolean };

/**
 * Path-less `add`/`replace` (RFC 7644 §3.5.2.1, §3.5.2.3): the value is a set of attributes, each
 * applied as if it were the operation's path. Keys are matched ignoring case; an extension URN key
 * carries that extension's attributes; with `pathKeysInValue`, keys may be attribute paths
 * (`name.givenName`) or URN-qualified (`urn:…:enterprise:2.0:User:employeeNumber`).
 * `extension` scopes the keys to one extension (its root was the path, or a URN key).
 */
export function writeResourceValue(ctx: PatchContext, req: WriteRequest, extension?: Extension): Result<void> {
  const layout = modelLayout(ctx.model);
  if (!isJsonObject(req.value)) {
    const what = extension === undefined ? 'without a path' : `for "${extension.schema.id}"`;
    return err(scimError('invalidValue', `${req.at}: the value of "${req.op}" ${what} must be an object of attributes`));
  }
  for (const key of Object.keys(req.value)) {
    const value = req.value[key];
    const sub: WriteRequest = { op: req.op, value, hasValue: true, at: req.at, explicit: false };
    const lower = key.toLowerCase();
    // `schemas` is an attribute of the resource (RFC 7643 §3); inside an extension's object (Python's
    // scim2-models sends it there) it is accepted and dropped.
    if (extension !== undefined && lower === 'schemas') continue;
    if (extension === undefined) {
      if (lower === 'schemas') {
        const checked = checkSchemasValue(ctx, value, req.at);
        if (!checked.ok) return checked;
        continue;
      }
      if (lower === layout.coreLower) {
        const written = writeResourceValue(ctx, sub);
        if (!written.ok) return written;
        continue;
      }
      const named = layout.extensionByLower.get(lower);
      if (named !== undefined) {
        const written = writeExtension(ctx, named, sub);
        if (!written.ok) return written;
        continue;
      }
    }
    const written = writeKey(ctx, key, sub, extension);
    if (!written.ok) return written;
  }
  return ok(undefined);
}

function writeKey(ctx: PatchContext, key: string, req: WriteRequest, extension: Extension | undefined): Result<void> {
  const resolved = resolveKey(ctx, key, extension);
  if (resolved === undefined) {
    if (ctx.options.unknownAttributes === 'ignore') {
      ctx.options.onIgnored?.(extension === undefined ? key : `${extension.schema.id}:${key}`);
      return ok(undefined);
    }
    const owner = extension === undefined ? ctx.model.definition.name : extension.schema.id;
    return err(scimError('invalidValue', `${req.at}: "${key}" is not an attribute of ${owner}`));
  }
  const { subAttribute } = resolved;
  if (subAttribute !== undefined && resolved.attribute.multiValued) return writeElements(ctx, everyElement({ ...resolved, subAttribute }), req);
  return writeAttribute(ctx, resolved, req);
}

/** A key of a path-less value: an attribute name, or (option `pathKeysInValue`) an attribute path. */
function resolveKey(ctx: PatchContext, key: string, extension: Extension | undefined): ResolvedAttribute | undefined {
  if (!key.includes('.') && !key.includes(':')) return ctx.model.resolve(extension === undefined ? { attr: key } : { uri: extension.schema.id, attr: key });
  if (!ctx.options.pathKeysInValue) return undefined;
  const path = parseAttrPath(key);
  if (!path.ok) return undefined;
  if (extension === undefined) return ctx.model.resolve(path.value);
  if (path.value.uri !== undefined) return undefined;
  const { attr, subAttr } = path.value;
  return ctx.model.resolve(subAttr === undefined ? { uri: extension.schema.id, attr } : { uri: extension.schema.id, attr, subAttr });
}

/**
 * An extension's root as the target (`path` is its URN, or a URN key of a path-less value):
 * add/replace merge the given attributes; remove (or null) drops the whole extension.
 */
export function writeExtension(ctx: PatchContext, extension: Extension, req: WriteRequest): Result<void> {
  const urn = extension.schema.id;
  if (req.op === 'remove' || req.value === null) {
    if (req.op === 'add') return ok(undefined);
    if (findKey(ctx.doc, urn) === undefined) return ok(undefined);
    if (extension.required && !isUnassigned(readPath(ctx.doc, [urn]))) {
      return err(scimError('mutability', `${req.at}: the extension "${urn}" is required and cannot be removed`));
    }
    return commitValue(ctx, [urn], undefined);
  }
  return writeResourceValue(ctx, req, extension);
}

/**
 * `schemas` is derived from the data present (extension URNs are added and dropped with their
 * data), so writing it only checks that it names schemas of this resource type.
 */
export function checkSchemasValue(ctx: PatchContext, value: unknown, at: string): Result<void> {
  const known = [ctx.model.core.id, ...ctx.model.extensions.map((e) => e.schema.id)].map((u) => u.toLowerCase());
  const list = Array.isArray(value) ? value : [value];
  for (const urn of list) {
    if (typeof urn !== 'string' || !known.includes(urn.toLowerCase())) {
      return err(scimError('invalidValue', `${at}: "schemas" may only list schemas of ${ctx.model.definition.name}; ${JSON.stringify(urn)} is not one`));
    }
  }
  return ok(undefined);
}
