import type { PatchPath } from '@scimkit/core/printer';
import { printPatchPath } from '@scimkit/core/printer';
import { toAttrPath } from './attr-path.js';
import type { ScimFilter } from './filter-builder.js';
import { SCIM_URN } from './urn.js';

/** One PATCH operation (RFC 7644 §3.5.2). */
export interface PatchOperation {
  readonly op: 'add' | 'remove' | 'replace';
  readonly path?: string;
  readonly value?: unknown;
}

/** The PatchOp message (RFC 7644 §3.5.2). */
export interface PatchOpMessage {
  readonly schemas: readonly string[];
  readonly Operations: readonly PatchOperation[];
}

/**
 * A PATCH path: a string as written (`name.givenName`, `emails[type eq "work"].value`), or parts
 * printed by the core so that the filter's values are escaped: `{ attribute: 'emails', filter, sub: 'value' }`.
 */
export type PatchPathInput = string | { readonly attribute: string; readonly filter?: ScimFilter; readonly sub?: string };

/**
 * Builds a PatchOp body, one operation a call:
 * `patchOps().replace('active', false).add('emails', [{ value: 'x@y', type: 'work' }])`.
 * Operations run in order and atomically (RFC 7644 §3.5.2).
 */
export class PatchBuilder {
  readonly #operations: PatchOperation[] = [];

  /** `add`: a value to a path, or (no path) the attributes of `value` to the resource (§3.5.2.1). */
  add(path: PatchPathInput | undefined, value: unknown): this {
    this.#operations.push(path === undefined ? { op: 'add', value } : { op: 'add', path: pathText(path), value });
    return this;
  }

  /** `replace` (§3.5.2.3). Without a path, `value` is an object of attributes to replace. */
  replace(path: PatchPathInput | undefined, value: unknown): this {
    this.#operations.push(path === undefined ? { op: 'replace', value } : { op: 'replace', path: pathText(path), value });
    return this;
  }

  /** `remove` (§3.5.2.2); `value` only for clients that remove listed members that way (Entra ID). */
  remove(path: PatchPathInput, value?: unknown): this {
    this.#operations.push(value === undefined ? { op: 'remove', path: pathText(path) } : { op: 'remove', path: pathText(path), value });
    return this;
  }

  get operations(): readonly PatchOperation[] {
    return this.#operations;
  }

  /** The PatchOp body. */
  build(): PatchOpMessage {
    if (this.#operations.length === 0) throw new TypeError('A PatchOp needs at least one operation (RFC 7644 §3.5.2)');
    return { schemas: [SCIM_URN.patchOp], Operations: [...this.#operations] };
  }

  toJSON(): PatchOpMessage {
    return this.build();
  }
}

export function patchOps(): PatchBuilder {
  return new PatchBuilder();
}

function pathText(path: PatchPathInput): string {
  if (typeof path === 'string') {
    if (path === '') throw new TypeError('An empty PATCH path; leave it out instead');
    return path;
  }
  const parsed: PatchPath = {
    attrPath: toAttrPath(path.attribute),
    ...(path.filter === undefined ? {} : { valueFilter: path.filter.ast }),
    ...(path.sub === undefined ? {} : { subAttr: toAttrPath(path.sub).attr }),
  };
  return printPatchPath(parsed);
}
