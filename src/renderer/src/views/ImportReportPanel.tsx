import type { ImportReport } from '../../../shared/features/packing';
import { mappedHere } from '../../../shared/order-file-text';

/** Problems listed under an import's counts; the rest are counted (the report keeps 500). */
export const SHOWN_PROBLEMS = 50;

/** The report once these orders were reopened: no longer listed as still cancelled. */
export function withoutReopened(
  report: ImportReport | null,
  orderNumbers: readonly string[],
): ImportReport | null {
  if (!report?.stillCancelled) return report;
  return {
    ...report,
    stillCancelled: report.stillCancelled.filter(
      (e) => !e.orderNumber || !orderNumbers.includes(e.orderNumber),
    ),
  };
}

/**
 * An order file's import: what came in, how it was read, and every problem by row. `mapsHere`:
 * the mapping form for its columns is right under it (Orders, Settings → Orders), so a file in
 * unknown columns is mapped there, not "from Orders".
 */
export function ImportReportPanel({
  report,
  mapsHere = false,
}: {
  report: ImportReport;
  mapsHere?: boolean;
}) {
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
          because of {report.ordersLeftOut === 1 ? 'its' : 'their'} problems: put right what each
          row says (the file, or the profile where a row says so) and import it again (the orders
          already here stay as they are).
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
              ? `${e.where}: ${mapsHere ? mappedHere(e.reason) : e.reason}`
              : `${e.where}, ${e.field}: ${e.reason}`}
          </li>
        ))}
      </ul>
      <OrderList
        items={report.labelledChanged}
        testId="import-labelled-changed"
        title={(n) =>
          `${n} order${n === 1 ? ' has' : 's have'} a label already, and the file now gives ${n === 1 ? 'it' : 'them'} differently:`
        }
      />
      <OrderList
        items={report.closed}
        testId="import-closed"
        title={(n) => {
          const all = report.closedCount ?? n;
          return `${all} order${all === 1 ? ' was' : 's were'} not imported: the export says ${all === 1 ? 'it is' : 'they are'} cancelled, refunded or shipped already (in whole or in part)${all > n ? ` (the first ${n} are listed)` : ''}:`;
        }}
      />
      <OrderList
        items={report.stillCancelled}
        testId="import-still-cancelled"
        title={(n) =>
          `${n} cancelled order${n === 1 ? ' is' : 's are'} in the file with changes, and still cancelled:`
        }
      />
      <OrderList
        items={report.sharedNumbers}
        testId="import-shared-numbers"
        title={(n) =>
          `${n} order${n === 1 ? ' has' : 's have'} the number of another brand's order: scanning ${n === 1 ? 'it' : 'them'} cannot choose between the brands.`
        }
      />
      <OrderList
        items={report.notices}
        testId="import-notices"
        title={(n) =>
          `${n} order${n === 1 ? '' : 's'} imported that Pack will refuse until the file gives more:`
        }
      />
    </div>
  );
}

/** Orders of the import a person should look at, each with where it is in the file and why. */
function OrderList(props: {
  items: ImportReport['errors'] | undefined;
  testId: string;
  title: (n: number) => string;
}) {
  if (!props.items?.length) return null;
  return (
    <>
      <b className="warn">{props.title(props.items.length)}</b>
      <ul className="reasons" data-testid={props.testId}>
        {props.items.slice(0, SHOWN_PROBLEMS).map((e, i) => (
          <li key={i}>
            {e.where}: {e.reason}
          </li>
        ))}
      </ul>
    </>
  );
}
