import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { useMemo, useState } from 'react';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useSignals } from '@preact/signals-react/runtime';
import { createFanstage, FILTER_TEXT_KEY, type DiscoverTab, type Fanstage, type PublicProfile } from '../../lib/sdk';
import { DiscoverFilters, UserList, useFanstage } from '../../lib/ui';
import type { TestServer } from '../support/server';
import { renderWith, violationsIn } from './support/auth';
import { loggedInOn, startRealServer } from './support/realServer';

let server: TestServer;
let marek: PublicProfile;
const sent: URL[] = [];
const opened: Fanstage[] = [];

beforeAll(async () => {
  server = await startRealServer();
  marek = await createFanstage({ baseUrl: server.baseUrl }).api.user('marek.novak');
}, 60_000);

afterEach(() => {
  localStorage.clear();
  for (const fanstage of opened.splice(0)) fanstage.session.dispose();
});

afterAll(async () => {
  // Now and then the server's close waits on a request it never finishes (seen after aborted
  // searches); the suite's verdict should not hang on that, so the wait is bounded.
  await Promise.race([server?.close(), new Promise((resolve) => setTimeout(resolve, 15_000))]);
}, 30_000);

/** A visitor's Fanstage that notes every address it asks for. */
function visitor(): Fanstage {
  return createFanstage({
    baseUrl: server.baseUrl,
    fetch: (input, init) => {
      sent.push(new URL(input instanceof Request ? input.url : String(input)));
      return fetch(input, init);
    },
  });
}

/** The filter over a creators list, as Discover composes them: a change makes a new list. */
function Discover({ tab }: { tab: DiscoverTab }) {
  useSignals();
  const { search } = useFanstage();
  const [version, setVersion] = useState(0);
  const list = useMemo(() => search.users(tab), [search, tab, version]);
  return (
    <>
      <DiscoverFilters tab={tab} onChange={() => setVersion((v) => v + 1)} />
      <UserList list={list} testId="users" />
    </>
  );
}

function lastSearch(): URL | undefined {
  return sent.filter((url) => url.pathname === '/papi/discover/search').at(-1);
}

describe('DiscoverFilters against the real server', { timeout: 30_000 }, () => {
  it('offers everyone to a logged-in viewer, in Czech too', async () => {
    const { fanstage } = await loggedInOn(server);
    opened.push(fanstage);
    renderWith(fanstage, <Discover tab="activeusers" />, 'cs');
    await userEvent.setup().click(await screen.findByRole('button', { name: 'Filtry' }));
    const gender = screen.getByLabelText('Zobrazit');
    expect(within(gender).getByRole('option', { name: 'Všechny' })).toBeInTheDocument();
  });

  it('asks for the active users with nothing but paging while no filter is set', async () => {
    renderWith(visitor(), <Discover tab="activeusers" />);
    await waitFor(() => expect(sent.some((url) => url.pathname === '/papi/discover/active-users')).toBe(true));
    const plain = sent.filter((url) => url.pathname === '/papi/discover/active-users').at(-1);
    expect([...(plain?.searchParams.keys() ?? [])]).toEqual(['limit']);
    expect(sent.some((url) => url.pathname === '/papi/discover/search')).toBe(false);
  });

  it('sends only the filters that were set and lists the matching creators', async () => {
    const { container } = renderWith(visitor(), <Discover tab="hasBadge" />);
    await waitFor(() => expect(screen.getByTestId('users').querySelectorAll('article').length).toBeGreaterThan(1));
    expect(Object.fromEntries(lastSearch()!.searchParams)).toEqual({ tab: 'hasBadge', limit: '30' });

    const user = userEvent.setup();
    const toggle = screen.getByRole('button', { name: 'Filters' });
    expect(toggle).toHaveAttribute('aria-expanded', 'false');
    await user.click(toggle);
    expect(toggle).toHaveAttribute('aria-expanded', 'true');
    const form = screen.getByRole('form', { name: 'Filter creators' });
    expect(await violationsIn(container)).toEqual([]);

    // A visitor cannot choose everyone (SPEC §3).
    const gender = within(form).getByLabelText('Show');
    expect(within(gender).queryByRole('option', { name: 'Everyone' })).toBeNull();
    await user.selectOptions(gender, 'Men');
    await user.click(within(form).getByRole('button', { name: 'Apply' }));

    await waitFor(() => expect(screen.getByTestId('users').querySelectorAll('article')).toHaveLength(1));
    expect(screen.getByRole('article', { name: marek.displayName })).toBeInTheDocument();
    expect(Object.fromEntries(lastSearch()!.searchParams)).toEqual({ tab: 'hasBadge', gender: '2', limit: '30' });
    expect(screen.getByRole('button', { name: /Filters on/ })).toBeInTheDocument();
  });

  it('keeps the free text in local storage as fltr and searches by it', async () => {
    renderWith(visitor(), <Discover tab="hasBadge" />);
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Filters' }));
    await user.type(screen.getByLabelText('Name contains'), 'marek');
    await user.click(screen.getByRole('button', { name: 'Apply' }));
    await waitFor(() => expect(screen.getByTestId('users').querySelectorAll('article')).toHaveLength(1));
    expect(localStorage.getItem(FILTER_TEXT_KEY)).toBe('marek');
    expect(lastSearch()!.searchParams.get('q')).toBe('marek');

    await user.click(screen.getByRole('button', { name: 'Reset filters' }));
    expect(localStorage.getItem(FILTER_TEXT_KEY)).toBeNull();
    await waitFor(() => expect(screen.getByTestId('users').querySelectorAll('article').length).toBeGreaterThan(1));
  });

  it('starts the age range at the tab’s preset: teens 18–25, milf 30–50, others 18–42', async () => {
    const user = userEvent.setup();
    for (const [tab, from, to] of [
      ['teens', '18', '25'],
      ['milf', '30', '50'],
      ['boobs', '18', '42'],
    ] as const) {
      const view = renderWith(visitor(), <Discover tab={tab} />);
      await user.click(await screen.findByRole('button', { name: 'Filters' }));
      expect(screen.getByLabelText('Age from')).toHaveValue(Number(from));
      expect(screen.getByLabelText('Age to')).toHaveValue(Number(to));
      view.unmount();
    }
  });

  it('refuses an upside-down age range and says why on the fields', async () => {
    renderWith(visitor(), <Discover tab="boobs" />);
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Filters' }));
    const from = screen.getByLabelText('Age from');
    await user.clear(from);
    await user.type(from, '40');
    const to = screen.getByLabelText('Age to');
    await user.clear(to);
    await user.type(to, '30');
    const before = sent.length;
    await user.click(screen.getByRole('button', { name: 'Apply' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Ages go from 18 to 120, the lower one first.');
    expect(from).toHaveAttribute('aria-invalid', 'true');
    expect(sent).toHaveLength(before);
  });

});
