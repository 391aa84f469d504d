import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Service } from '../../server/services/schemas.ts';
import { DEMO_SERVICES } from '../../server/services/demo.ts';
import { createOrganization } from '../../server/orgs/organizations.ts';
import { bearer, jsonBody } from '../support/server.ts';
import { suiteServer } from '../support/suite-server.ts';
import type { Page } from '../../server/http/pagination.ts';

type ServicePage = Page<Service>;

describe('service catalog API (/api/services)', () => {
  const server = suiteServer();

  const list = async (query = ''): Promise<ServicePage> => {
    const res = await server.request(`/api/services?organization_uuid=${server.organizationUuid}${query}`);
    assert.equal(res.status, 200);
    return (await res.json()) as ServicePage;
  };
  const create = (body: Record<string, unknown>) =>
    server.request('/api/services', jsonBody({ organization_uuid: server.organizationUuid, ...body }));

  it('the demo organization starts with demo services, each with a code and categories', async () => {
    const page = await list('&per_page=100');
    assert.equal(page.total, DEMO_SERVICES.length);
    const plumbing = page.items.find((s) => s.name === 'Plumbing');
    assert.ok(plumbing, 'Plumbing is a demo service');
    assert.equal(plumbing.code, 'PLB');
    assert.deepEqual(
      plumbing.categories.map((c) => c.name),
      ['Maintenance', 'Water'],
    );
    assert.ok(plumbing.categories.every((c) => typeof c.uuid === 'string' && c.uuid.length > 0));
  });

  it('creates (201), reads, updates (200) and deletes (204) a service; a deleted one reads as 404', async () => {
    const res = await create({ name: 'Window Cleaning', code: 'WIN', categories: [{ name: 'Facilities' }] });
    assert.equal(res.status, 201);
    const created = (await res.json()) as Service;
    assert.equal(created.name, 'Window Cleaning');
    assert.equal(created.organization_uuid, server.organizationUuid);

    const got = await server.request(`/api/services/uuid/${created.uuid}`);
    assert.equal(got.status, 200);
    assert.deepEqual(await got.json(), created);

    const patched = await server.request(
      `/api/services/uuid/${created.uuid}`,
      jsonBody({ name: 'Window and Gutter Cleaning', categories: [{ name: 'Facilities' }, { name: 'Outdoor' }] }, 'PATCH'),
    );
    assert.equal(patched.status, 200);
    const updated = (await patched.json()) as Service;
    assert.equal(updated.name, 'Window and Gutter Cleaning');
    assert.equal(updated.code, 'WIN');
    assert.deepEqual(
      updated.categories.map((c) => c.name),
      ['Facilities', 'Outdoor'],
    );
    assert.equal(updated.categories[0]?.uuid, created.categories[0]?.uuid, 'a kept category keeps its uuid');

    const removed = await server.request(`/api/services/uuid/${created.uuid}`, { method: 'DELETE' });
    assert.equal(removed.status, 204);
    assert.equal((await server.request(`/api/services/uuid/${created.uuid}`)).status, 404);
    assert.equal((await server.request(`/api/services/uuid/${created.uuid}`, { method: 'DELETE' })).status, 404);
    const again = await create({ name: 'Window Cleaning', code: 'WIN' });
    assert.equal(again.status, 201, 'the name and code of a deleted service are free again');
  });

  it('refuses a name or code already in the catalog, ignoring case, with 409', async () => {
    const byName = await create({ name: '  plumbing ' });
    assert.equal(byName.status, 409);
    const body = (await byName.json()) as { error: { code: string; message: string; details?: { path: string }[] } };
    assert.equal(body.error.code, 'CONFLICT');
    assert.match(body.error.message, /the name "Plumbing"/);
    assert.deepEqual(
      body.error.details?.map((d) => d.path),
      ['body.name'],
      'the clash names its field, for the GUI to mark it',
    );
    const byCode = await create({ name: 'Plumbing Emergency', code: 'plb' });
    assert.equal(byCode.status, 409);
    const codeBody = (await byCode.json()) as { error: { message: string; details?: { path: string }[] } };
    assert.match(codeBody.error.message, /the code "PLB"/);
    assert.deepEqual(
      codeBody.error.details?.map((d) => d.path),
      ['body.code'],
    );
  });

  it('refuses an invalid body with 400 naming the field', async () => {
    const res = await create({ name: '', categories: [{ name: 'A' }, { name: 'a' }] });
    assert.equal(res.status, 400);
    const body = (await res.json()) as { error: { code: string; details: { path: string }[] } };
    assert.equal(body.error.code, 'VALIDATION_ERROR');
    const paths = body.error.details.map((d) => d.path);
    assert.ok(paths.includes('body.name'), paths.join());
    assert.ok(paths.includes('body.categories'), paths.join());
  });

  it('lists in the page shape, by name, with search over name and code', async () => {
    const first = await list('&per_page=2');
    assert.deepEqual(Object.keys(first).sort(), ['items', 'page', 'pages', 'per_page', 'total']);
    assert.equal(first.items.length, 2);
    assert.equal(first.pages, Math.ceil(first.total / 2));
    const all = await list('&per_page=100');
    const names = all.items.map((s) => s.name.toLowerCase());
    assert.deepEqual(names, [...names].sort());
    const found = await list('&search=gdn');
    assert.deepEqual(
      found.items.map((s) => s.name),
      ['Garden Maintenance'],
    );
    // % and _ are text, not LIKE wildcards; a backslash is text too.
    assert.equal((await create({ name: 'Discount 50% off' })).status, 201);
    assert.equal((await create({ name: 'Discount 500 off', code: 'D_500' })).status, 201);
    const searched = async (term: string) => (await list(`&search=${encodeURIComponent(term)}`)).items.map((s) => s.name);
    assert.deepEqual(await searched('50%'), ['Discount 50% off']);
    assert.deepEqual(await searched('d_5'), ['Discount 500 off']);
    assert.deepEqual(await searched('\\'), []);
    const none = await list('&search=zzz');
    assert.deepEqual([none.total, none.pages], [0, 0]);
    const missing = await server.request('/api/services');
    assert.equal(missing.status, 400);
  });

  it("keeps organizations apart: 403 for another organization's uuid, 404 for its services", async () => {
    const other = await createOrganization(server.ctx.db.kysely, { name: 'Other Org' });
    const otherAuth = { authorization: bearer(other) };
    assert.equal((await server.request(`/api/services?organization_uuid=${server.organizationUuid}`, { headers: otherAuth })).status, 403);
    const plumbing = (await list('&search=plumbing')).items[0];
    assert.ok(plumbing);
    assert.equal((await server.request(`/api/services/uuid/${plumbing.uuid}`, { headers: otherAuth })).status, 404);
    const otherList = await server.request(`/api/services?organization_uuid=${other.organization_uuid}`, { headers: otherAuth });
    assert.equal(((await otherList.json()) as ServicePage).total, 0, 'a new organization has no demo services');
    const write = await server.request('/api/services', {
      ...jsonBody({ organization_uuid: server.organizationUuid, name: 'Sneaky' }),
      headers: { ...otherAuth, 'content-type': 'application/json' },
    });
    assert.equal(write.status, 403);
  });
});
