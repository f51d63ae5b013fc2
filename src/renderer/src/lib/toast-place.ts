import { useEffect } from 'react';

/**
 * Keeps the toast just under the header and the banner below it (the EXPIRED banner), over the
 * view tabs: at the top it covered the header's Platform and Printer status, and just under the
 * header the banner, just when a refusal pointed at them. Both change height (a second line at
 * 1366 px, large text) and the banner comes and goes. The tabs answer to Alt+1…0 meanwhile.
 */
export function useToastBelowHeader(): void {
  useEffect(() => {
    const header = document.querySelector<HTMLElement>('.header');
    if (!header) return;
    const banner = () => {
      const next = header.nextElementSibling;
      return next instanceof HTMLElement && next.classList.contains('banner') ? next : null;
    };
    const place = () => {
      const bottom = (banner() ?? header).getBoundingClientRect().bottom;
      document.documentElement.style.setProperty('--toast-top', `${Math.round(bottom) + 4}px`);
    };
    place();
    const resized = new ResizeObserver(place);
    resized.observe(header);
    const watchBanner = () => {
      const b = banner();
      if (b) resized.observe(b);
      place();
    };
    watchBanner();
    const added = new MutationObserver(watchBanner);
    if (header.parentElement) added.observe(header.parentElement, { childList: true });
    return () => {
      resized.disconnect();
      added.disconnect();
    };
  }, []);
}
