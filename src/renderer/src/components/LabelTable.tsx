import type { KeyboardEvent, ReactNode } from 'react';

/** One column of a list of labels: its heading and what each row shows in it. */
export interface LabelColumn<T> {
  head: string;
  /** `num` right-aligns the heading and the cells (cost, reprint count). */
  num?: boolean;
  /** The `<col>` class, for tables that size their columns in CSS. */
  col?: string;
  cell(label: T): ReactNode;
  /** The cell's tooltip: the whole text when the column shortens it. */
  title?(label: T): string;
  className?: string;
  testId?: string;
}

/**
 * The rows of History, of this station or of the whole site: one heading per column, a row per
 * label, a click or Enter selects it. The caller says which columns and how the keyboard moves.
 */
export function LabelTable<T>(props: {
  labels: readonly T[];
  columns: readonly LabelColumn<T>[];
  keyOf(label: T): string;
  isSelected(label: T): boolean;
  onSelect(index: number): void;
  /** Keys other than Enter (Enter always selects). */
  onRowKey?(e: KeyboardEvent, index: number): void;
  /** Which row takes Tab (roving focus); every row when absent. */
  tabIndexOf?(index: number): number;
  rowRef?(index: number, el: HTMLTableRowElement | null): void;
  className: string;
  testId: string;
  rowTestId?: string;
}) {
  const { columns } = props;
  const cls = (c: LabelColumn<T>) =>
    [c.num ? 'num' : '', c.className ?? ''].filter(Boolean).join(' ') || undefined;
  return (
    <table className={props.className} data-testid={props.testId}>
      {columns.some((c) => c.col) ? (
        <colgroup>
          {columns.map((c) => (
            <col key={c.head} className={c.col} />
          ))}
        </colgroup>
      ) : null}
      <thead>
        <tr>
          {columns.map((c) => (
            <th key={c.head} className={c.num ? 'num' : undefined}>
              {c.head}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {props.labels.map((l, i) => {
          const selected = props.isSelected(l);
          return (
            <tr
              key={props.keyOf(l)}
              ref={props.rowRef ? (el) => props.rowRef!(i, el) : undefined}
              tabIndex={props.tabIndexOf ? props.tabIndexOf(i) : 0}
              aria-selected={selected}
              className={selected ? 'selected' : ''}
              data-testid={props.rowTestId}
              onClick={() => props.onSelect(i)}
              onKeyDown={(e) => {
                if (e.key === 'Enter') {
                  e.preventDefault();
                  props.onSelect(i);
                } else props.onRowKey?.(e, i);
              }}
            >
              {columns.map((c) => (
                <td key={c.head} className={cls(c)} title={c.title?.(l)} data-testid={c.testId}>
                  {c.cell(l)}
                </td>
              ))}
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}
