import type { ChangeEvent, ScimResource } from '@scimkit/core';
import { APP_USER_EXTENSION } from './app-user-extension.js';

/** A row of the application's own users table: the few fields the app cares about. */
export interface AppUser {
  readonly id: string;
  readonly userName: string;
  readonly displayName: string;
  readonly email: string | undefined;
  readonly active: boolean;
  readonly plan: string;
}

/**
 * The application's own users table (a Map standing in for the app's database). SCIM is the
 * source of truth; `sync` applies each committed SCIM change to it, so the rest of the app never
 * reads SCIM resources.
 */
export class AppUserTable {
  readonly #rows = new Map<string, AppUser>();

  list(): AppUser[] {
    return [...this.#rows.values()];
  }

  get(id: string): AppUser | undefined {
    return this.#rows.get(id);
  }

  /** Give this to `createScimServer({ onChange })`. */
  sync = (event: ChangeEvent): void => {
    if (event.resourceType !== 'User') return;
    if (event.after === undefined) this.#rows.delete(event.id);
    else this.#rows.set(event.id, toAppUser(event.after));
  };
}

function toAppUser(user: ScimResource): AppUser {
  const name = user['name'] as { formatted?: string; givenName?: string; familyName?: string } | undefined;
  const emails = (user['emails'] ?? []) as { value?: string; primary?: boolean }[];
  const app = user[APP_USER_EXTENSION] as { plan?: string } | undefined;
  const fullName = [name?.givenName, name?.familyName].filter(Boolean).join(' ');
  return {
    id: user.id,
    userName: String(user['userName']),
    displayName: (user['displayName'] as string | undefined) ?? name?.formatted ?? (fullName || String(user['userName'])),
    email: (emails.find((email) => email.primary === true) ?? emails[0])?.value,
    active: user['active'] !== false,
    plan: app?.plan ?? 'free',
  };
}
