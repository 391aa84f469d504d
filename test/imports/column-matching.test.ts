import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { appointmentImportKind } from '../../server/appointments/import-kind.ts';
import { matchColumns, MATCH_THRESHOLD } from '../../server/imports/engine/column-matching.ts';
import { describeRequired, missingRequired } from '../../server/imports/engine/columns.ts';
import { inferDateOrders } from '../../server/imports/engine/date-order-inference.ts';
import { fileLayoutOf, withFileLayout } from '../../server/imports/engine/file-layout.ts';
import { parseLayoutRequest } from '../../server/imports/intake/layout-request.ts';
import { findHeaderRow, fittingSavedMapping } from '../../server/imports/intake/layout.ts';
import { ApiError } from '../../server/http/errors.ts';
import { qrCodeImportKind } from '../../server/qrcodes/import-kind.ts';
import { SheetRowCounter } from '../../server/imports/sources/xlsx-row-count.ts';

const describeMatch = (header: string[], explicit?: Record<string, string | null>) =>
  matchColumns({ ...qrCodeImportKind, ...(explicit ? { explicit } : {}) }, header).map((m) => [m.header, m.column, m.proposed, m.source]);

describe('column matching: names, synonyms, similarity, the user mapping', () => {
  it('matches the names people use for both kinds, with a confidence', () => {
    assert.deepEqual(describeMatch(['Site Name', 'Address 1', 'Ext Ref', 'Tag #', 'Tag No', 'ZIP']), [
      ['Site Name', 'name', 'name', 'synonym'],
      ['Address 1', 'address_line_1', 'address_line_1', 'synonym'],
      ['Ext Ref', 'qr_code_external_reference_id', 'qr_code_external_reference_id', 'synonym'],
      ['Tag #', 'tag_number', 'tag_number', 'synonym'],
      // A second header for the same column is left unmatched: the first keeps it.
      ['Tag No', null, null, 'none'],
      ['ZIP', 'postcode', 'postcode', 'name'],
    ]);
    const visits = matchColumns(appointmentImportKind, ['Start', 'Date/Time', 'Job Ref']);
    assert.deepEqual(
      visits.map((m) => [m.column, m.confidence]),
      [
        ['start_date_time', 0.95],
        [null, 0],
        ['job_reference_id', 0.95],
      ],
    );
    assert.equal(matchColumns(appointmentImportKind, ['Date/Time'])[0]?.column, 'start_date_time');
  });

  it('applies a close spelling, asks about a farther one, and leaves an unrelated title alone', () => {
    const [close, far, unrelated] = matchColumns(qrCodeImportKind, ['Postcde', 'Sburb', 'Colour']);
    assert.equal(close?.column, 'postcode');
    assert.ok((close?.confidence ?? 0) >= MATCH_THRESHOLD);
    assert.deepEqual([far?.column, far?.proposed, far?.applied], [null, 'suburb', false]);
    assert.deepEqual([unrelated?.column, unrelated?.proposed, unrelated?.source], [null, null, 'none']);
  });

  it("asks nothing about an error report's own columns, nor about a title only loosely like a column", () => {
    // A fixed error report comes back with row_number and error (and sheet, from a workbook of several), which the import ignores ("error" is 0.53 like "state").
    assert.deepEqual(describeMatch(['location', 'sheet', 'row_number', 'error', 'Row Number']), [
      ['location', 'location', 'location', 'name'],
      ['sheet', null, null, 'none'],
      ['row_number', null, null, 'none'],
      ['error', null, null, 'none'],
      ['Row Number', null, null, 'none'],
    ]);
  });

  it("takes the user's mapping first, by exact or normalised title, null ignoring a column", () => {
    assert.deepEqual(describeMatch(['Sburb', 'suburb', ' Notes '], { Sburb: 'suburb', notes: null }), [
      ['Sburb', 'suburb', 'suburb', 'mapping'],
      ['suburb', null, null, 'none'],
      [' Notes ', null, null, 'mapping'],
    ]);
    assert.deepEqual(describeMatch(['', 'Suburb']), [
      ['', null, null, 'none'],
      ['Suburb', 'suburb', 'suburb', 'name'],
    ]);
  });

  it('counts a location made from a street and a suburb or postcode as present', () => {
    assert.deepEqual(missingRequired(qrCodeImportKind, new Set(['address_line_1', 'postcode'])), []);
    assert.deepEqual(missingRequired(qrCodeImportKind, new Set(['suburb', 'postcode'])), ['location']);
    assert.equal(
      describeRequired(qrCodeImportKind, 'location'),
      'location (or address_line_1 with suburb, or address_line_1 with postcode)',
    );
    assert.equal(describeRequired(appointmentImportKind, 'tag_name'), 'tag_name');
  });
});

