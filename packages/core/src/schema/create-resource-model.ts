import type { AttrPath } from '../filter/ast.js';
import type { AttributeFacts, UniqueAttribute } from '../store/scim-store.js';
import type { AttributeDefinition, ResourceTypeDefinition, SchemaDefinition } from './attribute-definition.js';
import type { ResolvedAttribute, ResourceModel } from './resource-model.js';
import { MODEL_MEMO, ModelMemo } from './model-memo.js';

/** One top-level attribute with a lowercase index of its sub-attributes. */
interface Entry {
  readonly schema: SchemaDefinition;
  readonly extension: boolean;
  readonly attribute: AttributeDefinition;
  readonly subs: ReadonlyMap<string, AttributeDefinition>;
}

/** A schema of the resource type with a lowercase index of its top-level attributes. */
interface SchemaIndex {
  readonly schema: SchemaDefinition;
  readonly extension: boolean;
  /** `urn…:` lowercased, the prefix of a qualified path. */
  readonly prefix: string;
  readonly attributes: ReadonlyMap<string, Entry>;
}

/**
 * Compile a resource type into a `ResourceModel` with precomputed, case-insensitive lookup maps.
 * `common` are the RFC 7643 §3.1 attributes (id, externalId, meta); they belong to the core schema
 * and take precedence over a core schema attribute of the same name (RFC 7643 §3.1).
 */
export function createResourceModel(
  definition: ResourceTypeDefinition,
  core: SchemaDefinition,
  extensions: readonly { readonly schema: SchemaDefinition; readonly required: boolean }[],
  common: readonly AttributeDefinition[],
): ResourceModel {
  const commonNames = new Set(common.map((a) => a.name.toLowerCase()));
  const coreIndex = indexSchema(core, false, [...common, ...core.attributes.filter((a) => !commonNames.has(a.name.toLowerCase()))]);
  const extensionIndexes = extensions.map((e) => indexSchema(e.schema, true, e.schema.attributes));
  // Longest prefix first, so a URN that extends another URN wins.
  const indexes = [coreIndex, ...extensionIndexes].sort((a, b) => b.prefix.length - a.prefix.length);

  // RFC 7644 §3.10: clients SHOULD (not MUST) qualify extension attributes; an unqualified name
  // that no core attribute has resolves to the one extension attribute of that name, if unambiguous.
  const unqualified = new Map<string, Entry | undefined>();
  for (const index of extensionIndexes) {
    for (const [key, entry] of index.attributes) unqualified.set(key, unqualified.has(key) ? undefined : entry);
  }

  const unique: UniqueAttribute[] = [];
  for (const index of [coreIndex, ...extensionIndexes]) {
    for (const entry of index.attributes.values()) {
      const a = entry.attribute;
      if (a.uniqueness === 'none' || (!index.extension && commonNames.has(a.name.toLowerCase()))) continue;
      unique.push(Object.freeze({ path: index.extension ? `${index.schema.id}:${a.name}` : a.name, caseExact: a.caseExact }));
    }
  }

  function lookup(path: AttrPath): { entry: Entry; sub: string | undefined } | undefined {
    if (typeof path?.attr !== 'string') return undefined;
    const qualified = path.uri !== undefined || path.attr.includes(':');
    if (!qualified) {
      const key = path.attr.toLowerCase();
      const entry = coreIndex.attributes.get(key) ?? unqualified.get(key);
      return entry === undefined ? undefined : { entry, sub: path.subAttr };
    }
    // Rebuild the text so that any split of `urn:…:2.0:User:name.givenName` resolves alike
    // (schema URNs contain ':' and '.', attribute names contain neither; RFC 7644 §3.10).
    const text = `${path.uri !== undefined ? `${path.uri}:` : ''}${path.attr}${path.subAttr !== undefined ? `.${path.subAttr}` : ''}`;
    const lower = text.toLowerCase();
    const index = indexes.find((i) => lower.startsWith(i.prefix));
    if (index === undefined) return undefined;
    const rest = lower.slice(index.prefix.length);
    const dot = rest.indexOf('.');
    const entry = index.attributes.get(dot < 0 ? rest : rest.slice(0, dot));
    return entry === undefined ? undefined : { entry, sub: dot < 0 ? undefined : rest.slice(dot + 1) };
  }

  // Resolutions are immutable: each distinct name (ignoring case) is resolved once. Only names
  // that resolve are kept, so the cache is bounded by the schemas, not by what clients send.
  const resolved = new Map<string, ResolvedAttribute>();
  function resolve(path: AttrPath): ResolvedAttribute | undefined {
    if (typeof path?.attr !== 'string') return undefined;
    const key = `${path.uri ?? ''}\u0000${path.attr}\u0000${path.subAttr ?? ''}`.toLowerCase();
    const cached = resolved.get(key);
    if (cached !== undefined) return cached;
    const found = resolveUncached(path);
    if (found !== undefined) resolved.set(key, Object.freeze(found));
    return found;
  }

  function resolveUncached(path: AttrPath): ResolvedAttribute | undefined {
    const found = lookup(path);
    if (found === undefined) return undefined;
    const { entry, sub } = found;
    const head = entry.extension ? [entry.schema.id, entry.attribute.name] : [entry.attribute.name];
    if (sub === undefined) {
      return { schema: entry.schema.id, extension: entry.extension, attribute: entry.attribute, target: entry.attribute, keys: head };
    }
    const subAttribute = entry.subs.get(sub.toLowerCase());
    if (subAttribute === undefined) return undefined;
    return {
      schema: entry.schema.id,
      extension: entry.extension,
      attribute: entry.attribute,
      subAttribute,
      target: subAttribute,
      keys: [...head, subAttribute.name],
    };
  }

  function facts(path: AttrPath): AttributeFacts | undefined {
    const resolved = resolve(path);
    if (resolved === undefined) return undefined;
    const name = resolved.subAttribute ? `${resolved.attribute.name}.${resolved.subAttribute.name}` : resolved.attribute.name;
    return {
      fullPath: `${resolved.schema}:${name}`,
      type: resolved.target.type,
      caseExact: resolved.target.caseExact,
      // True when the value at the path can be several: `emails.value` holds one value per email.
      multiValued: resolved.attribute.multiValued || resolved.target.multiValued,
    };
  }

  const model: ResourceModel = {
    definition,
    core,
    extensions: Object.freeze(extensions.map((e) => Object.freeze({ schema: e.schema, required: e.required }))),
    unique: Object.freeze(unique),
    resolve,
    facts,
  };
  // What the core derives from this model and keeps lives with it (see ModelMemo), out of sight of `toEqual`.
  Object.defineProperty(model, MODEL_MEMO, { value: new ModelMemo() });
  return Object.freeze(model);
}

function indexSchema(schema: SchemaDefinition, extension: boolean, attributes: readonly AttributeDefinition[]): SchemaIndex {
  const map = new Map<string, Entry>();
  for (const attribute of attributes) {
    const subs = new Map<string, AttributeDefinition>();
    for (const sub of attribute.subAttributes ?? []) subs.set(sub.name.toLowerCase(), sub);
    map.set(attribute.name.toLowerCase(), { schema, extension, attribute, subs });
  }
  return { schema, extension, prefix: `${schema.id.toLowerCase()}:`, attributes: map };
}
