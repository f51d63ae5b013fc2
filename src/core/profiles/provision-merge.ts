import { profileSchema, type Profile } from './profile-schema.js';

/**
 * What a shift lead changes in Settings, by group: a group is kept or taken from the file whole
 * (the label printer must be one of the printers, a packing slip's printer too).
 */
const SETTINGS_GROUPS: { fields: (keyof Profile)[]; words: string }[] = [
  { fields: ['printers', 'labelPrinterId', 'packingSlips'], words: 'printers' },
  { fields: ['rateRule'], words: 'rate rule' },
  { fields: ['scale'], words: 'scale' },
  { fields: ['hotFolder'], words: 'hot folder' },
  { fields: ['requireItemVerification'], words: 'scan to verify' },
  { fields: ['orderColumnMappings'], words: 'saved column mappings' },
  { fields: ['name'], words: 'name' },
  { fields: ['labelRetentionDays'], words: 'label retention' },
];

const same = (a: unknown, b: unknown) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);

/**
 * The profile a provisioning file given at every start (`--provision`) stores: the file's, but
 * what was changed in Settings since the file last set it (a printer moved to this station, a
 * rate rule) is kept while the file still says what it said before; a group the file changes
 * since is the file's. `last` is the profile as the file gave it at the previous start (none:
 * the file's, as before). `kept` names the groups kept, in words, for the log.
 */
export function keepSettingsChanges(
  file: Profile,
  stored: Profile | undefined,
  last: Profile | undefined,
): { profile: Profile; kept: string[] } {
  if (!stored || !last) return { profile: file, kept: [] };
  const merged: Record<string, unknown> = { ...file };
  const kept: string[] = [];
  for (const group of SETTINGS_GROUPS) {
    const fileAsBefore = group.fields.every((k) => same(file[k], last[k]));
    const changedHere = group.fields.some((k) => !same(stored[k], file[k]));
    if (!fileAsBefore || !changedHere) continue;
    for (const k of group.fields) {
      if (stored[k] === undefined) delete merged[k];
      else merged[k] = stored[k];
    }
    kept.push(group.words);
  }
  if (kept.length === 0) return { profile: file, kept };
  const parsed = profileSchema.safeParse(merged);
  return parsed.success ? { profile: parsed.data, kept } : { profile: file, kept: [] };
}
