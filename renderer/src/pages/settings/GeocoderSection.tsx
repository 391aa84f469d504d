import './geocoder.css';
import { type FormEvent, useId, useState } from 'react';
import type { BodyOf, Schemas } from '../../api/types.ts';
import { writeCall } from '../../api/write-call.ts';
import { fieldProblem } from '../../api/describe-error.ts';
import { useApiAction } from '../../api/use-api-action.ts';
import { getQuery, getRequest } from '../../api/get-query.ts';
import { useQuery } from '@tanstack/react-query';
import { CurlDisclosure } from '../../components/CurlDisclosure.tsx';
import { ErrorNotice } from '../../components/ErrorNotice.tsx';
import { Table } from '../../components/Table.tsx';
import { Panel } from '../../components/Panel.tsx';
import { QueryState } from '../../components/QueryState.tsx';
import { ClearButton, SubmitButton } from '../../components/FormActions.tsx';
import { Facts } from '../../components/Facts.tsx';
import { TextField } from '../../components/FormField.tsx';

type GeocoderAbout = Schemas['GeocoderAbout'];
type LocateResult = Schemas['LocateResult'];
type LocateBody = BodyOf<'postGeocoderLocate'>;

const aboutRequest = getRequest('/api/geocoder', {});

const PARTS = [
  { key: 'suburb', label: 'Suburb or city' },
  { key: 'state', label: 'State' },
  { key: 'postcode', label: 'Postcode' },
  { key: 'country', label: 'Country' },
] as const;
type PartKey = (typeof PARTS)[number]['key'];
type Values = Record<'location' | PartKey, string>;
const EMPTY: Values = { location: '', suburb: '', state: '', postcode: '', country: '' };

/** Only the fields typed in, as an import row would give them. */
function locateBody(values: Values): LocateBody {
  const body: LocateBody = {};
  for (const [key, value] of Object.entries(values) as [keyof Values, string][]) if (value.trim() !== '') body[key] = value.trim();
  return body;
}

/** "UTC+11:00" for the zone's offset right now, or '' when this browser does not know the zone. */
function offsetNow(timeZone: string): string {
  try {
    const name =
      new Intl.DateTimeFormat('en', { timeZone, timeZoneName: 'longOffset' })
        .formatToParts(new Date())
        .find((p) => p.type === 'timeZoneName')?.value ?? '';
    return name.replace(/^GMT$/, 'UTC+00:00').replace(/^GMT/, 'UTC');
  } catch {
    return '';
  }
}

function Coverage({ about }: { about: GeocoderAbout }) {
  return (
    <>
      <p className="geocoder-summary">
        <strong>{about.name}</strong> {about.offline && <span className="badge badge-completed">Offline</span>}
        <br />
        {about.summary}
      </p>
      <ul className="stats" aria-label="Gazetteer size">
        <li className="stat">
          <span className="stat-value">{about.places.toLocaleString()}</span>
          <span className="stat-label">places</span>
        </li>
        <li className="stat">
          <span className="stat-value">{about.countries.length}</span>
          <span className="stat-label">countries</span>
        </li>
        <li className="stat">
          <span className="stat-value">{about.time_zones}</span>
          <span className="stat-label">time zones</span>
        </li>
      </ul>
      {about.countries.length > 0 && (
        <Table
          label="Countries covered"
          headings={['Country', 'Code', { header: 'Places', className: 'numeric' }, { header: 'Postcodes', className: 'numeric' }]}
          className="table table-compact"
          scrollClassName="table-scroll geocoder-countries"
        >
          {about.countries.map((c) => (
            <tr key={c.code}>
              <td>{c.name}</td>
              <td>
                <code>{c.code}</code>
              </td>
              <td className="numeric">{c.places.toLocaleString()}</td>
              <td className="numeric">{c.postcodes.toLocaleString()}</td>
            </tr>
          ))}
        </Table>
      )}
      <p className="field-hint">
        An address in another country, or one whose suburb, state and postcode the gazetteer cannot match, is not located: an import
        excludes its row, and a QR code cannot be saved with it. There is nothing to set up: no account, key or network connection is
        needed.
      </p>
      {about.precisions.length > 0 && (
        <details className="geocoder-precisions">
          <summary>What the precision of a located address means</summary>
          <dl>
            {about.precisions.map((p) => (
              <div key={p.precision}>
                <dt>
                  <code>{p.precision}</code>
                </dt>
                <dd>{p.meaning}</dd>
              </div>
            ))}
          </dl>
        </details>
      )}
      {about.sources.length > 0 && (
        <>
          <h3>Data and licences</h3>
          <ul className="geocoder-sources">
            {about.sources.map((s) => (
              <li key={s.name}>
                <a href={s.url} target="_blank" rel="noreferrer">
                  {s.name}
                </a>
                {' — '}
                <a href={s.licence_url} target="_blank" rel="noreferrer">
                  {s.licence}
                </a>
                <br />
                <span className="field-hint">{s.attribution}</span>
              </li>
            ))}
          </ul>
        </>
      )}
    </>
  );
}

