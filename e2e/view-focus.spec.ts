import { expect, test } from '@playwright/test';
import { stationPerTest } from './station';

/**
 * Keyboard only: after Alt+1 … Alt+0 the keyboard is somewhere. A view with a field of its own
 * gives it the focus (Pack's Scan, History's search); every other view takes it itself, named
 * for a screen reader, and Tab goes on from there into the view.
 */
const station = stationPerTest();

test('each view switched to by its Alt key has the keyboard, named, and Tab goes on into it', async ({
  page,
}) => {
  await page.goto(station().url);
  await expect(page.getByTestId('connectivity')).toContainText('online');
  await expect(page.getByRole('textbox', { name: 'Scan' })).toBeFocused();
  const main = page.getByRole('main');

  for (const [key, name] of [
    ['2', 'Needs attention'],
    ['3', 'Queue'],
    ['5', 'Tracking'],
    ['6', 'Carrier accounts'],
    ['7', 'Settings'],
    ['0', 'Site'],
  ] as const) {
    await page.keyboard.press(`Alt+${key}`);
    // Until 2026-11-29 the focus was on no element at all (the page's body) on these views.
    await expect(main, `Alt+${key}`).toBeFocused();
    await expect(main).toHaveAccessibleName(name);
  }

  // From Settings, Tab reaches the view's first control, not the header.
  await page.keyboard.press('Alt+7');
  await expect(main).toBeFocused();
  await page.keyboard.press('Tab');
  await expect(main.locator(':focus')).toHaveCount(1);

  // Views that give a field the keyboard keep doing so.
  await page.keyboard.press('Alt+4');
  await expect(page.getByRole('textbox', { name: 'Search labels' })).toBeFocused();
  await page.keyboard.press('Alt+1');
  await expect(page.getByRole('textbox', { name: 'Scan' })).toBeFocused();
});

test('Esc on a question in the page gives the keyboard back where it was, not to nothing', async ({
  page,
}) => {
  await page.goto(station().url);
  await expect(page.getByTestId('connectivity')).toContainText('online');
  await page.keyboard.press('Alt+8');
  const search = page.getByRole('textbox', { name: 'Search orders' });
  await expect(search).toBeFocused();
  // The list read (its header row is there before): Alt+B earlier says "still being read".
  await expect(page.getByRole('row', { name: /LUM-10421/ })).toBeVisible();
  // The batch's question: its button has the keyboard; Esc leaves it, nothing bought.
  await page.keyboard.press('Alt+B');
  const ask = page.getByRole('alertdialog', { name: 'Confirm the batch' });
  await expect(ask.getByRole('button', { name: /^Buy \d+ label/ })).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(ask).toHaveCount(0);
  // Until 2026-11-29 the focus fell to the page's body: a scan typed next went nowhere.
  await expect(search).toBeFocused();
});

test('a scan typed the moment Alt+1 opens Pack lands whole in Scan, however late the next frame', async ({
  page,
}) => {
  // A loaded machine draws its frames late: each one here comes 400 ms after it is asked for.
  // CI on 2026-11-29 lost a scan's first character this way (the view took the keyboard, the
  // Scan field only got it a frame later).
  await page.addInitScript({
    content: `{
      const raf = window.requestAnimationFrame.bind(window);
      window.requestAnimationFrame = (cb) => (setTimeout(() => raf(cb), 400), 0);
    }`,
  });
  await page.goto(station().url);
  await expect(page.getByTestId('connectivity')).toContainText('online');
  await page.keyboard.press('Alt+7');
  await expect(page.getByRole('main')).toBeFocused();
  await page.keyboard.press('Alt+1');
  await page.keyboard.type('LUM-10421');
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('order-number')).toHaveText('LUM-10421');
});
