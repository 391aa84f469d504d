import type { BackgroundTask } from '../../api/types.ts';
import { QrCodesMapPanel, qrCodePath } from '../map/QrCodesMapPanel.tsx';
import { navigate } from '../../router.tsx';
import { excludedTotal, type ResultsOf, warnedRows } from '../../api/task-format.ts';
import { formatDateTime } from '../date-time.ts';

function warnedCount(task: ResultsOf): number {
  const warned = task.results?.warned;
  return typeof warned === 'number' ? warned : warnedRows(task).length;
}

/**
 * Where a finished QR code import's rows landed. A QR code does not record the import that wrote
 * it, so the map shows the organization's QR codes created or changed while the task ran, and says so.
 */
export function ImportMap({
  task,
  excludedListed,
  excludedHref = '#excluded-rows',
  within = false,
}: {
  task: BackgroundTask;
  excludedListed: number;
  /** Where the excluded rows are listed on this page. */
  excludedHref?: string;
  /** A section of the import's result (the Imports page) rather than a panel of its own (the task page). */
  within?: boolean;
}) {
  const excluded = excludedTotal(task, excludedListed);
  const warned = warnedCount(task);
  return (
    <QrCodesMapPanel
      organizationUuid={task.organization_uuid}
      window={{ from: task.created_on, to: task.updated_on }}
      label="Where the rows of this import landed"
      onOpen={(uuid) => navigate(qrCodePath(uuid))}
      within={within}
      note={
        <p className="muted">
          The QR codes created or changed while this import ran ({formatDateTime(task.created_on)} to {formatDateTime(task.updated_on)}). A
          QR code does not record which import wrote it: one changed by hand in that time shows too, and one edited since does not.
        </p>
      }
      aside={
        <ul className="qr-map-rows" aria-label="Rows not on the map">
          <li>
            {excluded === 0 ? (
              'No row was excluded.'
            ) : (
              <>
                {excluded.toLocaleString()} {excluded === 1 ? 'row was' : 'rows were'} excluded and {excluded === 1 ? 'has' : 'have'} no
                place on the map: <a href={excludedHref}>see Excluded rows</a>.
              </>
            )}
          </li>
          {warned > 0 && (
            <li>
              {warned.toLocaleString()} {warned === 1 ? 'row was' : 'rows were'} imported with a warning (listed under Warnings). They are
              on the map in the colour of how they were located: an address found by its suburb name, not its postcode, is a “Suburb name”
              point.
            </li>
          )}
        </ul>
      }
    />
  );
}
