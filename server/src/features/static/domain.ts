import path from 'node:path';

/** Paths the site's client-side router never owns: a miss there is a real 404. */
const nonSitePrefixes = ['/papi', '/api', '/media', '/embed', '/demo', '/ws'];

/**
 * Folders of the server's own below an address the site may own: `/dev` may be someone's
 * profile, but the developer's tools live under `/dev/`, and where they do not exist
 * (production) their addresses must answer the API's 404, not the site's page.
 */
const nonSiteFolders = ['/dev/'];

export function isSitePath(url: string): boolean {
  const pathname = url.split('?', 1)[0] ?? '/';
  if (nonSiteFolders.some((folder) => pathname.startsWith(folder))) return false;
  return !nonSitePrefixes.some((prefix) => pathname === prefix || pathname.startsWith(`${prefix}/`));
}

/** Whether an unmatched request is a page navigation the site's router should answer. */
export function wantsSitePage(method: string, url: string, accept: string | undefined): boolean {
  return (method === 'GET' || method === 'HEAD') && accept !== undefined && accept.includes('text/html') && isSitePath(url);
}

/** Cached for good: the address changes whenever the content does. */
export const immutable = 'public, max-age=31536000, immutable';
/**
 * The script-tag loader is the one address partners copy into their pages, loaded on every
 * view of them: a few minutes spare most of those views a request, and a release reaches
 * every page within them (docs/embedding.md, Caching and versions).
 */
export const loaderCache = 'public, max-age=300';

/** The copies the build writes next to a file (vite.precompress.ts), by Content-Encoding. */
const encodedSuffix = /\.(?:br|gz)$/;

/** The file a precompressed copy was made from (`index.html.br` → `index.html`). */
export function sourceFile(filePath: string): string {
  return filePath.replace(encodedSuffix, '');
}

/** Files the build precompresses (vite.precompress.ts): their answer varies by Accept-Encoding. */
export function isCompressible(filePath: string): boolean {
  // The same list as the build's (vite.precompress.ts); source maps are left uncompressed there.
  return /\.(?:js|mjs|css|html|svg|json|txt|xml|webmanifest)$/.test(sourceFile(filePath));
}

/**
 * The `v` the loader asks for the bundle with (vite.loader.config.ts): the package's version,
 * a dash and the first 16 hex digits of the SHA-256 of the bundle's bytes, so every build that
 * changes the bundle changes its address, with or without a new release.
 */
export function contentVersionMatches(v: string | undefined, contentHash: string): boolean {
  return v !== undefined && v.endsWith(`-${contentHash.slice(0, 16)}`);
}

/**
 * Cache policy by file: build tools put content-hashed files under `assets/`, so those never
 * change; a file asked for with the `?v=` of its own content (the widgets' bundle) is as good
 * as hashed; the loader is kept a few minutes; everything else (html, icons) is revalidated
 * with its ETag or Last-Modified on every use.
 */
export function cacheControlFor(filePath: string, options: { versioned?: boolean } = {}): string {
  const normalized = sourceFile(filePath).split(path.sep).join('/');
  if (normalized.includes('/assets/') || options.versioned) return immutable;
  if (normalized.endsWith('/embed/fanstage.js')) return loaderCache;
  return 'no-cache';
}

/** The relative file to serve for a wildcard path: folders get their index.html. */
export function fileForPath(wildcard: string): string {
  const clean = wildcard.split('?', 1)[0] ?? '';
  if (clean === '' || clean.endsWith('/')) return `${clean}index.html`;
  return clean;
}
