import { useState, type ReactNode } from 'react';

/**
 * Renders only the rows in view (fixed row height), so the tracking board stays fast with tens
 * of thousands of rows: the DOM holds ~40 rows whatever the total.
 */
export function VirtualList<T>(props: {
  items: readonly T[];
  rowHeight: number;
  height: number;
  render(item: T, index: number): ReactNode;
  label: string;
}) {
  const [top, setTop] = useState(0);
  const overscan = 8;
  const first = Math.max(0, Math.floor(top / props.rowHeight) - overscan);
  const count = Math.ceil(props.height / props.rowHeight) + overscan * 2;
  const visible = props.items.slice(first, first + count);
  return (
    <div
      className="vlist"
      style={{ height: props.height }}
      onScroll={(e) => setTop(e.currentTarget.scrollTop)}
      role="list"
      aria-label={props.label}
      tabIndex={0}
    >
      <div style={{ height: props.items.length * props.rowHeight, position: 'relative' }}>
        {visible.map((item, i) => (
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
            {props.render(item, first + i)}
          </div>
        ))}
      </div>
    </div>
  );
}
