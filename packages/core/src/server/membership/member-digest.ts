import type { StoredVersions } from '../../json/stored-versions.js';
import { field, isRecord } from './member-key.js';

/** What one group's member list says, read once: the members of one type and the groups it may nest. */
export interface MemberDigest {
  /** Values of the members of the type (or of no stated type), in member order. */
  readonly ids: readonly string[];
  /** Values of the members that are, or may be, groups (typed as the group type, or untyped). */
  readonly groups: readonly string[];
  /** Every member counted in `ids` stated its type (it was resolved on write). */
  readonly typed: boolean;
}

/**
 * The member digests one server keeps (part of its `ServerCaches`): by stored member array (one
 * registered in `versions`, so it never changes: a digest is valid for the array's lifetime), then
 * by the pair of type names. A group's next version is a new array, and the old one's digests go
 * with it. Any other array is read each time.
 */
export class MemberDigests {
  readonly #digests = new WeakMap<readonly unknown[], Map<string, MemberDigest>>();

  constructor(private readonly versions: StoredVersions) {}

  /**
   * The digest of `members` for members of `typeName` within groups of `groupName`: one tight pass
   * over the stored elements (schema spelling `value`, `type` first), remembered for a stored
   * version so that `GET /Users?filter=groups.value eq "<gid>"` reads a 100,000-member group once
   * per version.
   */
  of(members: readonly unknown[], typeName: string, groupName: string): MemberDigest {
    if (!this.versions.has(members)) return readMembers(members, typeName, groupName);
    const key = `${typeName}\u0000${groupName}`;
    let byNames = this.#digests.get(members);
    if (byNames === undefined) this.#digests.set(members, (byNames = new Map()));
    let digest = byNames.get(key);
    if (digest === undefined) byNames.set(key, (digest = readMembers(members, typeName, groupName)));
    return digest;
  }
}

function readMembers(members: readonly unknown[], typeName: string, groupName: string): MemberDigest {
  const ids: string[] = [];
  const groups: string[] = [];
  let typed = true;
  for (const element of members) {
    if (!isRecord(element)) continue;
    const value = element['value'] ?? field(element, 'value');
    if (typeof value !== 'string') continue;
    const raw = element['type'] ?? field(element, 'type');
    const kind = raw === typeName || raw === groupName ? raw : typeof raw === 'string' ? sameName(raw, typeName, groupName) : undefined;
    if (kind === undefined || kind === groupName) groups.push(value);
    if (kind !== undefined && kind !== typeName) continue;
    ids.push(value);
    if (kind === undefined) typed = false;
  }
  return { ids, groups, typed };
}

/** `raw` spelled in another case than one of the two names: that name; else `raw` itself. */
function sameName(raw: string, typeName: string, groupName: string): string {
  const lower = raw.toLowerCase();
  return lower === typeName.toLowerCase() ? typeName : lower === groupName.toLowerCase() ? groupName : raw;
}
