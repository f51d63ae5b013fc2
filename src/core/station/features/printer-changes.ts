import { printerAddress, type PrinterConfig } from '../../../shared/printers.js';

/**
 * What a new printer list (Settings → Printers → Edit, or any `profiles.update` that sends the
 * printers) does to the printers a profile has, in words for a shift lead's approval: a printer
 * renamed, moved to another address, given another role or another resolution (dpi), or left
 * out (removed). Where users are set up these are a lead's, as `printers.remove` is; a printer
 * added is not (`printers.add` asks no lead either). Empty when nothing of that changed.
 */
export function printerChanges(
  before: readonly PrinterConfig[],
  after: readonly PrinterConfig[],
): string[] {
  return before.flatMap((p) => {
    const n = after.find((x) => x.id === p.id);
    if (!n) return [`removing printer ${p.name}`];
    return [
      ...(n.name !== p.name ? [`renaming printer ${p.name} "${n.name}"`] : []),
      ...(n.kind !== p.kind || printerAddress(n) !== printerAddress(p)
        ? [`moving printer ${n.name} to ${printerAddress(n)}`]
        : []),
      ...((n.role ?? 'label') !== (p.role ?? 'label')
        ? [`making printer ${n.name} a ${n.role ?? 'label'} printer`]
        : []),
      // A resolution set wrong prints every label at the wrong size until it is put back.
      ...((n.dpi ?? 203) !== (p.dpi ?? 203)
        ? [`setting printer ${n.name} to ${n.dpi ?? 203} dpi`]
        : []),
    ];
  });
}
