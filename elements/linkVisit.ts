/**
 * A widget's `link` attribute (docs/embedding.md, "The link attribute"): a visit through one of
 * the creator's tracking links from this page. A module of its own, which the React-free first
 * views (elements/script/lite.ts) import only on a page whose widgets carry the attribute, so
 * that every other page's first load stays as small as it was.
 */

/** A widget's `link` attribute, a tracking link's code (eight lower-case letters and digits), or null. */
export function linkCodeOf(attribute: string | null | undefined): string | null {
  const code = attribute?.trim().toLowerCase() ?? '';
  return /^[a-z0-9]{8}$/.test(code) ? code : null;
}

/** Where a page keeps the visitor id its first link visit was given (the server's, like its fs_visitor cookie). */
export function visitorKey(apiBase: string): string {
  return `fanstage.visitor ${apiBase || 'self'}`;
}

/** This page's visitor id for `apiBase`, if a link visit was given one. */
export function storedVisitor(apiBase: string): string | undefined {
  try {
    const value = typeof localStorage === 'undefined' ? null : localStorage.getItem(visitorKey(apiBase));
    return value !== null && /^[A-Za-z0-9_-]{22}$/.test(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

const linkVisits = new Set<string>();

/** Whether a visit through `code` is still to record on this page (true once per API and code: every widget of a page is one visit). */
export function firstLinkVisit(apiBase: string, code: string): boolean {
  const key = `${apiBase} ${code}`;
  if (linkVisits.has(key)) return false;
  linkVisits.add(key);
  return true;
}

/**
 * Records a signed-out visit through a widget's `link` attribute (`POST /papi/links/widget-visit`)
 * and keeps the visitor id the server answers, which the widget's sign-in hands over so the
 * visits become the fan's. `headers` carries a signed-in widget's token instead (then no id).
 */
export function recordLinkVisit(apiBase: string, code: string, username: string, headers: Record<string, string> = {}): Promise<void> {
  const visitor = headers.Authorization ? undefined : storedVisitor(apiBase);
  return fetch(`${apiBase}/papi/links/widget-visit`, {
    method: 'POST',
    credentials: 'omit',
    headers: { 'Content-Type': 'application/json', Apiversion: '1.0', ...headers },
    body: JSON.stringify({ code, ...(username ? { username } : {}), ...(visitor ? { visitor } : {}) }),
  })
    .then((response) => response.json() as Promise<{ statusCode?: number; body?: { visitor?: unknown } }>)
    .then((envelope) => {
      const given = envelope.body?.visitor;
      if ((envelope.statusCode ?? 0) > 0 && typeof given === 'string' && given !== visitor) localStorage.setItem(visitorKey(apiBase), given);
    })
    .catch(() => undefined);
}

/** Records, once per page, a signed-out visit through the `link` attribute `attribute` of a first view. */
export function visitThroughLink(apiBase: string, attribute: string | null, username: string): void {
  const code = linkCodeOf(attribute);
  if (code !== null && firstLinkVisit(apiBase, code)) void recordLinkVisit(apiBase, code, username);
}
