import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { waitFor } from '@testing-library/react';
import { createFanstage, type PublicProfile } from '../../lib/sdk';
import { defineElements, elementTags, profileCardElement, profileCardTag } from '../../elements';
import { startTestServer } from '../support/server';

let server: Awaited<ReturnType<typeof startTestServer>>;
let lucy: PublicProfile;
let marek: PublicProfile;

beforeAll(async () => {
  server = await startTestServer();
  const probe = createFanstage({ baseUrl: server.baseUrl });
  [lucy, marek] = await Promise.all([probe.api.user('lucy.rivers'), probe.api.user('marek.novak')]);
}, 60_000);

afterAll(async () => {
  await server?.close();
});

afterEach(() => {
  document.body.innerHTML = '';
  document.documentElement.lang = '';
});

function addCard(attributes: Record<string, string>): HTMLElement {
  const element = document.createElement(profileCardTag);
  for (const [name, value] of Object.entries(attributes)) element.setAttribute(name, value);
  document.body.append(element);
  return element;
}

/** The element's heading once the profile has loaded inside its shadow root. */
async function headingIn(element: HTMLElement, name: string): Promise<HTMLElement> {
  let heading: HTMLElement | null = null;
  await waitFor(
    () => {
      heading = element.shadowRoot?.querySelector<HTMLElement>('h2') ?? null;
      expect(heading?.textContent).toContain(name);
    },
    { timeout: 5000 },
  );
  return heading as unknown as HTMLElement;
}

describe('the fanstage elements', () => {
  it('do not touch customElements until defineElements() is called', () => {
    // Importing the module (above) must not register anything: hosts decide when.
    expect(customElements.get(profileCardTag)).toBeUndefined();
    const defined = defineElements();
    expect(customElements.get(profileCardTag)).toBe(defined[profileCardTag]);
    expect(defined[profileCardTag]).toBe(profileCardElement());
  });

  it('define idempotently, keeping names already taken', () => {
    const first = defineElements();
    const again = defineElements();
    expect(again).toEqual(first);
    for (const tag of elementTags) expect(customElements.get(tag)).toBe(first[tag]);
  });

  it('render a profile card into an open shadow root that holds its own styles', async () => {
    defineElements();
    const element = addCard({ user: 'lucy.rivers', 'api-base': server.baseUrl });
    const root = element.shadowRoot;
    expect(root).not.toBeNull();
    expect(root?.mode).toBe('open');
    await headingIn(element, lucy.displayName);

    const style = root?.querySelector('style');
    expect(style).not.toBeNull();
    const css = style?.textContent ?? '';
    expect(css).toContain('--_fs-color-accent: var(--fs-color-accent');
    // Every class the markup uses is defined by the style in the same shadow root.
    const classes = new Set([...(root?.querySelectorAll('[class]') ?? [])].flatMap((node) => [...node.classList]));
    expect(classes.size).toBeGreaterThan(3);
    for (const name of classes) expect(css, `class ${name} has no rule`).toContain(`.${name}`);
    // The card lives in the shadow tree only: nothing of it in the host document's tree.
    expect(document.body.querySelector('.fs-root')).toBeNull();
    expect(element.children).toHaveLength(0);
  });

  it('shows a follow button in the shadow root, which follow="false" hides', async () => {
    defineElements();
    const element = addCard({ user: 'lucy.rivers', 'api-base': server.baseUrl });
    await headingIn(element, lucy.displayName);
    await waitFor(() => expect(element.shadowRoot?.querySelector('button[aria-pressed="false"]')?.textContent).toContain('Follow'));
    // The elements' session keeps nothing in cookies: the refresh token lives in the page's sessionStorage.
    expect(document.cookie).toBe('');

    const quiet = addCard({ user: 'marek.novak', 'api-base': server.baseUrl, follow: 'false' });
    await headingIn(quiet, marek.displayName);
    expect(quiet.shadowRoot?.querySelector('button')).toBeNull();
  });

  it('links the name to the profile on the platform the API lives on', async () => {
    defineElements();
    const element = addCard({ user: 'lucy.rivers', 'api-base': server.baseUrl });
    const heading = await headingIn(element, lucy.displayName);
    expect(heading.querySelector('a')?.getAttribute('href')).toBe(`${server.baseUrl}/lucy.rivers`);
  });

  it('re-renders when the user attribute changes', async () => {
    defineElements();
    const element = addCard({ user: 'lucy.rivers', 'api-base': server.baseUrl });
    await headingIn(element, lucy.displayName);
    element.setAttribute('user', 'marek.novak');
    await headingIn(element, marek.displayName);
    expect(element.shadowRoot?.textContent).not.toContain(lucy.displayName);
  });

  it('speaks the language of its attribute, else of the page', async () => {
    defineElements();
    const czech = addCard({ user: 'no-such-creator-here', 'api-base': server.baseUrl, language: 'cs' });
    await waitFor(() => expect(czech.shadowRoot?.textContent).toContain('Tento profil neexistuje.'), { timeout: 5000 });

    document.documentElement.lang = 'cs-CZ';
    const byPage = addCard({ user: 'no-such-creator-here', 'api-base': server.baseUrl });
    await waitFor(() => expect(byPage.shadowRoot?.textContent).toContain('Tento profil neexistuje.'), { timeout: 5000 });
  });

  it('asks for a user when none is set', async () => {
    defineElements();
    const element = addCard({ 'api-base': server.baseUrl });
    await waitFor(() => expect(element.shadowRoot?.textContent).toContain('No creator is set for this widget.'));
  });

  it('uses the API set by defineElements() when there is no api-base attribute', async () => {
    defineElements({ apiBase: server.baseUrl });
    try {
      const element = addCard({ user: 'lucy.rivers' });
      await headingIn(element, lucy.displayName);
    } finally {
      defineElements({ apiBase: '' });
    }
  });
});
