// Time zone names: the IANA database renamed some zones (Asia/Calcutta → Asia/Kolkata), while
// ICU (and so Intl) still lists many under their old names. The app stores and shows the current
// name and finds a zone by either.

/** Legacy IANA names (as Intl may list them) → their current names. */
export const LEGACY_TIMEZONE_NAMES: Readonly<Record<string, string>> = {
  'Africa/Asmera': 'Africa/Asmara',
  'America/Buenos_Aires': 'America/Argentina/Buenos_Aires',
  'America/Catamarca': 'America/Argentina/Catamarca',
  'America/Cordoba': 'America/Argentina/Cordoba',
  'America/Jujuy': 'America/Argentina/Jujuy',
  'America/Mendoza': 'America/Argentina/Mendoza',
  'America/Coral_Harbour': 'America/Atikokan',
  'America/Godthab': 'America/Nuuk',
  'America/Indianapolis': 'America/Indiana/Indianapolis',
  'America/Louisville': 'America/Kentucky/Louisville',
  'Asia/Calcutta': 'Asia/Kolkata',
  'Asia/Dacca': 'Asia/Dhaka',
  'Asia/Katmandu': 'Asia/Kathmandu',
  'Asia/Macao': 'Asia/Macau',
  'Asia/Rangoon': 'Asia/Yangon',
  'Asia/Saigon': 'Asia/Ho_Chi_Minh',
  'Asia/Thimbu': 'Asia/Thimphu',
  'Asia/Ujung_Pandang': 'Asia/Makassar',
  'Asia/Ulan_Bator': 'Asia/Ulaanbaatar',
  'Atlantic/Faeroe': 'Atlantic/Faroe',
  'Europe/Kiev': 'Europe/Kyiv',
  'Pacific/Enderbury': 'Pacific/Kanton',
  'Pacific/Ponape': 'Pacific/Pohnpei',
  'Pacific/Truk': 'Pacific/Chuuk',
};

const CURRENT_TO_LEGACY: Readonly<Record<string, string>> = Object.fromEntries(
  Object.entries(LEGACY_TIMEZONE_NAMES).map(([legacy, current]) => [current, legacy]),
);

/** The current name of a zone (legacy names mapped; others as they are). */
export function currentTimezoneName(zone: string): string {
  return LEGACY_TIMEZONE_NAMES[zone] ?? zone;
}

/** The legacy name a current zone was known by, if any. */
export function legacyTimezoneName(zone: string): string | null {
  return CURRENT_TO_LEGACY[zone] ?? null;
}

/** True when the runtime can format dates in the zone. */
export function isKnownTimezone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

export type TTimezoneOption = { value: string; label: string };

/**
 * The time zones a person can choose: UTC and every region/city zone under its current name,
 * labelled with its old name too ("Asia/Kolkata (Calcutta)") so a search finds either.
 */
export function listTimezoneOptions(): TTimezoneOption[] {
  const intl = Intl as typeof Intl & { supportedValuesOf?: (key: string) => string[] };
  const listed = intl.supportedValuesOf?.('timeZone') ?? [];
  const names = new Set<string>();
  for (const zone of [...listed, ...Object.values(LEGACY_TIMEZONE_NAMES)]) {
    if (!zone.includes('/')) continue;
    const current = currentTimezoneName(zone);
    if (isKnownTimezone(current)) names.add(current);
  }
  const options = [...names].sort().map((value) => {
    const legacy = legacyTimezoneName(value);
    const city = legacy?.split('/').pop()?.replace(/_/g, ' ');
    return { value, label: city ? `${value} (${city})` : value };
  });
  return [{ value: 'UTC', label: 'UTC' }, ...options];
}
