/**
 * While a call rings, the tab says so where a person looks for it among many: its title
 * alternates between the call and the page's own title, and its icon becomes a ringing phone.
 * Both come back as they were when the ring stops (answered, declined, ended).
 */

/** How often the title turns between the call and the page's own (ms). */
export const TITLE_TURN_MS = 1000;

/** A green phone in a circle: the tab's icon while a call rings. */
export const RINGING_ICON =
  'data:image/svg+xml,' +
  encodeURIComponent(
    '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64"><circle cx="32" cy="32" r="32" fill="#1f9d55"/>' +
      '<path fill="#fff" d="M24.6 15.5c-1-1.2-2.8-1.4-4-.4l-4.2 3.4c-1.6 1.3-2.2 3.5-1.5 5.5 4 11.3 12.8 20.1 24.1 24.1 2 .7 4.2.1 5.5-1.5l3.4-4.2c1-1.2.8-3-.4-4l-6.4-5.2c-1.1-.9-2.8-.9-3.9.1l-2.6 2.4c-4.4-2.2-8-5.8-10.2-10.2l2.4-2.6c1-1.1 1-2.8.1-3.9z"/></svg>',
  );

/**
 * Shows `title` in the tab and the ringing icon until the returned function is called. The page
 * may change its own title meanwhile (the person moves to another screen): that title is the one
 * put back.
 */
export function alertTab(title: string, doc: Document = document): () => void {
  const icons = Array.from(doc.querySelectorAll<HTMLLinkElement>('link[rel~="icon"]'));
  const kept = icons.map((link) => ({ link, href: link.getAttribute('href'), type: link.getAttribute('type') }));
  // A page without an icon of its own gets one for the ring, and loses it after.
  const added = icons.length === 0 ? doc.head.appendChild(doc.createElement('link')) : null;
  if (added) added.rel = 'icon';
  for (const link of added ? [added] : icons) {
    link.setAttribute('type', 'image/svg+xml');
    link.setAttribute('href', RINGING_ICON);
  }

  let pageTitle = doc.title;
  let showingCall = true;
  doc.title = title;
  const timer = setInterval(() => {
    if (doc.title !== title && doc.title !== pageTitle) pageTitle = doc.title;
    showingCall = !showingCall;
    doc.title = showingCall ? title : pageTitle;
  }, TITLE_TURN_MS);

  return () => {
    clearInterval(timer);
    if (doc.title === title || doc.title === pageTitle) doc.title = pageTitle;
    added?.remove();
    for (const { link, href, type } of kept) {
      if (href === null) link.removeAttribute('href');
      else link.setAttribute('href', href);
      if (type === null) link.removeAttribute('type');
      else link.setAttribute('type', type);
    }
  };
}
