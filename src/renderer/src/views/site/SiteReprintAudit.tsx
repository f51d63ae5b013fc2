import { useEffect, useState } from 'react';
import { call } from '../../bridge';
import { when } from '../../lib/when';
import type { ReprintAuditView } from '../../../../shared/views';

/**
 * A site label's reprints at every station (the site's audit): when, who, why and where. Read
 * when the label is picked (keyed by the label, so another label starts afresh); a store that does
 * not answer is said in place of the list.
 */
export function SiteReprintAudit(props: { stationId: string; labelId: string }) {
  const [rows, setRows] = useState<ReprintAuditView[] | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    void call('site.labelReprints', { stationId: props.stationId, labelId: props.labelId }).then(
      (r) => {
        if (!live) return;
        if (r.ok) setRows(r.value);
        else setProblem(r.error.message);
      },
    );
    return () => {
      live = false;
    };
  }, [props.stationId, props.labelId]);
  return (
    <>
      <h3>Reprints</h3>
      {problem ? <p className="warn">{problem}</p> : null}
      {rows && rows.length === 0 ? <p className="muted">Never reprinted.</p> : null}
      {rows?.length ? (
        <ul className="site-reprint-audit" data-testid="site-reprint-audit">
          {rows.map((a) => (
            <li key={a.id}>
              <span className="muted">{when(a.at)}</span> · {a.user} at {a.stationName}: {a.reason}
            </li>
          ))}
        </ul>
      ) : null}
    </>
  );
}
