/**
 * Every registered webhook event is in every place that needs it: the OpenAPI document (its
 * envelope, the webhook's events, the delivery's event header), docs/webhooks.md, GET /api/meta
 * (the GUI's pickers and words), the simulate endpoint and so trigger and scenario files (or, when
 * it cannot be simulated, an answer saying how to cause it), the CLI's names and the demo stream.
 * A new event missing from one of them fails here, naming the event and the place.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { toEventType, toSimulatedEventType } from '../../server/cli/record-event.ts';
import { scenarioStepSchema } from '../../server/cli/scenario-schema.ts';
import { eventDefinition, simulatedEventTypes, webhookEvents } from '../../server/webhook-events/registry.ts';
import { deref, type Json } from '../support/openapi-doc.ts';
import { jsonBody, startTestServer, type TestServer } from '../support/server.ts';

const docs = fs.readFileSync(path.resolve(import.meta.dirname, '../../docs/webhooks.md'), 'utf8');

describe('every registered webhook event is everywhere it is needed', () => {
  let server: TestServer;
  let doc: Json;
  before(async () => {
    server = await startTestServer();
    doc = (await (await server.request('/api/openapi.json')).json()) as Json;
  });
  after(() => server.stop());

  const schemas = () => (doc.components as { schemas: Record<string, Json> }).schemas;

  it('the OpenAPI document: an envelope per event (the sandbox’s marked x-sandbox), in the webhook’s events and the event header', () => {
    const envelope = schemas().EventEnvelope as { discriminator: { mapping: Record<string, string> } };
    const webhook = deref(doc, schemas().Webhook);
    const webhookEvents_ = (((webhook.properties as Record<string, Json>).events as Json).items as Json).enum as string[];
    const delivery = ((doc.webhooks as Record<string, Json>).serviceConfirmationEvent as Json).post as Json;
    const header = (delivery.parameters as Json[]).find((p) => p.name === 'X-Sandbox-Event') as Json;
    for (const event of webhookEvents) {
      const variant = schemas()[event.envelopeSchemaId];
      assert.ok(variant, `${event.type}: components.schemas.${event.envelopeSchemaId}`);
      assert.equal(envelope.discriminator.mapping[event.type], `#/components/schemas/${event.envelopeSchemaId}`, event.type);
      assert.equal(variant['x-sandbox'] === true, event.sandboxOnly, `${event.type}: x-sandbox on its envelope`);
      assert.ok(webhookEvents_.includes(event.type), `${event.type}: Webhook.events`);
      assert.ok(((header.schema as Json).enum as string[]).includes(event.type), `${event.type}: X-Sandbox-Event`);
    }
  });

  it('docs/webhooks.md names each event; each of the sandbox’s own has its section saying so', () => {
    for (const event of webhookEvents) {
      assert.ok(docs.includes(`\`${event.type}\``), `docs/webhooks.md names ${event.type}`);
      if (event.sandboxOnly) assert.match(docs, new RegExp(`^### ${event.type.replace('.', '\\.')} \\(QR Sandbox only`, 'm'), event.type);
    }
  });

  it('GET /api/meta gives the GUI each event with its words', async () => {
    const meta = (await (await server.request('/api/meta')).json()) as { events: Json[] };
    assert.deepEqual(
      meta.events,
      webhookEvents.map((event) => ({
        type: event.type,
        short_name: event.shortName,
        label: event.label,
        description: event.description,
        sandbox_only: event.sandboxOnly,
        simulated: event.simulate !== undefined,
      })),
    );
  });

  it('simulate makes each event marked for it, and says how to cause each other one', async () => {
    for (const event of webhookEvents) {
      const res = await server.request(
        '/api/service-confirmations/simulate',
        jsonBody({ organization_uuid: server.organizationUuid, event: event.type }),
      );
      if (event.simulate) {
        assert.equal(res.status, 201, `${event.type}: ${await res.clone().text()}`);
        assert.equal(((await res.json()) as { event: { type: string } }).event.type, event.type);
      } else {
        assert.ok(event.howToCause, `${event.type} cannot be simulated, so it says how to cause it`);
        assert.equal(res.status, 400, event.type);
        assert.ok((await res.text()).includes(event.howToCause.slice(0, 40)), event.type);
      }
    }
  });

  it('the command line takes each event by its short and full name; trigger and scenario files take those simulate makes', () => {
    for (const event of webhookEvents) {
      assert.equal(toEventType(event.shortName), event.type);
      assert.equal(toEventType(event.type), event.type);
      const step = scenarioStepSchema.safeParse({ event: event.shortName });
      assert.equal(step.success, event.simulate !== undefined, `${event.type} in a scenario file`);
      if (event.simulate) assert.equal(toSimulatedEventType(event.shortName), event.type);
      else assert.throws(() => toSimulatedEventType(event.shortName), new RegExp(`${event.type.replace('.', '\\.')} cannot be simulated`));
    }
  });

  it('the demo stream sends an event at another’s QR code only when that one is simulated too', () => {
    for (const type of simulatedEventTypes) {
      const sameAs = eventDefinition(type).simulate?.sameQrCodeAs;
      if (sameAs !== undefined) assert.ok((simulatedEventTypes as readonly string[]).includes(sameAs), `${type}: ${sameAs}`);
    }
  });
});
