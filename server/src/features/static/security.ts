import { createHash } from 'node:crypto';

/**
 * Security headers for the HTML pages the server hands out (the site, the sign-in popup and
 * the partner demo). Scripts and assets all come from the platform's own origin, so the
 * policy can name it alone; the few inline scripts a page has are allowed by their hash,
 * computed from the built file itself, so a script added to a page later is refused until
 * the build that adds it is served — never by a blanket 'unsafe-inline'.
 */

/** Which kind of page: the platform's own, or the demo playing a partner's site. */
export type PageKind = 'site' | 'demo';

export interface PolicyOptions {
  /** PUBLIC_URL: media addresses (`mediaCDN`) are built from it, so it may differ from the page's origin in development. */
  publicUrl: string;
  /** Outside production the demo may be opened on one loopback name and load the widgets from the other. */
  production: boolean;
}

/**
 * The `'sha256-…'` source of every inline script of a page (a `<script>` without `src`):
 * what the browser hashes is the text between the tags, byte for byte.
 */
export function inlineScriptHashes(html: string): string[] {
  const hashes = new Set<string>();
  for (const match of html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script\s*>/gi)) {
    const attributes = match[1] ?? '';
    if (/\ssrc\s*=/i.test(` ${attributes}`)) continue;
    hashes.add(`'sha256-${createHash('sha256').update(match[2] ?? '', 'utf8').digest('base64')}'`);
  }
  return [...hashes];
}

function origins(publicUrl: string): { http: string; ws: string } | null {
  try {
    const url = new URL(publicUrl);
    return { http: url.origin, ws: `${url.protocol === 'https:' ? 'wss:' : 'ws:'}//${url.host}` };
  } catch {
    return null;
  }
}

/**
 * Loopback platforms the demo page accepts in `?platform=` (host-demo/index.html): CSP host
 * sources cannot name an IPv6 address, so `[::1]` works for the page's own origin only.
 */
const loopback = ['http://localhost:*', 'http://127.0.0.1:*'];
const loopbackSockets = ['ws://localhost:*', 'ws://127.0.0.1:*'];

export function contentSecurityPolicy(kind: PageKind, scriptHashes: readonly string[], options: PolicyOptions): string {
  const platform = origins(options.publicUrl);
  const platformHttp = platform ? [platform.http] : [];
  // 'self' covers the page's own ws:/wss: in CSP3 browsers; the explicit origin is for
  // PUBLIC_URL's host when the page was opened under another name, and older engines.
  const platformWs = platform ? [platform.ws] : [];
  const partner = kind === 'demo' && !options.production;
  const directives: [string, ...string[]][] = [
    ['default-src', "'self'"],
    ['script-src', "'self'", ...scriptHashes, ...(partner ? loopback : [])],
    // The site's styles are files. The demo needs inline ones: its own <style> and each
    // widget's <style> inside its shadow root (docs/embedding.md, Content Security Policy).
    ['style-src', "'self'", ...(kind === 'demo' ? ["'unsafe-inline'"] : [])],
    // blob: for the previews of pictures and recordings before they are uploaded.
    ['img-src', "'self'", ...platformHttp, 'data:', 'blob:', ...(partner ? loopback : [])],
    ['media-src', "'self'", ...platformHttp, 'blob:', ...(partner ? loopback : [])],
    ['font-src', "'self'", 'data:'],
    ['connect-src', "'self'", ...platformHttp, ...platformWs, ...(partner ? [...loopback, ...loopbackSockets] : [])],
    ['worker-src', "'self'", 'blob:'],
    ['object-src', "'none'"],
    ['base-uri', "'self'"],
    ['form-action', "'self'"],
    // Nobody frames the platform's pages: a framed page with a signed-in fan (a tip button,
    // the sign-in popup) is an invitation to clickjacking. The demo carries the same widgets
    // on the platform's origin, so it is kept out of frames as well.
    ['frame-ancestors', "'none'"],
  ];
  return directives.map((directive) => [...new Set(directive)].join(' ')).join('; ');
}

/**
 * Powerful features only where the platform uses them: camera and microphone for calls
 * and voice notes, on its own origin (never in a frame of another); the rest off.
 */
export const permissionsPolicy = [
  'camera=(self)',
  'microphone=(self)',
  'geolocation=()',
  'payment=()',
  'usb=()',
  'serial=()',
  'hid=()',
  'midi=()',
  'accelerometer=()',
  'gyroscope=()',
  'magnetometer=()',
  'display-capture=()',
].join(', ');

export const referrerPolicy = 'strict-origin-when-cross-origin';

/** Every header an HTML page gets, by kind. */
export function pageHeaders(kind: PageKind, html: string, options: PolicyOptions): Record<string, string> {
  return {
    'Content-Security-Policy': contentSecurityPolicy(kind, inlineScriptHashes(html), options),
    // For browsers older than frame-ancestors.
    'X-Frame-Options': 'DENY',
    'Referrer-Policy': referrerPolicy,
    'Permissions-Policy': permissionsPolicy,
  };
}
