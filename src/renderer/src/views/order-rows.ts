import { useRef, useState, type KeyboardEvent, type RefObject } from 'react';
import { useStation } from '../store';

/**
 * The keyboard of an order list (Orders, this station's or the whole site's): a cursor row, ↑/↓
 * between rows (↑ from the first back to the search box), Enter opens the order on Pack as if
 * scanned: this station's by its id (two brands of a 3PL may share its number, and the row picked
 * is the one meant), the whole site's by its number. `rowKey` returns false for any other key,
 * which the list handles itself.
 */
export function useOrderRows(count: number, searchRef: RefObject<HTMLInputElement | null>) {
  const rows = useRef<(HTMLTableRowElement | null)[]>([]);
  const [cursor, setCursor] = useState(0);
  const focusRow = (i: number) => {
    const n = Math.max(0, Math.min(i, count - 1));
    setCursor(n);
    // At once, so an Enter typed right after ↓ (a fast packer) opens the row instead of landing
    // in the search box; again after the render, for a page that was just loaded.
    rows.current[n]?.focus();
    requestAnimationFrame(() => rows.current[n]?.focus());
  };
  const open = async (orderNumber: string, orderId?: string) => {
    const st = useStation.getState();
    st.go('pack');
    await st.scan(orderNumber, orderId);
  };
  const rowKey = (e: KeyboardEvent, i: number, orderNumber: string, orderId?: string): boolean => {
    if (e.key === 'ArrowDown') focusRow(i + 1);
    else if (e.key === 'ArrowUp') {
      if (i === 0) searchRef.current?.focus();
      else focusRow(i - 1);
    } else if (e.key === 'Enter') void open(orderNumber, orderId);
    else return false;
    e.preventDefault();
    return true;
  };
  return { rows, cursor, setCursor, focusRow, open, rowKey };
}
