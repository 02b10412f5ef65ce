import { scimError, type BeforeWriteEvent, type BeforeWriteResult } from '@scimkit/core';

/**
 * A `beforeWrite` rule: groups whose `displayName` is reserved to the application (compared
 * case-insensitively) can be neither created nor renamed to by a client; the answer is 400
 * invalidValue naming the name, and nothing is stored.
 */
export function reservedGroupNames(names: readonly string[]): (event: BeforeWriteEvent) => BeforeWriteResult {
  const reserved = new Set(names.map((name) => name.toLowerCase()));
  return (event) => {
    if (event.resourceType !== 'Group' || event.resource === undefined) return undefined;
    const name = event.resource['displayName'];
    if (typeof name !== 'string' || !reserved.has(name.toLowerCase())) return undefined;
    const before = event.existing?.['displayName'];
    // A group that already has the name (created by the application) may still be edited.
    if (typeof before === 'string' && before.toLowerCase() === name.toLowerCase()) return undefined;
    return scimError('invalidValue', `The group name "${name}" is reserved`);
  };
}
