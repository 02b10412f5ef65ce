import { patchOps, ScimPreconditionFailedError, SCIM_URN, userFilter, type ScimClient, type ScimUser } from '@scimkit/client';

/** A person in the source system (an HR export, the application's own table). */
export interface Person {
  readonly email: string;
  readonly givenName: string;
  readonly familyName: string;
  readonly department?: string;
}

export interface PushSummary {
  readonly created: number;
  readonly updated: number;
  readonly unchanged: number;
  readonly deactivated: number;
}

const ENTERPRISE = SCIM_URN.enterpriseUser;

/**
 * Makes the downstream SCIM service hold `people`: creates who is missing, updates who changed (a
 * PATCH sent with `If-Match`, read again and retried once when someone else wrote in between), and
 * deactivates the active users who are no longer listed. The userName is the email.
 */
export async function pushUsers(client: ScimClient, people: readonly Person[]): Promise<PushSummary> {
  let created = 0;
  let updated = 0;
  let unchanged = 0;
  for (const person of people) {
    const [existing] = await client.users.list({ filter: userFilter.eq('userName', person.email) }).toArray(1);
    if (existing === undefined) {
      await client.users.create(toUser(person));
      created++;
    } else if (await update(client, existing, person)) {
      updated++;
    } else {
      unchanged++;
    }
  }

  const listed = new Set(people.map((person) => person.email.toLowerCase()));
  const leavers: string[] = [];
  for await (const user of client.users.list({ filter: userFilter.eq('active', true), attributes: ['userName'] })) {
    if (user.id !== undefined && !listed.has(String(user.userName).toLowerCase())) leavers.push(user.id);
  }
  for (const id of leavers) await client.users.patch(id, patchOps().replace('active', false));
  return { created, updated, unchanged, deactivated: leavers.length };
}

/** PATCHes what differs; true when something did. */
async function update(client: ScimClient, user: ScimUser, person: Person, retried = false): Promise<boolean> {
  const ops = patchOps();
  if (user.name?.givenName !== person.givenName) ops.replace('name.givenName', person.givenName);
  if (user.name?.familyName !== person.familyName) ops.replace('name.familyName', person.familyName);
  if (user.active !== true) ops.replace('active', true);
  if (person.department !== undefined && user[ENTERPRISE]?.department !== person.department) ops.replace(`${ENTERPRISE}:department`, person.department);
  if (ops.operations.length === 0) return false;
  try {
    // If-Match: the version this user was read at (RFC 7644 §3.14).
    await client.users.patch(user, ops);
    return true;
  } catch (error) {
    if (!(error instanceof ScimPreconditionFailedError) || retried) throw error;
    return update(client, await client.users.get(user.id!), person, true);
  }
}

function toUser(person: Person): ScimUser {
  return {
    schemas: [SCIM_URN.user, ...(person.department === undefined ? [] : [ENTERPRISE])],
    userName: person.email,
    name: { givenName: person.givenName, familyName: person.familyName },
    emails: [{ value: person.email, type: 'work', primary: true }],
    active: true,
    ...(person.department === undefined ? {} : { [ENTERPRISE]: { department: person.department } }),
  };
}
