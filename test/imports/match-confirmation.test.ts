/**
 * Issue 39 point 3 through the API: a near-miss column title ("Strat Date Time", "Servce") is a
 * guess the preview marks `needs_confirmation`, with how it was matched and its confidence; exact
 * names and synonyms are not asked about; the same misspelt appointments file dropped on the QR
 * code import is recognised as appointments (the kind guess uses the same matcher).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { fileUpload } from '../support/imports.ts';
import { suiteServer } from '../support/suite-server.ts';

interface Match {
  header: string;
  column: string | null;
  proposed: string | null;
  confidence: number;
  source: string;
  needs_confirmation: boolean;
}
interface Preview {
  looks_like_kind: string | null;
  columns: { matches: Match[] };
}

const ROW = 'Gate,17,2026-03-02 09:00,"1 Collins Street, Melbourne VIC 3000",60,Cleaning';
const MISSPELT = ['Tag Name,Tag Number,Strat Date Time,Location,Duration,Servce', ROW].join('\r\n');
const EXACT = ['tag_name,tag_number,start_date_time,location,duration,service', ROW].join('\r\n');
const SYNONYMS = ['Asset,Asset Number,Start Time,Address,Minutes,Job Type', ROW].join('\r\n');

describe('Near-miss column titles are guesses to confirm', () => {
  const server = suiteServer();

  const preview = async (content: string, kind: string, fields: Record<string, string> = {}): Promise<Preview> => {
    const res = await server.request(
      '/api/imports/preview',
      fileUpload(content, 'visits.csv', { kind, organization_uuid: server.organizationUuid, ...fields }),
    );
    assert.equal(res.status, 200, await res.clone().text());
    return (await res.json()) as Preview;
  };
  const byHeader = (body: Preview) => Object.fromEntries(body.columns.matches.map((m) => [m.header, m]));

  it('marks a similar spelling needs_confirmation, with its source and confidence, and nothing else', async () => {
    const matches = byHeader(await preview(MISSPELT, 'appointments'));
    assert.deepEqual(matches['Strat Date Time'], {
      header: 'Strat Date Time',
      column: 'start_date_time',
      proposed: 'start_date_time',
      confidence: 0.8,
      source: 'similar',
      needs_confirmation: true,
    });
    assert.equal(matches.Servce?.source, 'similar');
    assert.equal(matches.Servce?.needs_confirmation, true);
    assert.equal(matches['Tag Name']?.source, 'name');
    assert.equal(matches['Tag Name']?.needs_confirmation, false);

    const exact = (await preview(EXACT, 'appointments')).columns.matches;
    assert.deepEqual(
      exact.map((m) => [m.source, m.needs_confirmation]),
      exact.map(() => ['name', false]),
    );
    const synonyms = (await preview(SYNONYMS, 'appointments')).columns.matches;
    assert.deepEqual(
      synonyms.map((m) => [m.header, m.source, m.needs_confirmation]),
      synonyms.map((m) => [m.header, 'synonym', false]),
    );
  });

  it("takes the user's answer as their choice: confirmed, nothing left to confirm", async () => {
    const mapping = JSON.stringify({ 'Strat Date Time': 'start_date_time', Servce: 'service' });
    const matches = byHeader(await preview(MISSPELT, 'appointments', { mapping }));
    assert.equal(matches['Strat Date Time']?.source, 'mapping');
    assert.equal(matches['Strat Date Time']?.needs_confirmation, false);
    assert.equal(matches.Servce?.needs_confirmation, false);
  });

  it('keeps how a column was found when "Use these columns" sends all of them: exact names and synonyms stay so, a changed one is the choice', async () => {
    // What the Imports screen sends: every header with its column, the guesses answered, one column changed by hand.
    const mapping = JSON.stringify({
      Asset: 'tag_name',
      'Asset Number': 'tag_number',
      'Start Time': 'start_date_time',
      Address: 'location',
      Minutes: 'duration',
      'Job Type': 'service_code',
    });
    const matches = byHeader(await preview(SYNONYMS, 'appointments', { mapping }));
    assert.deepEqual(
      Object.values(matches).map((m) => [m.header, m.column, m.source, m.confidence]),
      [
        ['Asset', 'tag_name', 'synonym', 0.95],
        ['Asset Number', 'tag_number', 'synonym', 0.95],
        ['Start Time', 'start_date_time', 'synonym', 0.95],
        ['Address', 'location', 'synonym', 0.95],
        ['Minutes', 'duration', 'synonym', 0.95],
        ['Job Type', 'service_code', 'mapping', 1],
      ],
    );
    const exact = (await preview(EXACT, 'appointments', { mapping: JSON.stringify({ tag_name: 'tag_name', location: 'location' }) }))
      .columns.matches;
    assert.equal(exact.find((m) => m.header === 'location')?.source, 'name');
  });

  it('recognises the misspelt appointments file dropped on the QR code import as appointments', async () => {
    assert.equal((await preview(MISSPELT, 'qrcodes')).looks_like_kind, 'appointments');
    assert.equal((await preview(EXACT, 'qrcodes')).looks_like_kind, 'appointments');
    assert.equal((await preview(MISSPELT, 'appointments')).looks_like_kind, null);
  });

  it('describes needs_confirmation in the OpenAPI document', async () => {
    const doc = JSON.stringify(await (await server.request('/api/openapi.json')).json());
    assert.match(doc, /"needs_confirmation":\{"type":"boolean","description":"Sandbox addition\. True for a guess/);
  });
});
