import type { BoxPreset } from '../../../../shared/views';

/**
 * The order file gives this package its own sides, and the box preset of the same code (the
 * station's or the site's, rated instead) has others: said in the order panel, so the packer picks
 * the box really used (the larger box can cost more by its dimensional weight).
 */
export function BoxDiffers(props: {
  n: number;
  count: number;
  preset: BoxPreset | null;
  file: { lengthIn: number | null; widthIn: number | null; heightIn: number | null } | undefined;
}) {
  const { preset, file } = props;
  if (!preset || !file?.lengthIn || !file.widthIn || !file.heightIn) return null;
  const sides = (l: number, w: number, h: number) => `${l}×${w}×${h}`;
  const given = sides(file.lengthIn, file.widthIn, file.heightIn);
  const ours = sides(preset.lengthIn, preset.widthIn, preset.heightIn);
  // The same box with its sides in another order (9×12×6 for 12×9×6) is the same box.
  const key = (l: number, w: number, h: number) => [l, w, h].sort((a, b) => a - b).join('×');
  if (
    key(file.lengthIn, file.widthIn, file.heightIn) ===
    key(preset.lengthIn, preset.widthIn, preset.heightIn)
  )
    return null;
  return (
    <p className="box-differs" data-testid="box-differs">
      {props.count > 1 ? `Package ${props.n} of ${props.count}: the` : 'The'} order file says{' '}
      {given} in; rated as box preset {preset.code}, {preset.name}
      {preset.name.includes(ours) ? ' in' : ` (${ours} in)`}. Pick the box it is really in.
    </p>
  );
}
