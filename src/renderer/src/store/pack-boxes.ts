import type { BoxPreset } from '../../../shared/views';
import type { AppState } from './index';

type Packed = AppState['packages'][number];

const sameSize = (a: BoxPreset, b: BoxPreset) =>
  a.lengthIn === b.lengthIn && a.widthIn === b.widthIn && a.heightIn === b.heightIn;

/**
 * The order on Pack under the station's box presets as they are now (site IT changed the site's
 * presets while it was open): each package's box is the preset of the same id, or else of the same
 * code (the site's own preset for that box); a box no preset has any more is taken off, named in
 * `gone`. `changed`: a box is gone or its size changed, so the rates on screen were for another box.
 */
export function reboxed(
  packages: readonly Packed[],
  boxes: readonly BoxPreset[],
): { packages: Packed[]; gone: { index: number; name: string }[]; changed: boolean } {
  const gone: { index: number; name: string }[] = [];
  let changed = false;
  const next = packages.map((p, index) => {
    if (!p.box) return p;
    const old = p.box;
    const now =
      boxes.find((b) => b.id === old.id) ??
      boxes.find((b) => b.code.toLowerCase() === old.code.toLowerCase()) ??
      null;
    if (!now) {
      gone.push({ index, name: old.name });
      changed = true;
      return { ...p, box: null };
    }
    if (!sameSize(now, old)) changed = true;
    return now === old ? p : { ...p, box: now };
  });
  return { packages: next, gone, changed };
}

/**
 * What the packer reads when the open order's boxes went with the presets: which package's box,
 * and what to do (pick another, or rate without one).
 */
export function goneBoxWords(gone: readonly { index: number; name: string }[], many: boolean) {
  const which = gone.map((g) => (many ? `package ${g.index + 1}'s ${g.name}` : g.name)).join(', ');
  const one = gone.length === 1;
  return `The box presets changed (site IT): ${which} ${one ? 'is' : 'are'} no longer one of this station's boxes, so ${one ? 'it was' : 'they were'} taken off this order. Pick ${one ? 'its' : 'their'} box again from the buttons (or scan it), or press Enter to rate without one.`;
}

/**
 * Applied when the station's settings are read again: the order on screen takes the new presets;
 * a box gone or resized drops the rates on screen (they were for the old box), said when a box is
 * gone. A bought order, or one being rated or bought, is left as it is.
 */
export function applyBoxPresets(
  get: () => AppState,
  set: (patch: Partial<AppState>) => void,
): void {
  const { order, packages, settings, result, busy, buyPending } = get();
  // A rating or a purchase under way keeps what it was sent with; the new presets apply once it
  // has answered (to the same order: another order scanned meanwhile reads them as it is).
  if (busy || buyPending) {
    setTimeout(() => {
      if (get().order?.id === order?.id) applyBoxPresets(get, set);
    }, 500);
    return;
  }
  if (!order || !settings || packages.length === 0 || result?.kind === 'success') return;
  const next = reboxed(packages, settings.boxes);
  if (!next.changed && next.packages.every((p, i) => p === packages[i])) return;
  set({
    packages: next.packages,
    ...(next.changed && get().quote ? { quote: null, selectedRateId: null } : {}),
    ...(next.gone.length
      ? { result: { kind: 'info', text: goneBoxWords(next.gone, packages.length > 1) } }
      : {}),
  });
}
