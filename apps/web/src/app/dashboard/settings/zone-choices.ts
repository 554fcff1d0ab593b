/**
 * The time zones the setting offers: those the server lists (`listedTimeZones`), with the
 * account's current one and what a refused form sent, so that neither is silently replaced by
 * the first of the list. The server also takes other names of a zone (`Asia/Kolkata` where the
 * runtime lists `Asia/Calcutta`), set through the API: kept as they are.
 */
export function zoneChoices(listed: readonly string[], ...shown: (string | undefined)[]) {
  const zones = new Set(listed);
  for (const zone of shown) if (zone) zones.add(zone);
  return [...zones].sort().map((zone) => ({ value: zone, label: zone.replaceAll('_', ' ') }));
}
