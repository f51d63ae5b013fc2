import { useEffect, useState, type ReactNode } from 'react';

/**
 * Renders only the rows in view (fixed row height), so the tracking board stays fast with tens
 * of thousands of rows: the DOM holds ~40 rows whatever the total. The rows need not all be
 * there: `item` answers undefined for a row not fetched yet (shown as "loading…"), and
 * `onRange` says which rows are in view, so the owner fetches only those.
 */
export function VirtualList<T>(props: {
  count: number;
  item(index: number): T | undefined;
  rowHeight: number;
  height: number;
  render(item: T, index: number): ReactNode;
  onRange?(first: number, last: number): void;
  label: string;
}) {
  const [top, setTop] = useState(0);
  const overscan = 8;
  const first = Math.max(0, Math.floor(top / props.rowHeight) - overscan);
  const count = Math.min(
    Math.ceil(props.height / props.rowHeight) + overscan * 2,
    Math.max(0, props.count - first),
  );
  const { onRange } = props;
  useEffect(() => {
    if (count > 0) onRange?.(first, first + count - 1);
  }, [onRange, first, count]);
  return (
    <div
      className="vlist"
      style={{ height: props.height }}
      onScroll={(e) => setTop(e.currentTarget.scrollTop)}
      role="list"
      aria-label={props.label}
      tabIndex={0}
    >
      <div style={{ height: props.count * props.rowHeight, position: 'relative' }}>
        {Array.from({ length: count }, (_, i) => {
          const item = props.item(first + i);
          return (
            <div
              role="listitem"
              key={first + i}
              className="vrow"
              style={{
                position: 'absolute',
                top: (first + i) * props.rowHeight,
                height: props.rowHeight,
                left: 0,
                right: 0,
              }}
            >
              {item === undefined ? (
                <span className="muted">loading…</span>
              ) : (
                props.render(item, first + i)
              )}
            </div>
          );
        })}
      </div>
    </div>
  );
}
