import { describe, expect, it } from 'vitest';
import { ENTERPRISE, SEARCH, USER, userBody } from '../support/fixtures.js';
import { expectError, expectList } from '../support/expect-scim.js';
import type { ScimClient } from '../support/scim-client.js';
import type { Current } from '../support/service-under-test.js';

/** Create users one after another (so list order is creation order). */
async function createUsers(client: ScimClient, bodies: Record<string, unknown>[]): Promise<{ id: string; userName: string }[]> {
  const created = [];
  for (const body of bodies) {
    const reply = await client.post('/Users', body);
    expect(reply.status, reply.text).toBe(201);
    created.push(reply.body);
  }
  return created;
}

const userNames = (reply: { body: { Resources: { userName: string }[] } }) => reply.body.Resources.map((r) => r.userName);

/** examples/seed-service/README.md "Query parameters", GET /Users, POST /Users/.search; docs/concepts/paging.md, docs/concepts/filters.md. */
export function describeLists(service: Current): void {
  describe('paging', () => {
    it('an empty store lists nothing: totalResults 0, startIndex 1, Resources []', async () => {
      const reply = await service().client.get('/Users');
      expectList(reply, 0, 1, 0);
      expect(reply.body.Resources).toEqual([]);
    });

    it('pages by startIndex and count; totalResults counts before paging', async () => {
      const { client } = service();
      await createUsers(client, ['u1', 'u2', 'u3', 'u4', 'u5'].map((n) => userBody(n)));
      let reply = await client.get('/Users', { query: { startIndex: 2, count: 2 } });
      expectList(reply, 5, 2, 2);
      expect(userNames(reply)).toEqual(['u2', 'u3']);
      reply = await client.get('/Users', { query: { startIndex: 5, count: 10 } });
      expectList(reply, 5, 5, 1);
      reply = await client.get('/Users', { query: { startIndex: 9 } });
      expectList(reply, 5, 9, 0);
    });

    it('treats startIndex < 1 as 1, a negative count as 0, count=0 as totalResults only', async () => {
      const { client } = service();
      await createUsers(client, ['a', 'b', 'c'].map((n) => userBody(n)));
      expectList(await client.get('/Users', { query: { startIndex: 0 } }), 3, 1, 3);
      expectList(await client.get('/Users', { query: { startIndex: -4, count: 2 } }), 3, 1, 2);
      const none = await client.get('/Users', { query: { count: -1 } });
      expectList(none, 3, 1, 0);
      const zero = await client.get('/Users', { query: { count: 0 } });
      expectList(zero, 3, 1, 0);
      expect(zero.body.Resources).toEqual([]);
    });

    it('uses the default page size without count and caps a large count silently', async () => {
      const { client } = service();
      const batch = Array.from({ length: 105 }, (_, i) => userBody(`page${i}`));
      for (let i = 0; i < batch.length; i += 35) {
        const replies = await Promise.all(batch.slice(i, i + 35).map((body) => client.post('/Users', body)));
        expect(replies.every((r) => r.status === 201)).toBe(true);
      }
      const defaulted = await client.get('/Users');
      expect(defaulted.body.totalResults).toBe(105);
      expect(defaulted.body.itemsPerPage).toBe(100);
      const huge = await client.get('/Users', { query: { count: 1_000_000 } });
      expectList(huge, 105, 1, 105);
    });

    it('rejects a non-integer startIndex or count with 400 invalidValue', async () => {
      const { client } = service();
      expectError(await client.get('/Users', { query: { startIndex: 'abc' } }), 400, 'invalidValue');
      expectError(await client.get('/Users', { query: { count: '1.5' } }), 400, 'invalidValue');
      expectError(await client.post('/Users/.search', { schemas: [SEARCH], count: 'ten' }), 400, 'invalidValue');
      expectError(await client.post('/Users/.search', { schemas: [SEARCH], startIndex: 1.5 }), 400, 'invalidValue');
    });

    it('rejects attributes together with excludedAttributes (400 invalidSyntax) and ignores unknown names', async () => {
      const { client } = service();
      await createUsers(client, [userBody('sel')]);
      expectError(await client.get('/Users', { query: { attributes: 'userName', excludedAttributes: 'emails' } }), 400, 'invalidSyntax');
      const reply = await client.get('/Users', { query: { attributes: 'userName,noSuchThing' } });
      expectList(reply, 1, 1, 1);
      expect(reply.body.Resources[0].userName).toBe('sel');
      expect(reply.body.Resources[0].emails).toBeUndefined();
    });
  });

  describe('filter', () => {
    const population = () => [
      userBody('alice', { name: { givenName: 'Alice', familyName: 'Smith' }, title: 'Engineer', externalId: 'ext-A' }),
      userBody('bob', { name: { givenName: 'Bob', familyName: 'Jones' }, active: false, emails: [{ value: 'bob@work.example', type: 'work' }, { value: 'bob@home.example', type: 'home' }] }),
      userBody('Carol', { name: { givenName: 'Carol', familyName: 'smith' }, schemas: [USER, ENTERPRISE], [ENTERPRISE]: { department: 'Sales', employeeNumber: '7' } }),
    ];
    const filter = async (expression: string) => service().client.get('/Users', { query: { filter: expression } });

    it('matches userName ignoring case (caseExact false), operators and names in any case', async () => {
      await createUsers(service().client, population());
      for (const expression of ['userName eq "ALICE"', 'USERNAME EQ "alice"', `${USER}:userName eq "Alice"`, 'username Eq "alice"']) {
        const reply = await filter(expression);
        expectList(reply, 1, 1, 1);
        expect(reply.body.Resources[0].userName).toBe('alice');
      }
    });

    it('supports every operator, logic, grouping and value paths (RFC 7644 §3.4.2.2)', async () => {
      await createUsers(service().client, population());
      const cases: [string, string[]][] = [
        ['name.familyName eq "smith"', ['alice', 'Carol']],
        ['name.familyName ne "Smith"', ['bob']],
        ['userName co "li"', ['alice']],
        ['userName sw "B"', ['bob']],
        ['userName ew "OL"', ['Carol']],
        ['userName gt "bob"', ['Carol']],
        ['userName ge "bob"', ['bob', 'Carol']],
        ['userName lt "bob"', ['alice']],
        ['userName le "bob"', ['alice', 'bob']],
        ['title pr', ['alice']],
        ['not (title pr)', ['bob', 'Carol']],
        ['active eq false', ['bob']],
        ['active eq true and name.givenName sw "C"', ['Carol']],
        ['userName eq "alice" or userName eq "bob"', ['alice', 'bob']],
        ['(userName eq "alice" or userName eq "bob") and active eq true', ['alice']],
        ['emails.value co "home"', ['bob']],
        ['emails[type eq "work" and value co "@work."]', ['bob']],
        ['emails[type eq "home"]', ['bob']],
        ['externalId eq "ext-A"', ['alice']],
        [`${ENTERPRISE}:department eq "sales"`, ['Carol']],
        ['meta.created gt "2000-01-01T00:00:00Z"', ['alice', 'bob', 'Carol']],
        ['meta.lastModified lt "2000-01-01T00:00:00Z"', []],
      ];
      for (const [expression, expected] of cases) {
        const reply = await filter(expression);
        expect(reply.status, `${expression}: ${reply.text}`).toBe(200);
        expect(userNames(reply).sort(), expression).toEqual([...expected].sort());
        expect(reply.body.totalResults, expression).toBe(expected.length);
      }
    });

    it('filters and sorts on meta.location as served (the store does not hold it)', async () => {
      const { client } = service();
      const [first, second] = await createUsers(client, [userBody('loc1'), userBody('loc2')]);
      const location = `${client.baseUrl}/Users/${second?.id}`;
      const exact = await filter(`meta.location eq "${location}"`);
      expectList(exact, 1, 1, 1);
      expect(userNames(exact)).toEqual(['loc2']);
      expectList(await filter('meta.location co "/Users/"'), 2, 1, 2);
      expectList(await filter('meta[location co "/Users/"]'), 2, 1, 2);
      expectList(await filter('meta.location pr and userName eq "loc1"'), 1, 1, 1);
      const ids = [first?.id, second?.id].sort() as string[];
      const sorted = await client.get('/Users', { query: { sortBy: 'meta.location', sortOrder: 'descending', count: 1 } });
      expectList(sorted, 2, 1, 1);
      expect(sorted.body.Resources[0].id).toBe(ids[1]);
    });

    it('answers 400 invalidFilter for syntax errors, unknown attributes and never-returned attributes', async () => {
      for (const expression of ['userName eq', 'userName xx "a"', '(userName eq "a"', 'noSuchAttribute eq "x"', 'password eq "secret"', 'userName eq "unterminated']) {
        expectError(await filter(expression), 400, 'invalidFilter');
      }
    });
  });

  describe('sort', () => {
    it('sorts by userName ignoring case, ascending by default, and descending', async () => {
      const { client } = service();
      await createUsers(client, ['delta', 'Alpha', 'charlie', 'Bravo'].map((n) => userBody(n)));
      expect(userNames(await client.get('/Users', { query: { sortBy: 'userName' } }))).toEqual(['Alpha', 'Bravo', 'charlie', 'delta']);
      expect(userNames(await client.get('/Users', { query: { sortBy: 'userName', sortOrder: 'descending' } }))).toEqual(['delta', 'charlie', 'Bravo', 'Alpha']);
      expect(userNames(await client.get('/Users', { query: { sortBy: 'USERNAME', sortOrder: 'ascending', startIndex: 2, count: 2 } }))).toEqual(['Bravo', 'charlie']);
    });

    it('puts resources without the value last ascending and first descending, stably', async () => {
      const { client } = service();
      await createUsers(client, [userBody('n1'), userBody('t1', { title: 'B' }), userBody('n2'), userBody('t2', { title: 'A' })]);
      expect(userNames(await client.get('/Users', { query: { sortBy: 'title' } }))).toEqual(['t2', 't1', 'n1', 'n2']);
      expect(userNames(await client.get('/Users', { query: { sortBy: 'title', sortOrder: 'descending' } }))).toEqual(['n1', 'n2', 't1', 't2']);
    });

    it('sorts a multi-valued attribute by its primary value', async () => {
      const { client } = service();
      await createUsers(client, [
        userBody('m1', { emails: [{ value: 'z@x', type: 'work' }, { value: 'a@x', type: 'home', primary: true }] }),
        userBody('m2', { emails: [{ value: 'b@x', type: 'work', primary: true }] }),
      ]);
      expect(userNames(await client.get('/Users', { query: { sortBy: 'emails.value' } }))).toEqual(['m1', 'm2']);
    });

    it('rejects an unknown sortBy (400 invalidPath) and an unknown sortOrder (400 invalidValue)', async () => {
      const { client } = service();
      expectError(await client.get('/Users', { query: { sortBy: 'noSuchAttribute' } }), 400, 'invalidPath');
      expectError(await client.get('/Users', { query: { sortBy: 'password' } }), 400, 'invalidPath');
      expectError(await client.get('/Users', { query: { sortBy: 'userName', sortOrder: 'sideways' } }), 400, 'invalidValue');
    });
  });

  describe('POST /Users/.search', () => {
    it('has the semantics of GET /Users with the same parameters', async () => {
      const { client } = service();
      await createUsers(client, ['s1', 's2', 's3', 'x1'].map((n) => userBody(n)));
      const query = { filter: 'userName sw "s"', sortBy: 'userName', sortOrder: 'descending', startIndex: 2, count: 5 };
      const viaGet = await client.get('/Users', { query: { ...query, attributes: 'userName' } });
      const viaPost = await client.post('/Users/.search', { schemas: [SEARCH], ...query, attributes: ['userName'] });
      expectList(viaPost, 3, 2, 2);
      expect(viaPost.body).toEqual(viaGet.body);
      expect(userNames(viaPost)).toEqual(['s2', 's1']);
      expect(viaPost.body.Resources[0].emails).toBeUndefined();
    });

    it('routes /Users/.search in any case, like every other segment', async () => {
      const { client } = service();
      await createUsers(client, [userBody('cased')]);
      for (const path of ['/users/.Search', '/Users/.SEARCH', '/USERS/.search/']) {
        const reply = await client.post(path, { schemas: [SEARCH], filter: 'userName eq "cased"' });
        expectList(reply, 1, 1, 1);
      }
      const wrongMethod = await client.get('/Users/.Search');
      expectError(wrongMethod, 405);
      expect(wrongMethod.headers.get('allow')).toBe('POST');
    });

    it('accepts excludedAttributes as a list, a body without schemas, and rejects a wrong schemas', async () => {
      const { client } = service();
      await createUsers(client, [userBody('srch')]);
      const excluded = await client.post('/Users/.search', { schemas: [SEARCH], excludedAttributes: ['emails', 'name'] });
      expectList(excluded, 1, 1, 1);
      expect(excluded.body.Resources[0].emails).toBeUndefined();
      expect(excluded.body.Resources[0].userName).toBe('srch');
      expectList(await client.post('/Users/.search', { filter: 'userName eq "srch"' }), 1, 1, 1);
      expectError(await client.post('/Users/.search', { schemas: [USER], filter: 'userName eq "srch"' }), 400, 'invalidValue');
      expectError(await client.post('/Users/.search', { schemas: [SEARCH], filter: 'userName eq' }), 400, 'invalidFilter');
      expectError(await client.post('/Users/.search', { schemas: [SEARCH], attributes: ['userName'], excludedAttributes: ['emails'] }), 400, 'invalidSyntax');
    });
  });
}
