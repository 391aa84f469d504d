/** Runs a scenario's steps against a server: records events, redelivers, waits for deliveries where asked. */
import { setTimeout as sleep } from 'node:timers/promises';
import type { ServiceClient } from '../remote/service-client.ts';
import type { Values } from './command.ts';
import { call, emit } from './client-command.ts';
import { DeliveryTracker } from './delivery-tracker.ts';
import { describeRecorded, recordedJson, recordEvent, type RecordedEvent } from './record-event.ts';
import type { Scenario, ScenarioStep } from './scenario-schema.ts';

export interface RunSummary {
  events: number;
  deliveries: number;
}

interface Run {
  client: ServiceClient;
  organizationUuid: string;
  values: Values;
  tracker: DeliveryTracker | null;
  /** QR codes of the organization not yet given to a label. */
  freeQrCodes: string[];
  labels: Map<string, string>;
  stepEvents: Map<string, RecordedEvent[]>;
  summary: RunSummary;
  warnedNoWebhook: boolean;
}

function needsTracker(scenario: Scenario): boolean {
  return scenario.steps.some((step) => step.wait_delivered || step.redeliver !== undefined);
}

async function organizationQrCodes(client: ServiceClient, organizationUuid: string): Promise<string[]> {
  const page = await call<{ items: { uuid: string }[] }>(
    client,
    `/api/qrcodes?organization_uuid=${encodeURIComponent(organizationUuid)}&per_page=100`,
  );
  return page.items.map((item) => item.uuid);
}

/** Sends `count` events of the step at once; a new @label first sends one alone to learn the QR code the server chose. */
async function sendEvents(run: Run, step: ScenarioStep & { event: NonNullable<ScenarioStep['event']> }): Promise<RecordedEvent[]> {
  const label = step.qr_code?.startsWith('@') ? step.qr_code : undefined;
  let qrCodeUuid = label ? run.labels.get(label) : step.qr_code;
  if (label && qrCodeUuid === undefined) {
    qrCodeUuid = run.freeQrCodes.shift();
    if (qrCodeUuid !== undefined) run.labels.set(label, qrCodeUuid);
  }
  const send = () => recordEvent(run.client, run.organizationUuid, step.event, { qrCodeUuid, overrides: step.data });
  const first: RecordedEvent[] = [];
  if (label && qrCodeUuid === undefined) {
    const recorded = await send();
    qrCodeUuid = recorded.event.data.qr_code_uuid;
    run.labels.set(label, qrCodeUuid);
    first.push(recorded);
  }
  const rest = await Promise.all(Array.from({ length: step.count - first.length }, send));
  return [...first, ...rest];
}

async function redeliver(run: Run, stepNumber: number, step: ScenarioStep & { redeliver: string }): Promise<RecordedEvent[]> {
  const earlier = run.stepEvents.get(step.redeliver) ?? [];
  const deliveries = earlier.flatMap((recorded) => recorded.deliveries);
  // A delivery still waiting for its first attempt would only be sent once: wait for that attempt first.
  await run.tracker?.attempted(
    deliveries.map((d) => d.delivery_id),
    1,
    `step ${stepNumber}`,
  );
  for (const delivery of deliveries) {
    await call(run.client, `/api/webhooks/uuid/${delivery.webhook_uuid}/deliveries/${encodeURIComponent(delivery.delivery_id)}/redeliver`, {
      method: 'POST',
    });
  }
  return earlier;
}

function report(run: Run, runNumber: number, stepNumber: number, recorded: RecordedEvent, redelivered: boolean): void {
  run.summary.events += redelivered ? 0 : 1;
  run.summary.deliveries += recorded.deliveries.length;
  const prefix = `run ${runNumber} step ${stepNumber}  `;
  const text = redelivered ? `${recorded.event.id}  redelivered (${recorded.deliveries.length} again)` : describeRecorded(recorded);
  emit(run.values, { run: runNumber, step: stepNumber, redelivered, ...recordedJson(recorded) }, `${prefix}${text}`);
  if (recorded.deliveries.length === 0 && !run.warnedNoWebhook) {
    run.warnedNoWebhook = true;
    process.stderr.write('No webhook is subscribed to this event, so nothing is delivered. Start one with: qr-sandbox listen\n');
  }
}

async function runOnce(run: Run, scenario: Scenario, runNumber: number): Promise<void> {
  run.labels.clear();
  run.stepEvents.clear();
  for (const [index, step] of scenario.steps.entries()) {
    const stepNumber = index + 1;
    if (step.delay_ms > 0) await sleep(step.delay_ms);
    const redelivered = step.redeliver !== undefined;
    const events =
      step.redeliver !== undefined
        ? await redeliver(run, stepNumber, { ...step, redeliver: step.redeliver })
        : step.event !== undefined
          ? await sendEvents(run, { ...step, event: step.event })
          : [];
    for (const recorded of events) report(run, runNumber, stepNumber, recorded, redelivered);
    if (step.id !== undefined) run.stepEvents.set(step.id, events);
    if (step.wait_delivered) {
      await run.tracker?.attempted(
        events.flatMap((e) => e.deliveries.map((d) => d.delivery_id)),
        redelivered ? 2 : 1,
        `step ${stepNumber}`,
      );
    }
  }
}

export async function runScenario(
  client: ServiceClient,
  organizationUuid: string,
  scenario: Scenario,
  runs: number,
  values: Values,
): Promise<RunSummary> {
  const usesLabels = scenario.steps.some((step) => step.qr_code?.startsWith('@'));
  const tracker = needsTracker(scenario) ? await DeliveryTracker.open(client) : null;
  const run: Run = {
    client,
    organizationUuid,
    values,
    tracker,
    freeQrCodes: [],
    labels: new Map(),
    stepEvents: new Map(),
    summary: { events: 0, deliveries: 0 },
    warnedNoWebhook: false,
  };
  try {
    for (let n = 1; n <= runs; n++) {
      if (usesLabels) run.freeQrCodes = await organizationQrCodes(client, organizationUuid);
      await runOnce(run, scenario, n);
    }
  } finally {
    tracker?.close();
  }
  return run.summary;
}
