import type { AttrPath, AttributeType, ResourceModel } from '@scimkit/core';
import { parseAttrPath } from '@scimkit/core/engine';
import type { ColumnMapping, TableMapping } from './mapping.js';

/** One mapped attribute path, resolved against the resource type's schema. */
export interface MappedAttribute {
  /** The path as the mapping spells it. */
  readonly path: string;
  readonly column: string;
  /** Schema-spelled keys that reach the value (`['name', 'givenName']`, `[urn, 'department']`). */
  readonly keys: readonly string[];
  /** For one typed element of a multi-valued attribute: the attribute's keys, and the element's selector. */
  readonly element?: { readonly keys: readonly string[]; readonly selector: string; readonly value: string; readonly sub: string };
  readonly type: AttributeType;
  readonly caseExact: boolean;
  /** The core schema or an extension's URN, when the value lives under the extension's key. */
  readonly extension?: string;
  readonly write?: ColumnMapping['write'];
  readonly read?: ColumnMapping['read'];
  /** Written when the resource has no value. */
  readonly default?: unknown;
  /** The column of the value's comparison key (NFC, lower-cased), filled on every write. */
  readonly key?: string;
}

/** A mapping checked against its resource type, ready for reads, writes and translation. */
export interface CompiledMapping {
  readonly resourceType: string;
  readonly model: ResourceModel;
  readonly table: TableMapping;
  readonly attributes: readonly MappedAttribute[];
  /** The distinct columns attributes are read from. */
  readonly columns: readonly string[];
}

const ELEMENT = /^(.+)\[\s*([A-Za-z][\w$-]*)\s+eq\s+"([^"]*)"\s*\]\.([A-Za-z][\w$-]*)$/i;

/** Resolves every attribute path of `table` against `model`; throws a clear TypeError on a path the schema lacks. */
export function compileMapping(resourceType: string, model: ResourceModel, table: TableMapping): CompiledMapping {
  const attributes: MappedAttribute[] = [];
  for (const [path, target] of Object.entries(table.attributes)) {
    const column = typeof target === 'string' ? target : target.column;
    const converters =
      typeof target === 'string'
        ? {}
        : {
            ...(target.write ? { write: target.write } : {}),
            ...(target.read ? { read: target.read } : {}),
            ...(target.default === undefined ? {} : { default: target.default }),
            ...(target.key === undefined ? {} : { key: target.key }),
          };
    const element = ELEMENT.exec(path);
    if (element !== null) {
      const [, base = '', selector = '', value = '', sub = ''] = element;
      const parsed = must(parseAttrPath(base), path);
      if (parsed.subAttr !== undefined) throw new TypeError(`@scimkit/sql: ${resourceType} mapping '${path}': the element selector must follow a multi-valued attribute`);
      const valuePath = resolved(model, { ...parsed, subAttr: sub }, path, resourceType);
      const selectorPath = resolved(model, { ...parsed, subAttr: selector }, path, resourceType);
      if (!valuePath.attribute.multiValued) throw new TypeError(`@scimkit/sql: ${resourceType} mapping '${path}': '${base}' is not multi-valued`);
      attributes.push({
        path,
        column,
        keys: valuePath.keys,
        element: { keys: valuePath.keys.slice(0, -1), selector: selectorPath.keys[selectorPath.keys.length - 1] as string, value, sub: valuePath.keys[valuePath.keys.length - 1] as string },
        type: valuePath.target.type,
        caseExact: valuePath.target.caseExact,
        ...(valuePath.extension ? { extension: valuePath.schema } : {}),
        ...converters,
      });
      continue;
    }
    const parsed = must(parseAttrPath(path), path);
    const found = resolved(model, parsed, path, resourceType);
    if (found.target.multiValued || found.target.type === 'complex') {
      throw new TypeError(`@scimkit/sql: ${resourceType} mapping '${path}': map a single-valued simple attribute, or one typed element ('emails[type eq "work"].value')`);
    }
    if (typeof target !== 'string' && target.key !== undefined && (found.target.type !== 'string' || found.target.caseExact)) {
      throw new TypeError(`@scimkit/sql: ${resourceType} mapping '${path}': a key column is for caseExact:false text`);
    }
    attributes.push({
      path,
      column,
      keys: found.keys,
      type: found.target.type,
      caseExact: found.target.caseExact,
      ...(found.extension ? { extension: found.schema } : {}),
      ...converters,
    });
  }
  for (const a of attributes) if (a.key !== undefined && a.element !== undefined) throw new TypeError(`@scimkit/sql: ${resourceType} mapping '${a.path}': a key column is for a single-valued attribute`);
  const columns = [...new Set(attributes.map((a) => a.column))];
  return { resourceType, model, table, attributes, columns };
}

function resolved(model: ResourceModel, path: AttrPath, spelled: string, resourceType: string) {
  const found = model.resolve(path);
  if (found === undefined) throw new TypeError(`@scimkit/sql: ${resourceType} mapping '${spelled}': no such attribute in the ${resourceType} schemas`);
  if (found.keys[0] === 'id' || found.keys[0] === 'meta') throw new TypeError(`@scimkit/sql: ${resourceType} mapping '${spelled}': id and meta come from the id and version columns`);
  return found;
}

function must(result: { ok: true; value: AttrPath } | { ok: false; error: { detail: string } }, path: string): AttrPath {
  if (!result.ok) throw new TypeError(`@scimkit/sql: mapping path '${path}': ${result.error.detail}`);
  return result.value;
}
