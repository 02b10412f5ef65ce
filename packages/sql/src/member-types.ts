import type { MembersMapping } from './mapping.js';

/** The resource types a join table keeps as members: `typeColumn`'s, else `memberType` (default `User`). */
export function memberTypes(members: MembersMapping): readonly string[] {
  if (members.typeColumn === undefined) return [members.memberType ?? 'User'];
  return members.typeColumn.values === undefined ? ['User', 'Group'] : Object.keys(members.typeColumn.values);
}

/** What the type column holds for members of `type`. */
export function memberTypeValue(members: MembersMapping, type: string): string | number {
  return members.typeColumn?.values?.[type] ?? type;
}

/** The resource type a type column's value stands for (the first member type when it names none). */
export function memberTypeOf(members: MembersMapping, raw: unknown): string {
  const types = memberTypes(members);
  if (members.typeColumn === undefined) return types[0] as string;
  return types.find((type) => String(memberTypeValue(members, type)) === String(raw)) ?? (types[0] as string);
}
