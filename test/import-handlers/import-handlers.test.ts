import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ImportHandler } from '../../server/import-handlers/schemas.ts';
import { createOrganization } from '../../server/orgs/organizations.ts';
import { bearer, jsonBody } from '../support/server.ts';
import { suiteServer } from '../support/suite-server.ts';

interface ErrorBody {
  error: { code: string; message: string; details?: { path: string; message: string }[] };
}

describe('import handlers API (/api/import-handlers)', () => {
  const server = suiteServer();

  const create = (body: Record<string, unknown>) =>
    server.request('/api/import-handlers', jsonBody({ organization_uuid: server.organizationUuid, ...body }));

  it('saves a mapping (201) with a slug made from the name, reads, updates and deletes it', async () => {
    const res = await create({ name: 'Acme Job Export', mapping: { 'Job Ref': 'job_reference_id', 'Visit Start': 'start_date_time' } });
    assert.equal(res.status, 201);
    const handler = (await res.json()) as ImportHandler;
    assert.equal(handler.slug, 'acme-job-export');
    assert.deepEqual(handler.mapping, { 'Job Ref': 'job_reference_id', 'Visit Start': 'start_date_time' });

    assert.deepEqual(await (await server.request(`/api/import-handlers/uuid/${handler.uuid}`)).json(), handler);
    const patched = await server.request(
      `/api/import-handlers/uuid/${handler.uuid}`,
      jsonBody({ slug: 'acme', mapping: { Ref: 'job_reference_id' } }, 'PATCH'),
    );
    assert.equal(patched.status, 200);
    const updated = (await patched.json()) as ImportHandler;
    assert.equal(updated.slug, 'acme');
    assert.deepEqual(updated.mapping, { Ref: 'job_reference_id' });

    const page = await server.request(`/api/import-handlers?organization_uuid=${server.organizationUuid}`);
    const listed = (await page.json()) as { items: ImportHandler[]; total: number; pages: number };
    assert.deepEqual([listed.total, listed.pages, listed.items[0]?.slug], [1, 1, 'acme']);

    assert.equal((await server.request(`/api/import-handlers/uuid/${handler.uuid}`, { method: 'DELETE' })).status, 204);
    assert.equal((await server.request(`/api/import-handlers/uuid/${handler.uuid}`)).status, 404);
  });

  it('refuses a taken slug (409) and the built-in slug default (400)', async () => {
    assert.equal((await create({ name: 'One', slug: 'field-team', mapping: { A: 'tag_name' } })).status, 201);
    const taken = await create({ name: 'Two', slug: 'field-team', mapping: { A: 'tag_name' } });
    assert.equal(taken.status, 409);
    const takenBody = (await taken.json()) as ErrorBody & { error: { details?: { path: string }[] } };
    assert.match(takenBody.error.message, /slug "field-team" is already used/);
    assert.deepEqual(
      takenBody.error.details?.map((d) => d.path),
      ['body.slug'],
      'the clash names its field, for the GUI to mark it',
    );
    const reserved = await create({ name: 'Three', slug: 'default', mapping: { A: 'tag_name' } });
    assert.equal(reserved.status, 400);
    assert.match(((await reserved.json()) as ErrorBody).error.message, /"default" is built in/);
  });

  it('refuses a mapping to an unknown field, an empty mapping, two columns for one field, and a bad slug, naming the problem', async () => {
    const unknownField = await create({ name: 'X', mapping: { 'Job Ref': 'job_ref' } });
    assert.equal(unknownField.status, 400);
    const body = (await unknownField.json()) as ErrorBody;
    assert.match(body.error.message, /must be one of the appointment fields: tag_name, tag_number/);
    assert.ok(body.error.details?.some((d) => d.path.startsWith('body.mapping')));
    assert.match(((await (await create({ name: 'X', mapping: {} })).json()) as ErrorBody).error.message, /map at least one column/);
    const doubled = await create({ name: 'X', mapping: { Ref: 'job_reference_id', Reference: 'job_reference_id' } });
    assert.match(((await doubled.json()) as ErrorBody).error.message, /"Ref" and "Reference" both map to job_reference_id/);
    const badSlug = await create({ name: 'X', slug: 'Not A Slug!', mapping: { A: 'tag_name' } });
    assert.match(((await badSlug.json()) as ErrorBody).error.message, /lowercase letters, digits and single hyphens/);
  });

  it("keeps organizations apart: 403 for another organization's uuid, 404 for its handlers", async () => {
    const mine = (await (await create({ name: 'Mine', mapping: { A: 'tag_name' } })).json()) as ImportHandler;
    const other = await createOrganization(server.ctx.db.kysely, { name: 'Other' });
    const headers = { authorization: bearer(other) };
    assert.equal((await server.request(`/api/import-handlers?organization_uuid=${server.organizationUuid}`, { headers })).status, 403);
    assert.equal((await server.request(`/api/import-handlers/uuid/${mine.uuid}`, { headers })).status, 404);
    assert.equal((await server.request(`/api/import-handlers/uuid/${mine.uuid}`, { method: 'DELETE', headers })).status, 404);
  });
});