describe('the header row, saved mappings and date orders', () => {
  it('finds the header under title rows, or none', () => {
    const rows = [
      ['Acme sites'],
      [],
      ['Printed', '28/11/2026'],
      ['Site Name', 'Street Address', 'Suburb', 'Notes'],
      ['A', '1 X St', 'Carlton', ''],
    ];
    assert.equal(findHeaderRow(qrCodeImportKind, rows), 4);
    assert.equal(
      findHeaderRow(qrCodeImportKind, [
        ['Only', 'titles', 'here'],
        [1, 2, 3],
      ]),
      null,
    );
  });

  it('proposes the saved mapping naming the most titles, all of its titles in the header', () => {
    const small = { uuid: 'a', name: 'Small', slug: 'small', mapping: { 'Site Name': 'name' } };
    const large = { uuid: 'b', name: 'Large', slug: 'large', mapping: { 'Site Name': 'name', Sburb: 'suburb' } };
    const other = { uuid: 'c', name: 'Other', slug: 'other', mapping: { Elsewhere: 'name' } };
    const empty = { uuid: 'd', name: 'Empty', slug: 'empty', mapping: {} };
    assert.equal(fittingSavedMapping([small, large, other, empty], ['site name', 'SBURB', 'State'])?.slug, 'large');
    assert.equal(fittingSavedMapping([other, empty], ['Site Name']), undefined);
  });

  it('settles each date column by a value above 12, leaves a disagreeing or ambiguous one to the setting, and takes the request first', () => {
    const header = ['When', 'Later'];
    const columnAt = ['start_date_time', null];
    const findings = (rows: unknown[][], requested = {}) => inferDateOrders(['start_date_time', 'end'], header, columnAt, rows, requested);
    assert.deepEqual(
      findings([['03/04/2026 10:00'], [42], ['13/04/2026 10:00']]).map((f) => [f.order, f.source, f.evidence]),
      [['day_first', 'file', '13/04/2026 10:00']],
    );
    assert.deepEqual(
      findings([['04/13/2026 10:00']]).map((f) => f.order),
      ['month_first'],
    );
    assert.deepEqual(
      findings([['13/04/2026'], ['04/13/2026']]).map((f) => [f.order, f.conflicting]),
      [[null, true]],
    );
    assert.deepEqual(
      findings([['03/04/2026'], ['2026-04-03']]).map((f) => [f.order, f.source]),
      [[null, 'none']],
    );
    assert.deepEqual(
      findings([['13/04/2026']], { start_date_time: 'month_first' }).map((f) => [f.order, f.source]),
      [['month_first', 'request']],
    );
  });

  it("keeps the layout in the job's options, ignoring one that is not a layout", () => {
    const options = withFileLayout({ handler_slug: 'default' }, { sheet: 'Sites', headerRow: 3 });
    assert.deepEqual(fileLayoutOf(options), { sheet: 'Sites', headerRow: 3 });
    assert.deepEqual(fileLayoutOf({ fileLayout: { headerRow: -1 } }), {});
  });

  it('reads the layout form fields, refusing what it cannot use', () => {
    assert.deepEqual(
      parseLayoutRequest(
        { sheet: ' Sites ', header_row: '3', mapping: 'null', date_order: '{"start_date_time": "Day-First"}' },
        appointmentImportKind,
      ),
      { sheet: 'Sites', headerRow: 3, mapping: {}, dateOrders: { start_date_time: 'day_first' } },
    );
    assert.deepEqual(parseLayoutRequest({ sheet: '2', mapping: '', header_row: ' ' }, qrCodeImportKind), { sheet: 2 });
    const refusal = (fields: Record<string, string>) => {
      try {
        parseLayoutRequest(fields, qrCodeImportKind);
      } catch (error) {
        assert.ok(error instanceof ApiError);
        return error.message;
      }
      return 'accepted';
    };
    assert.match(refusal({ mapping: '{" ": "name"}' }), /empty header text/);
    assert.match(refusal({ mapping: '{"A": 5}' }), /maps "A" to 5, which is not a column/);
    assert.match(refusal({ header_row: '2000000' }), /1 or more/);
    assert.match(refusal({ date_order: '"day_first"' }), /must be a JSON object/);
  });
});

describe("a worksheet's rows counted as its XML streams past", () => {
  it('counts rows holding a value, whatever the chunks, and not the formatted empty rows of a used range', () => {
    const xml =
      '<worksheet><sheetData><row r="1" spans="1:2"><c r="A1" t="s"><v>0</v></c></row>' +
      '<row r="2"><c r="A2" s="1"/></row><row r="3" ht="12"/>' +
      '<row r="4"><c r="A4" t="inlineStr"><is><t>x</t></is></c></row>' +
      '<row r="5"><c r="A5"><f>1+1</f></c></row>' +
      '<row r="1048576"><c r="A1048576" s="2"/></row></sheetData></worksheet>';
    for (const size of [1, 3, 7, xml.length]) {
      const counter = new SheetRowCounter();
      for (let at = 0; at < xml.length; at += size) counter.push(Buffer.from(xml.slice(at, at + size)));
      assert.equal(counter.rows, 2, `chunks of ${size}`);
    }
  });
});
