import type { ImportReport } from '../../../shared/features/packing';

/** Problems listed under an import's counts; the rest are counted (the report keeps 500). */
export const SHOWN_PROBLEMS = 50;

/** An order file's import: what came in, how it was read, and every problem by row. */
export function ImportReportPanel({ report }: { report: ImportReport }) {
  return (
    <div className="panel" data-testid="import-report">
      <b>
        {report.imported} imported
        {report.alreadyImported ? `, ${report.alreadyImported} already here unchanged` : ''},{' '}
        {report.skipped} skipped, {report.errorCount} problem{report.errorCount === 1 ? '' : 's'}
        {report.errorCount > SHOWN_PROBLEMS ? ` (the first ${SHOWN_PROBLEMS} are listed)` : ''}
      </b>
      {report.ordersLeftOut ? (
        <div className="warn" data-testid="import-left-out">
          {report.ordersLeftOut} order{report.ordersLeftOut === 1 ? ' was' : 's were'} not imported
          because of {report.ordersLeftOut === 1 ? 'its' : 'their'} problems: put the file right and
          import it again (the orders already here stay as they are).
        </div>
      ) : null}
      {report.format ? (
        <div className="muted" data-testid="import-format">
          Read as: {report.format}
        </div>
      ) : null}
      <ul className="reasons">
        {report.errors.slice(0, SHOWN_PROBLEMS).map((e, i) => (
          <li key={i}>
            {/* "(row)", "(header)", "(file)": the place says it already, not a column. */}
            {e.field.startsWith('(')
              ? `${e.where}: ${e.reason}`
              : `${e.where}, ${e.field}: ${e.reason}`}
          </li>
        ))}
      </ul>
      {report.labelledChanged?.length ? (
        <>
          <b className="warn">
            {report.labelledChanged.length} order
            {report.labelledChanged.length === 1 ? ' has' : 's have'} a label already, and the file
            now gives {report.labelledChanged.length === 1 ? 'it' : 'them'} differently:
          </b>
          <ul className="reasons" data-testid="import-labelled-changed">
            {report.labelledChanged.slice(0, SHOWN_PROBLEMS).map((e, i) => (
              <li key={i}>
                {e.where}: {e.reason}
              </li>
            ))}
          </ul>
        </>
      ) : null}
      {report.notices?.length ? (
        <>
          <b className="warn">
            {report.notices.length} order{report.notices.length === 1 ? '' : 's'} imported that Pack
            will refuse until the file gives more:
          </b>
          <ul className="reasons" data-testid="import-notices">
            {report.notices.slice(0, SHOWN_PROBLEMS).map((e, i) => (
              <li key={i}>
                {e.where}: {e.reason}
              </li>
            ))}
          </ul>
        </>
      ) : null}
    </div>
  );
}