function LocatedAnswer({ answer, about }: { answer: LocateResult; about: GeocoderAbout | undefined }) {
  const from =
    answer.read_from === 'parts'
      ? 'the suburb, state, postcode and country fields (as in a QR code file)'
      : 'the address text (as in an appointment row)';
  if (!answer.located || !answer.result) {
    return (
      <div className="notice notice-error geocoder-answer" role="status" aria-label="Where it is">
        <div className="notice-body">
          <strong>Not located.</strong> {answer.reason ?? 'This geocoder gives no reason.'}
          <p className="geocoder-row-error">
            An import row with this address is excluded with: <q>{answer.error}</q>
          </p>
        </div>
      </div>
    );
  }
  const r = answer.result;
  const offset = offsetNow(r.timezone_name);
  const country = about?.countries.find((c) => c.code === r.country)?.name ?? r.country;
  return (
    <div className="notice notice-success geocoder-answer" role="status" aria-label="Where it is">
      <div className="notice-body">
        <strong>Located:</strong> {[r.suburb, r.state, r.postcode].filter(Boolean).join(' ')}, {country}
        <Facts
          className="facts geocoder-facts"
          wide={['Precision', 'Read from']}
          facts={{
            Coordinates: (
              <code>
                {r.latitude.toFixed(4)}, {r.longitude.toFixed(4)}
              </code>
            ),
            'Time zone': (
              <>
                {r.timezone_name}
                {offset && <span className="muted"> ({offset} now)</span>}
              </>
            ),
            Precision: (
              <>
                <code>{r.precision}</code> — {r.precision_meaning}
              </>
            ),
            'Read from': from,
          }}
        />
      </div>
    </div>
  );
}

function TryAddressForm({ about }: { about: GeocoderAbout | undefined }) {
  const id = useId();
  const [values, setValues] = useState<Values>(EMPTY);
  const [answer, setAnswer] = useState<LocateResult | null>(null);
  const locateCall = writeCall('post', '/api/geocoder/locate', { body: locateBody(values) });
  const { request } = locateCall;
  const locate = useApiAction(async (send: () => Promise<LocateResult>) => setAnswer(await send()));
  const problem = fieldProblem(locate.error, 'location');
  const change = (key: keyof Values, value: string) => {
    setValues((v) => ({ ...v, [key]: value }));
    setAnswer(null);
    locate.clearError();
  };
  const submit = (e: FormEvent) => {
    e.preventDefault();
    void locate.run(locateCall.send);
  };
  const partsGiven = PARTS.some((p) => values[p.key].trim() !== '');
  const typed = Object.values(values).some((v) => v !== '');
  return (
    <form className="geocoder-try" aria-labelledby={`${id}-title`} onSubmit={submit} noValidate>
      <h3 id={`${id}-title`}>Try an address</h3>
      <p className="field-hint">
        See where an import would put an address, in which time zone its appointments are read, or exactly why its row would be excluded.
      </p>
      <TextField
        id={`${id}-location`}
        label="Address"
        value={values.location}
        onChange={(value) => change('location', value)}
        placeholder="12 Smith St, Fitzroy VIC 3065, Australia"
        problem={problem}
        hint="As in the location column of an appointment or QR code file."
      />
      <details className="geocoder-parts" open={partsGiven || undefined}>
        <summary>Or give the parts, as in the suburb, state, postcode and country columns of a QR code file</summary>
        <div className="geocoder-parts-grid">
          {PARTS.map((p) => (
            <TextField key={p.key} id={`${id}-${p.key}`} label={p.label} value={values[p.key]} onChange={(value) => change(p.key, value)} />
          ))}
        </div>
        <p className="field-hint">
          When a suburb or postcode is given, the parts are matched and the address text is not read, as an import does.
        </p>
      </details>
      <div className="form-actions">
        <SubmitButton running={locate.running} busyLabel="Locating…">
          Locate
        </SubmitButton>
        <ClearButton
          shown={answer !== null || typed}
          onClear={() => {
            setValues(EMPTY);
            setAnswer(null);
            locate.clearError();
          }}
        />
      </div>
      <ErrorNotice error={locate.error} onDismiss={locate.clearError} fieldsShown={problem ? ['location'] : []} />
      {answer && <LocatedAnswer answer={answer} about={about} />}
      <CurlDisclosure request={request} label="Show curl to locate this address" />
    </form>
  );
}

/** Settings > Geocoder: what locates addresses (GET /api/geocoder) and "Try an address" (POST /api/geocoder/locate). */
export function GeocoderSection() {
  const about = useQuery(getQuery('/api/geocoder', {}));
  return (
    <Panel title="Geocoder">
      <QueryState query={about} loading="Loading the geocoder…" />
      {about.data && <Coverage about={about.data} />}
      <CurlDisclosure request={aboutRequest} label="Show curl to describe the geocoder" />
      <TryAddressForm about={about.data} />
    </Panel>
  );
}
