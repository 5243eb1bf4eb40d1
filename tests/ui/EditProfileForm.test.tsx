import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createFanstage, formatPrice, type Fanstage, type Settings } from '../../lib/sdk';
import { EditProfileForm } from '../../lib/ui';
import en from '../../lib/i18n/locales/en.json';
import type { TestServer } from '../support/server';
import type { AccountOptions } from '../support/accounts';
import { renderWith, violationsIn } from './support/auth';
import { loggedInOn, startRealServer } from './support/realServer';

let server: TestServer;
let settings: Settings;
const opened: Fanstage[] = [];

beforeAll(async () => {
  server = await startRealServer();
  settings = await createFanstage({ baseUrl: server.baseUrl }).api.settings();
}, 60_000);

afterEach(() => {
  for (const fanstage of opened.splice(0)) fanstage.session.dispose();
});

afterAll(async () => {
  await server?.close();
});

/** A real account on the real server, its token adopted by a fresh Fanstage as after a login. */
async function loggedIn(options: AccountOptions = {}) {
  const session = await loggedInOn(server, options);
  opened.push(session.fanstage);
  return session;
}

describe('EditProfileForm against the real server', { timeout: 20_000 }, () => {
  it('saves the display name and bio, and the account, the profile store and the server agree', async () => {
    const { account, fanstage } = await loggedIn();
    await fanstage.profiles.load(account.username);
    const { container } = renderWith(fanstage, <EditProfileForm />);
    const user = userEvent.setup();
    const name = await screen.findByLabelText('Display name');
    expect(await violationsIn(container)).toEqual([]);
    await user.clear(name);
    await user.type(name, 'Jana Nová');
    await user.type(screen.getByLabelText('About you'), 'Climbing and cameras.');
    await user.click(screen.getByRole('button', { name: 'Done' }));

    expect(await screen.findByText('Your profile is saved.')).toBeInTheDocument();
    expect(fanstage.session.account.value?.displayName).toBe('Jana Nová');
    expect(fanstage.profiles.get(account.username).profile.value?.bio).toBe('Climbing and cameras.');
    const fresh = await createFanstage({ baseUrl: server.baseUrl }).api.user(account.id);
    expect(fresh.displayName).toBe('Jana Nová');
    expect(fresh.bio).toBe('Climbing and cameras.');
  });

  it('checks a new username while typing and marks a taken one on its field', async () => {
    const { fanstage } = await loggedIn();
    renderWith(fanstage, <EditProfileForm />);
    const user = userEvent.setup();
    const username = await screen.findByLabelText('Username');
    await user.clear(username);
    await user.type(username, 'lucy.rivers');
    await waitFor(() => expect(username).toHaveAttribute('aria-invalid', 'true'), { timeout: 3000 });
    expect(username).toHaveAccessibleDescription(expect.stringContaining(en.errors['username-taken']));

    await user.clear(username);
    await user.type(username, `free.${Date.now().toString(36)}`);
    await waitFor(() => expect(username).toHaveAccessibleDescription(en.profileEdit.usernameFree), { timeout: 3000 });
    expect(username).not.toHaveAttribute('aria-invalid');
  });

  it('shows the server’s must_be_18 on the birthday field and saves nothing', async () => {
    const { account, fanstage } = await loggedIn();
    renderWith(fanstage, <EditProfileForm />);
    const user = userEvent.setup();
    const birthday = await screen.findByLabelText('Birthday');
    const tooYoung = new Date();
    tooYoung.setUTCFullYear(tooYoung.getUTCFullYear() - 17);
    await user.type(birthday, tooYoung.toISOString().slice(0, 10));
    await user.click(screen.getByRole('button', { name: 'Done' }));
    await waitFor(() => expect(birthday).toHaveAttribute('aria-invalid', 'true'));
    expect(birthday).toHaveAccessibleDescription(expect.stringContaining(en.errors.must_be_18));
    await waitFor(() => expect(birthday).toHaveFocus());
    const me = await fanstage.account.me();
    expect(me.birthday).toBeNull();
    expect(me.id).toBe(account.id);
  });

  it('offers prices only to sellers, as SPEC §9 steps with the salt, and saves one', async () => {
    const plain = await loggedIn();
    const first = renderWith(plain.fanstage, <EditProfileForm />);
    await screen.findByLabelText('Display name');
    expect(screen.queryByLabelText('Price of a chat message')).toBeNull();
    first.unmount();

    const seller = await loggedIn({ seller: true });
    const { container } = renderWith(seller.fanstage, <EditProfileForm />);
    const message = await screen.findByLabelText('Price of a chat message');
    await waitFor(() => expect(screen.getAllByRole('option', { name: formatPrice(128, settings.salt) }).length).toBeGreaterThan(0));
    // The two fields offer different steps, and each says why (SPEC §9: each kind has its own).
    expect(message).toHaveAccessibleDescription(`The steps for a chat message, ${formatPrice(13, settings.salt)} to ${formatPrice(128, settings.salt)}: each kind of sale has steps of its own.`);
    expect(screen.getByLabelText('Price of a call minute')).toHaveAccessibleDescription(`The steps for a call minute, ${formatPrice(32, settings.salt)} to ${formatPrice(1280, settings.salt)}: each kind of sale has steps of its own.`);
    expect(await violationsIn(container)).toEqual([]);
    const user = userEvent.setup();
    await user.selectOptions(message, '48');
    await user.click(screen.getByRole('button', { name: 'Done' }));
    expect(await screen.findByText('Your profile is saved.')).toBeInTheDocument();
    expect((await seller.fanstage.account.me()).messagePrice).toBe(48);
  });

  it('shows -2 verify-required as a warning when the server no longer takes the price', async () => {
    const { fanstage } = await loggedIn();
    // The account the page holds still says seller (the status was taken away since it loaded).
    const stale = fanstage.session.account.value!;
    fanstage.session.setAccount({ ...stale, isSeller: true });
    renderWith(fanstage, <EditProfileForm />);
    const user = userEvent.setup();
    await user.selectOptions(await screen.findByLabelText('Price of a call minute'), '64');
    await user.click(screen.getByRole('button', { name: 'Done' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(en.profileEdit.verifyRequired);
    expect((await fanstage.account.me()).callPrice).toBe(stale.callPrice);
  });

  it('gives the profile’s address on the platform’s own host (PUBLIC_URL) with the username being typed', async () => {
    const { account, fanstage } = await loggedIn();
    renderWith(fanstage, <EditProfileForm />);
    const username = await screen.findByLabelText('Username');
    const host = new URL(server.baseUrl).host;
    await waitFor(() => expect(username).toHaveAccessibleDescription(`Your address is ${host}/${account.username}.`));
    const user = userEvent.setup();
    const wanted = `addr.${Date.now().toString(36)}`;
    await user.clear(username);
    await user.type(username, wanted);
    await waitFor(() => expect(username).toHaveAccessibleDescription(en.profileEdit.usernameFree), { timeout: 3000 });
    expect(screen.queryByText(/fanstage\.com/)).toBeNull();
  });

  it('keeps a language set elsewhere while the form is open: Done does not put the old one back', async () => {
    const { fanstage } = await loggedIn();
    renderWith(fanstage, <EditProfileForm />);
    const language = await screen.findByLabelText('Language');
    expect(language).toHaveValue('en');
    // The site's language picker saves the account's language while this form is open.
    fanstage.session.setAccount(await fanstage.account.updateMe({ appLanguage: 'cs' }));
    await waitFor(() => expect(language).toHaveValue('cs'));
    const user = userEvent.setup();
    await user.type(screen.getByLabelText('About you'), 'Hello.');
    await user.click(screen.getByRole('button', { name: 'Done' }));
    expect(await screen.findByText('Your profile is saved.')).toBeInTheDocument();
    expect((await fanstage.account.me()).appLanguage).toBe('cs');
  });

  it('leaves the language out when the page has its own language picker', async () => {
    const { fanstage } = await loggedIn();
    renderWith(fanstage, <EditProfileForm languageField={false} />);
    await screen.findByLabelText('Display name');
    expect(screen.queryByLabelText('Language')).toBeNull();
  });
});
