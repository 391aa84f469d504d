import type { ImportPreview } from '../../api/types.ts';
import { useEffect, useState } from 'react';
import { SelectField } from '../../components/SelectField.tsx';
import type { DateOrderName, LayoutChoice } from './file-layout.ts';
import { countOf } from '../../../../common/count-words.ts';

const HEADER_ROW_SOURCE: Record<string, string> = {
  request: 'as you chose',
  found: 'found: the first row naming the columns',
  first: 'no row names the columns: the first filled row',
};

const ORDER_LABEL: Record<DateOrderName, string> = { day_first: 'day first (25/03/2026)', month_first: 'month first (03/25/2026)' };

function dateOrderHint(finding: NonNullable<ImportPreview['date_orders']>[number]): string {
  if (finding.source === 'request') return 'as you chose';
  if (finding.source === 'file') return `settled by “${finding.evidence ?? ''}” in the file`;
  if (finding.conflicting) return "the file's dates disagree: the organization's setting decides";
  return "no date in the file settles it: the organization's setting decides";
}

/**
 * Where the import reads the file: the workbook's sheet (the first whose header names the columns,
 * unless chosen), the header row (found under title rows, unless chosen) and how each date column
 * reads dates with slashes (settled by the file's own values, unless chosen).
 */
export function FileLayoutControls({
  preview,
  onChange,
  choice,
}: {
  preview: ImportPreview;
  choice: LayoutChoice;
  onChange(next: LayoutChoice): void;
}) {
  const [headerRow, setHeaderRow] = useState(String(preview.header_row ?? ''));
  useEffect(() => setHeaderRow(String(preview.header_row ?? '')), [preview.header_row]);
  const sheets = preview.sheets ?? [];
  const orders = preview.date_orders ?? [];
  if (preview.format === 'json') return null;
  const applyHeaderRow = () => {
    const row = Number(headerRow);
    if (Number.isInteger(row) && row >= 1 && row !== preview.header_row) onChange({ ...choice, headerRow: row, mapping: undefined });
  };
  return (
    <div className="file-layout">
      {sheets.length > 0 && (
        <p className="field-row">
          <SelectField
            label="Sheet"
            value={preview.sheet ?? ''}
            onChange={(sheet) => onChange({ sheet, dateOrders: choice.dateOrders ?? {} })}
            options={sheets.map((s) => [s.name, `${s.name} (${countOf(s.rows, 'row')})`] as const)}
          />
          <span className="field-hint">
            {sheets.length > 1
              ? `The workbook has ${sheets.length} sheets; ${choice.sheet ? 'this one as you chose' : 'this is the first whose header names the columns'}.`
              : 'The workbook has one sheet.'}
          </span>
        </p>
      )}
      <p className="field-row">
        <label className="inline-field">
          <span>Header row</span>
          <input
            type="number"
            min={1}
            className="input-narrow"
            value={headerRow}
            onChange={(e) => setHeaderRow(e.target.value)}
            onBlur={applyHeaderRow}
            onKeyDown={(e) => {
              if (e.key === 'Enter') applyHeaderRow();
            }}
          />
        </label>
        <span className="field-hint">{HEADER_ROW_SOURCE[preview.header_row_source ?? 'first']}; the rows above it are not imported.</span>
      </p>
      {orders.map((finding) => (
        <p className="field-row" key={finding.column}>
          <SelectField
            label={`Dates in “${finding.header}”`}
            value={finding.order ?? ''}
            onChange={(order) => onChange({ ...choice, dateOrders: { ...choice.dateOrders, [finding.column]: order as DateOrderName } })}
            options={[
              ...(finding.order === null ? ([['', 'year-month-day only (the setting)']] as const) : []),
              ['day_first', ORDER_LABEL.day_first],
              ['month_first', ORDER_LABEL.month_first],
            ]}
          />
          <span className="field-hint">{dateOrderHint(finding)}.</span>
        </p>
      ))}
    </div>
  );
}
