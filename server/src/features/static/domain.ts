import path from 'node:path';

/** Paths the site's client-side router never owns: a miss there is a real 404. */
const nonSitePrefixes = ['/papi', '/api', '/media', '/embed', '/demo', '/ws'];

export function isSitePath(url: string): boolean {
  const pathname = url.split('?', 1)[0] ?? '/';
  return !nonSitePrefixes.some((prefix) => pathname === prefix || pathname.startsWith(`${prefix}/`));
}

/** Whether an unmatched request is a page navigation the site's router should answer. */
export function wantsSitePage(method: string, url: string, accept: string | undefined): boolean {
  return (method === 'GET' || method === 'HEAD') && accept !== undefined && accept.includes('text/html') && isSitePath(url);
}

/**
 * Cache policy by file: build tools put content-hashed files under `assets/`, so those never
 * change; everything else (html, the embed loader, icons) is revalidated with its ETag.
 */
export function cacheControlFor(filePath: string): string {
  const normalized = filePath.split(path.sep).join('/');
  if (normalized.includes('/assets/')) return 'public, max-age=31536000, immutable';
  return 'no-cache';
}

/** The relative file to serve for a wildcard path: folders get their index.html. */
export function fileForPath(wildcard: string): string {
  const clean = wildcard.split('?', 1)[0] ?? '';
  if (clean === '' || clean.endsWith('/')) return `${clean}index.html`;
  return clean;
}
