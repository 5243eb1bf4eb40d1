/** A path segment that is a database id (a positive 32-bit integer), or null. */
export function idOf(segment: string | undefined): number | null {
  if (!segment || !/^\d{1,10}$/.test(segment)) return null;
  const id = Number(segment);
  return id >= 1 && id <= 2_147_483_647 ? id : null;
}
