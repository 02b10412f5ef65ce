import { describe, expect, it } from 'vitest';
import { URN } from '../../src/index.js';
import { call, post, server, user } from './helpers.js';

/**
 * Python's scim2-models (0.6) writes `schemas` inside an extension's object as well as at the top
 * (`{"urn:…:enterprise:2.0:User": {"schemas": […], "employeeNumber": "42"}}`). `schemas` is an attribute
 * of the resource (RFC 7643 §3), not of the extension: it is accepted there and dropped.
 */
describe('schemas inside an extension value', () => {
  const ENTERPRISE = URN.enterpriseUser;
  const json = { 'content-type': 'application/scim+json' };
  const extension = (employeeNumber: string) => ({ schemas: [ENTERPRISE], employeeNumber });

  it('is accepted and dropped in POST, PUT and PATCH (path-less, and with the extension URN as path)', async () => {
    const target = server();
    const created = await call(target, post('/Users', user('babs', { schemas: [URN.user, ENTERPRISE], [ENTERPRISE]: extension('1') })));
    expect(created.status).toBe(201);
    expect(created.body[ENTERPRISE]).toEqual({ employeeNumber: '1' });
    expect(created.body['schemas']).toEqual([URN.user, ENTERPRISE]);
    const id = created.body['id'] as string;

    const replaced = await call(target, { method: 'PUT', path: `/Users/${id}`, headers: json, body: JSON.stringify(user('babs', { schemas: [URN.user, ENTERPRISE], [ENTERPRISE]: extension('2') })) });
    expect(replaced.status).toBe(200);
    expect(replaced.body[ENTERPRISE]).toEqual({ employeeNumber: '2' });

    const patch = (Operations: unknown[]) => ({ method: 'PATCH', path: `/Users/${id}`, headers: json, body: JSON.stringify({ schemas: [URN.patchOp], Operations }) });
    const pathless = await call(target, patch([{ op: 'replace', value: { [ENTERPRISE]: extension('3') } }]));
    expect(pathless.status).toBe(200);
    expect(pathless.body[ENTERPRISE]).toEqual({ employeeNumber: '3' });
    const onPath = await call(target, patch([{ op: 'add', path: ENTERPRISE, value: extension('4') }]));
    expect(onPath.status).toBe(200);
    expect(onPath.body[ENTERPRISE]).toEqual({ employeeNumber: '4' });

    const read = await call(target, { method: 'GET', path: `/Users/${id}` });
    expect(read.body[ENTERPRISE]).toEqual({ employeeNumber: '4' });
  });

  it('leaves other unknown members of an extension refused', async () => {
    const refused = await call(server(), post('/Users', user('babs', { schemas: [URN.user, ENTERPRISE], [ENTERPRISE]: { employeeNumber: '1', badge: 'x' } })));
    expect(refused.status).toBe(400);
    expect(refused.body['scimType']).toBe('invalidValue');
  });
});
