/** The partner of a `/chat/{user}` location, or null elsewhere. */
export function chatPartnerOf(location: string): string | null {
  const match = /^\/chat\/([^/?#]+)/.exec(location);
  if (!match?.[1]) return null;
  try {
    return decodeURIComponent(match[1]);
  } catch {
    return null;
  }
}
