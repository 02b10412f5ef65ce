import { expect } from 'vitest';
import { request, type Answer } from './fault-server.js';

/*
 * What every database fault suite checks once its load has run (this package's full server and
 * @scimkit/sql's own-tables server): the answers, the recovery, and that no write was lost or
 * half-applied. The suites differ in the server they start and the faults they inject, not in this.
 */

const USER = 'urn:ietf:params:scim:schemas:core:2.0:User';
const ERROR = 'urn:ietf:params:scim:api:messages:2.0:Error';

/** What a user may look like now: one state while every write on it was acknowledged, two after one failed. */
export interface UserState {
  readonly exists: boolean;
  readonly title?: string;
  readonly member: boolean;
}

export interface TrackedUser {
  readonly userName: string;
  id?: string;
  /** Possible states (the first write that fails freezes the user: no more writes to it). */
  states: UserState[];
  frozen: boolean;
  /** A create that failed: the user may or may not exist. */
  createUncertain: boolean;
}

/** One answer of the load, with the fault phase it came in and what it did. */
export interface Recorded extends Answer {
  readonly phase: string;
  readonly what: string;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Milliseconds until `GET /Users?count=1` answers 200, probing every 25 ms (at most `limitMs`). */
export async function timeToService(baseUrl: string, limitMs = 10_000): Promise<number> {
  const started = performance.now();
  while (performance.now() - started < limitMs) {
    if ((await request(baseUrl, 'GET', '/Users?count=1', undefined, limitMs)).status === 200) return performance.now() - started;
    await sleep(25);
  }
  return Infinity;
}

/**
 * Every request got an HTTP answer within `boundMs`; every failure is a SCIM error; transient ones
 * are 503 with Retry-After; a 500 only where a trigger failed a statement on purpose (`poison…`).
 */
export function expectBoundedAnswers(answers: readonly Recorded[], boundMs: number): void {
  const unanswered = answers.filter((a) => a.status === 0);
  expect(unanswered.map((a) => `${a.phase} ${a.what}: ${a.body}`)).toEqual([]);
  const slow = answers.filter((a) => a.ms > boundMs);
  expect(slow.map((a) => `${a.phase} ${a.what} ${a.status} ${Math.round(a.ms)} ms`)).toEqual([]);
  const failures = answers.filter((a) => a.status >= 400);
  for (const failure of failures) expect(failure.body?.schemas, `${failure.phase} ${failure.what} ${failure.status}`).toEqual([ERROR]);
  const unavailable = failures.filter((a) => a.status === 503);
  expect(unavailable.length).toBeGreaterThan(0);
  for (const answer of unavailable) {
    expect(Number(answer.retryAfter)).toBeGreaterThanOrEqual(1);
    expect(answer.body.status).toBe('503');
  }
  expect(failures.filter((a) => a.status !== 503 && !a.what.startsWith('poison')).map((a) => `${a.phase} ${a.what} ${a.status} ${a.body?.detail}`)).toEqual([]);
}

/**
 * What is wrong with the stored state: every acknowledged write must be there, every refused one
 * wholly there or wholly absent, a refused create must not leave its userName taken, and each
 * user's computed `groups` must agree with the group's `members`.
 * Worker `w`'s users were added to and removed from `groups[w]`.
 */
export async function writeProblems(baseUrl: string, groups: readonly string[], users: readonly TrackedUser[][]): Promise<string[]> {
  const problems: string[] = [];
  for (const [w, tracked] of users.entries()) {
    const group = await request(baseUrl, 'GET', `/Groups/${groups[w]}`);
    expect(group.status).toBe(200);
    const members = new Set<string>((group.body.members ?? []).map((m: { value: string }) => m.value));
    for (const user of tracked) {
      if (user.createUncertain) {
        const found = await request(baseUrl, 'GET', `/Users?filter=${encodeURIComponent(`userName eq "${user.userName}"`)}`);
        if (found.body.totalResults === 0) {
          const again = await request(baseUrl, 'POST', '/Users', { schemas: [USER], userName: user.userName });
          if (again.status !== 201) problems.push(`${user.userName}: refused create left its userName taken (${again.status})`);
        } else if (found.body.totalResults !== 1) problems.push(`${user.userName}: ${found.body.totalResults} users`);
        continue;
      }
      const read = await request(baseUrl, 'GET', `/Users/${user.id}`);
      const member = members.has(user.id as string);
      const seen: UserState = read.status === 404 ? { exists: false, member: false } : { exists: true, member, ...(read.body.title === undefined ? {} : { title: read.body.title }) };
      if (read.status === 404 && member) problems.push(`${user.userName}: deleted but still a member`);
      if (read.status === 200) {
        const listed = (read.body.groups ?? []).some((g: { value: string }) => g.value === groups[w]);
        if (listed !== seen.member) problems.push(`${user.userName}: User.groups disagrees with the group's members`);
      }
      const matches = user.states.some((s) => s.exists === seen.exists && (!s.exists || (s.member === seen.member && s.title === seen.title)));
      if (!matches) problems.push(`${user.userName}: ${JSON.stringify(seen)} is none of ${JSON.stringify(user.states)}`);
    }
  }
  return problems;
}
