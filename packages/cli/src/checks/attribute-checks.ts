import type { Check } from '../check.js';
import type { CheckContext } from '../check-context.js';
import { all, needsFilter, needsUsers } from '../applies.js';
import { bodyOf, expectStatus, expectThat, pick } from '../expect.js';


/** GET the fixture user a with these query parameters: 200 and its body. */
async function readFixtureA(ctx: CheckContext, query: Record<string, string>) {
  const f = await ctx.fixtures();
  const exchange = await ctx.send('GET', ctx.pathOf(ctx.users, f.a.id), { query });
  expectStatus(exchange, 200, 'RFC 7644 §3.9');
  return { f, body: bodyOf(exchange), exchange };
}

export const attributeChecks: readonly Check[] = [
  {
    id: 'attributes.attributes',
    tag: 'attributes',
    title: 'attributes=userName returns userName and id only (and schemas)',
    reference: 'RFC 7644 §3.9',
    writes: true,
    applies: needsUsers,
    async run(ctx) {
      const { f, body, exchange } = await readFixtureA(ctx, { attributes: 'userName' });
      expectThat(body['id'] === f.a.id && pick(body, 'userName') === f.a['userName'], 'id or userName missing', 'id (returned always) and userName', exchange);
      expectThat(pick(body, 'displayName') === undefined && pick(body, 'emails') === undefined, 'Other attributes came back', 'no displayName, no emails (RFC 7644 §3.9: only the attributes asked for and those returned always)', exchange);
    },
  },
  {
    id: 'attributes.excluded',
    tag: 'attributes',
    title: 'excludedAttributes=emails,displayName leaves them out, keeps the rest',
    reference: 'RFC 7644 §3.9',
    writes: true,
    applies: needsUsers,
    async run(ctx) {
      const { f, body, exchange } = await readFixtureA(ctx, { excludedAttributes: 'emails,displayName' });
      expectThat(pick(body, 'emails') === undefined && pick(body, 'displayName') === undefined, 'An excluded attribute came back', 'no emails, no displayName', exchange);
      expectThat(pick(body, 'userName') === f.a['userName'] && pick(body, 'title') === 'Engineer', 'Attributes not excluded are missing', 'userName and title still there', exchange);
    },
  },
  {
    id: 'attributes.list',
    tag: 'attributes',
    title: 'attributes applies to every resource of a list',
    reference: 'RFC 7644 §3.4.2.5',
    writes: true,
    applies: all(needsUsers, needsFilter),
    async run(ctx) {
      const f = await ctx.fixtures();
      const exchange = await ctx.send('GET', ctx.users, { query: { filter: `userName sw "${f.scope}"`, attributes: 'displayName' } });
      expectStatus(exchange, 200, 'RFC 7644 §3.4.2.5');
      const resources = bodyOf(exchange)['Resources'];
      expectThat(
        Array.isArray(resources) && resources.length === 3 && resources.every((r) => pick(r, 'displayName') !== undefined && pick(r, 'userName') === undefined && pick(r, 'id') !== undefined),
        'The resources do not hold exactly id and displayName',
        'three resources with id and displayName, without userName',
        exchange,
      );
    },
  },
];
