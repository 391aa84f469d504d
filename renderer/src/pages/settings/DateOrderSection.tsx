import { useState } from 'react';
import { writeCall } from '../../api/write-call.ts';
import { useApiAction } from '../../api/use-api-action.ts';
import { CurlDisclosure } from '../../components/CurlDisclosure.tsx';
import { ErrorNotice } from '../../components/ErrorNotice.tsx';
import type { Settings } from '../../api/webhook-types.ts';
import { Panel } from '../../components/Panel.tsx';

type DateOrder = Settings['date_order'];

const ORDERS: { value: DateOrder; title: string; example: string }[] = [
  {
    value: 'day_first',
    title: 'Day first (DD/MM/YYYY)',
    example: '02/12/2026 11:00 is 2 December 2026, as Excel shows dates in Australia, the UK or Italy.',
  },
  {
    value: 'month_first',
    title: 'Month first (MM/DD/YYYY)',
    example: '02/12/2026 11:00 is 12 February 2026, as Excel shows dates in the United States; 11:00 AM and PM are read too.',
  },
  {
    value: 'iso_only',
    title: 'Year-month-day only',
    example: 'Only 2026-12-02 11:00 (and ISO 8601) is read; a date with slashes is refused with a reason, since it could mean two days.',
  },
];

/** How appointment imports read dates such as 02/12/2026 (GET/PATCH /api/settings `date_order`; changing needs an admin key). */
export function DateOrderSection({ settings, role, onSaved }: { settings: Settings; role: string; onSaved(next: Settings): void }) {
  const canChange = role === 'admin';
  const [saved, setSaved] = useState(false);
  /** The order just picked, shown at once while it is saved (null: show the saved one). */
  const [picked, setPicked] = useState<DateOrder | null>(null);
  const callFor = (order: DateOrder | null) => writeCall('patch', '/api/settings', { body: { date_order: order } });
  const requestFor = (order: DateOrder | null) => callFor(order).request;
  const save = useApiAction(async (order: DateOrder | null) => {
    try {
      onSaved(await callFor(order).send());
      setSaved(true);
    } finally {
      setPicked(null);
    }
  });
  const fromZone = settings.date_order_source === 'time_zone';
  return (
    <Panel title="Date order">
      <p className="field-hint">
        How appointment imports read a start written with slashes, as a spreadsheet shows it. Dates written year-month-day (2026-12-02
        11:00) and date cells are read whatever the order; every import preview says how each date was read.
      </p>
      <fieldset className="fieldset" disabled={!canChange || save.running}>
        <legend className="field-label">Read 02/12/2026 as</legend>
        <div className="checkbox-list">
          {ORDERS.map((o) => (
            <label key={o.value} className="checkbox checkbox-card">
              <input
                type="radio"
                name="date-order"
                value={o.value}
                checked={(picked ?? settings.date_order) === o.value}
                onChange={() => {
                  setSaved(false);
                  setPicked(o.value);
                  void save.run(o.value);
                }}
              />
              <span>
                <span className="checkbox-title">{o.title}</span>
                <span className="field-hint checkbox-hint">{o.example}</span>
              </span>
            </label>
          ))}
        </div>
      </fieldset>
      <p className="muted" role="status">
        {fromZone
          ? "The default from the organization's time zone (Australia, New Zealand and Europe: day first; the United States: month first; elsewhere, Canada included: year-month-day only)."
          : 'Chosen for this organization.'}{' '}
        {!fromZone && canChange && (
          <button type="button" className="button button-small button-quiet" onClick={() => void save.run(null)} disabled={save.running}>
            Use the time zone's default
          </button>
        )}
      </p>
      {!canChange && <p className="notice notice-info">Only an admin key can change the date order.</p>}
      {saved && <p className="notice notice-success">Date order saved: the next import (and preview) reads dates this way.</p>}
      <ErrorNotice error={save.error} onDismiss={save.clearError} />
      {canChange && <CurlDisclosure request={requestFor(settings.date_order)} label="Show curl to set the date order" />}
    </Panel>
  );
}
