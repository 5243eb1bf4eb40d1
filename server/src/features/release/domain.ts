/** The longest release id taken from the build's file; anything longer is not ours. */
export const maxReleaseLength = 100;

/**
 * The release id in the text of the build's `release.json`, or null when the text is not the
 * file the build writes (missing, half written, hand edited into something else).
 */
export function parseRelease(text: string | null): string | null {
  if (text === null) return null;
  try {
    const value = (JSON.parse(text) as { release?: unknown } | null)?.release;
    if (typeof value !== 'string') return null;
    const release = value.trim();
    return release.length > 0 && release.length <= maxReleaseLength && /^[\w.+-]+$/.test(release) ? release : null;
  } catch {
    return null;
  }
}
