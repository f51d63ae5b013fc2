import { expect, test } from '@playwright/test';
import { stationPerTest } from './station';

const station = stationPerTest();

test('a box preset added in Settings (keyboard only) is scanned on Pack and put on the package; a bad one is refused with the reason', async ({
  page,
}, info) => {
  await page.goto(station().url);
  await expect(page.getByTestId('connectivity')).toContainText('online');
  await page.keyboard.press('Alt+7');
  const form = page.getByRole('form', { name: 'Box presets' });
  await expect(form.getByTestId('box-preset')).toHaveCount(3);
  await expect(page.getByTestId('profiles')).toContainText('Demo station');
  await expect(page.getByTestId('scale-discovery')).toContainText('No USB scale found');
  await page.screenshot({ path: info.outputPath('settings.png') });

  // Keyboard only: Add box puts the cursor in the new row's name; Tab through, Enter saves.
  await form.getByRole('button', { name: 'Add box' }).focus();
  await page.keyboard.press('Enter');
  await expect(form.getByRole('textbox', { name: 'Box 4 name' })).toBeFocused();
  await page.keyboard.type('Tall 6×6×24');
  for (const text of ['BOX-TALL', '6', '6', '24']) {
    await page.keyboard.press('Tab');
    await page.keyboard.type(text);
  }
  await expect(form.getByTestId('boxes-status')).toHaveText('Unsaved changes');
  await page.keyboard.press('Enter');
  await expect(form.getByTestId('boxes-status')).toHaveText('Saved 4 box presets.');
  await expect(form.getByTestId('box-preset')).toHaveCount(4);

  // A code already used (in another case), one with a space, and a side of 0: refused, by box.
  await form.getByRole('button', { name: 'Add box' }).click();
  await form.getByRole('textbox', { name: 'Box 5 name' }).fill('Flat');
  await form.getByRole('textbox', { name: 'Box 5 scan code' }).fill('box-tall');
  await form.getByRole('textbox', { name: 'Box 5 length in inches' }).fill('12');
  await form.getByRole('textbox', { name: 'Box 5 width in inches' }).fill('9');
  await form.getByRole('textbox', { name: 'Box 5 height in inches' }).fill('0');
  await form.getByRole('button', { name: 'Add box' }).click();
  await form.getByRole('textbox', { name: 'Box 6 name' }).fill('Odd');
  await form.getByRole('textbox', { name: 'Box 6 scan code' }).fill('BOX ODD');
  await form.getByRole('textbox', { name: 'Box 6 length in inches' }).fill('10');
  await form.getByRole('textbox', { name: 'Box 6 width in inches' }).fill('10');
  await form.getByRole('textbox', { name: 'Box 6 height in inches' }).fill('10');
  await form.getByRole('button', { name: 'Save box presets' }).click();
  const problems = form.getByTestId('box-problems');
  await expect(problems).toContainText(
    'Box 5 (box-tall): scan code box-tall is already used by box 4.',
  );
  await expect(problems).toContainText('Box 5 (box-tall): Height must be more than 0 in.');
  await expect(problems).toContainText(
    'Box 6 (BOX ODD): scan code "BOX ODD" may only hold letters, digits and dashes.',
  );
  await expect(form.getByRole('textbox', { name: 'Box 5 scan code' })).toHaveAttribute(
    'aria-invalid',
    'true',
  );
  await expect(form.getByTestId('boxes-status')).toHaveText('Unsaved changes');
  await form.screenshot({ path: info.outputPath('settings-box-refused.png') });
  await form.getByRole('button', { name: 'Undo changes' }).click();
  await expect(form.getByTestId('box-preset')).toHaveCount(4);
  await expect(problems).toHaveCount(0);

  // The scale: none on this machine, and it says so with the reason; typing still works.
  const scale = page.getByTestId('scale');
  await expect(scale.getByTestId('scale-discovery')).toContainText('No USB scale found:');
  await scale.getByRole('button', { name: 'Read now' }).click();
  await expect(scale.getByTestId('scale-reading')).toContainText('No weight:');
  await scale.screenshot({ path: info.outputPath('settings-scale.png') });

  // Pack: the new box is a button, and scanning its code puts it on the package in hand.
  await page.keyboard.press('Alt+1');
  const scan = page.getByRole('textbox', { name: 'Scan' });
  await expect(scan).toBeFocused();
  await page.keyboard.type('LUM-10422');
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('order-number')).toHaveText('LUM-10422');
  const tallButton = page
    .getByRole('group', { name: 'Package 1 box' })
    .getByRole('button', { name: 'Tall 6×6×24' });
  await expect(tallButton).toHaveAttribute('aria-pressed', 'false');
  await expect(scan).toBeFocused();
  await page.keyboard.type('box-tall');
  await page.keyboard.press('Enter');
  await expect(tallButton).toHaveAttribute('aria-pressed', 'true');
  await expect(tallButton).toHaveAttribute('title', /6×6×24 in, scan BOX-TALL/);
  // Scanned while the order was still being rated: rated again with the box, never a failure.
  await expect(page.getByTestId('rate-reason')).toContainText('cheapest');
  await expect(page.getByTestId('result')).not.toContainText('FAILED');
  await expect(scan).toBeFocused();
  await page.screenshot({ path: info.outputPath('pack-box-scanned.png') });
});
