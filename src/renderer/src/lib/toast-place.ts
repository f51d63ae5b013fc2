import { useEffect } from 'react';

/**
 * Keeps the toast just under the header (its height changes: a second line at 1366 px, large
 * text, a banner), over the view tabs: at the top it covered the header's Platform and Printer
 * status and the EXPIRED banner just when a refusal pointed at them. The tabs answer to Alt+1…0
 * meanwhile.
 */
export function useToastBelowHeader(): void {
  useEffect(() => {
    const header = document.querySelector<HTMLElement>('.header');
    if (!header) return;
    const place = () =>
      document.documentElement.style.setProperty('--toast-top', `${header.offsetHeight + 4}px`);
    place();
    const observer = new ResizeObserver(place);
    observer.observe(header);
    return () => observer.disconnect();
  }, []);
}
