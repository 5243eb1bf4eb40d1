import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { partnerApi, type Fanstage } from '../../lib/sdk';
import { IdCheckStatus, PartnerRegistration } from '../../lib/ui';
import type { TestServer } from '../support/server';
import { renderWith, violationsIn } from './support/auth';
import { loggedInOn, startRealServer } from './support/realServer';
import { applyAndCheck, passSandboxPage, typedForm } from './partnerSupport';

let server: TestServer;
const opened: Fanstage[] = [];

beforeAll(async () => {
  server = await startRealServer();
}, 60_000);

afterEach(() => {
  for (const fanstage of opened.splice(0)) fanstage.session.dispose();
});

afterAll(async () => {
  await server?.close();
});

async function person(options: { level?: number } = {}) {
  const who = await loggedInOn(server, options);
  opened.push(who.fanstage);
  return who;
}

async function fill(form: HTMLElement, values: Record<string, string>) {
  const labels: Record<string, string> = {
    name: 'Full name or company name',
    street: 'Street and number',
    zip: 'Postal code',
    country: 'Country',
    iban: 'IBAN',
    companyId: 'Company ID',
    companyCode: 'Partner code',
  };
  for (const [field, value] of Object.entries(values)) {
    const input = within(form).getByRole('textbox', { name: labels[field] });
    await userEvent.clear(input);
    if (value !== '') await userEvent.type(input, value);
  }
}

describe('PartnerRegistration against the real server', { timeout: 60_000 }, () => {
  it('checks the form in the browser, shows the server refusing a partner code at its field, and leads to the identity check', async () => {
    const { fanstage } = await person();
    const partner = partnerApi(fanstage.client);
    const opened: string[] = [];
    const { container } = renderWith(fanstage, <PartnerRegistration navigate={(url) => opened.push(url)} />);
    const form = await screen.findByRole('form', { name: 'Your details' });
    expect(await violationsIn(container)).toEqual([]);

    // The settings' expressions and the IBAN check sum, in the browser: nothing reaches the server.
    await fill(form, { ...typedForm, iban: 'CZ65 0800 0000 1920 0014 5398', zip: '1' });
    const save = within(form).getByRole('button', { name: 'Save and continue' });
    await waitFor(() => expect(save).toBeEnabled());
    await userEvent.click(save);
    const zip = within(form).getByRole('textbox', { name: 'Postal code' });
    const iban = within(form).getByRole('textbox', { name: 'IBAN' });
    expect(zip).toHaveAttribute('aria-invalid', 'true');
    expect(zip).toHaveAccessibleDescription('Enter a valid postal code.');
    expect(iban).toHaveAccessibleDescription('Enter a valid IBAN.');
    expect(zip).toHaveFocus();
    expect((await partner.status()).approvedState).toBe(0);

    // A well-formed partner code that is nobody's: the server refuses it, the form stays saved (7).
    await fill(form, { zip: typedForm.zip, iban: typedForm.iban, companyCode: 'C-AAAAAAAA' });
    await userEvent.click(save);
    const code = within(form).getByRole('textbox', { name: 'Partner code' });
    await waitFor(() => expect(code).toHaveAttribute('aria-invalid', 'true'));
    expect(code).toHaveAccessibleDescription(/This partner code is not valid/);
    expect(await screen.findByRole('alert')).toHaveTextContent('This partner code is not valid.');
    expect(await partner.status()).toMatchObject({ approvedState: 7, form: { country: 'CZ', iban: 'CZ6508000000192000145399' } });

    await fill(form, { companyCode: '' });
    await userEvent.click(save);
    expect(await screen.findByRole('heading', { name: 'Verify your identity' })).toBeInTheDocument();
    expect(screen.getByRole('status')).toHaveTextContent('Your partner registration is saved.');
    expect((await partner.status()).approvedState).toBe(101);
    expect(screen.getByRole('list', { name: 'Steps of the partner registration' }).querySelector('[aria-current="step"]')).toHaveTextContent('Identity check');

    await userEvent.click(screen.getByRole('button', { name: 'Start the identity check' }));
    await waitFor(() => expect(opened).toHaveLength(1));
    expect(opened[0]).toMatch(/\/papi\/identity\/sandbox\/check\//);
    expect((await partner.status()).approvedState).toBe(105);
    expect(await violationsIn(container)).toEqual([]);
  });

  it('shows the result at the return page as it arrives, then approval with the badge choice and nothing to cancel', async () => {
    const { fanstage, account } = await person();
    const partner = partnerApi(fanstage.client);
    await partner.saveForm({ ...typedForm, country: 'CZ' });
    await partner.registrationDone();
    const { redirectUrl } = await partner.startIdCheck();

    const result = renderWith(fanstage, <IdCheckStatus pollMs={150} />);
    expect(await screen.findByText('Your identity check is still running. This page updates itself.')).toBeInTheDocument();
    expect(await passSandboxPage(redirectUrl, '100000001')).toBe(303);
    expect(await screen.findByText('Your identity is verified. Our team will now approve your application.')).toBeInTheDocument();
    result.unmount();

    const admin = await person({ level: 500 });
    const decided = await server.app.inject({ method: 'POST', url: `/api/admin/partners/${account.id}/approve`, headers: { authorization: `Bearer ${admin.account.accessToken}` }, payload: {} });
    expect(decided.json()).toMatchObject({ statusCode: 2, body: { approvedState: 120 } });

    const { container } = renderWith(fanstage, <PartnerRegistration />);
    expect(await screen.findByRole('heading', { name: 'You are a partner' })).toBeInTheDocument();
    const badge = screen.getByRole('group', { name: 'Show the verified badge on your profile?' });
    await userEvent.click(within(badge).getByRole('button', { name: 'Show the badge' }));
    await waitFor(() => expect(within(badge).getByRole('button', { name: 'Show the badge' })).toHaveAttribute('aria-pressed', 'true'));
    expect(await partner.status()).toMatchObject({ approvedState: 120, hasBadge: true });
    await userEvent.click(within(badge).getByRole('button', { name: "Don't show it" }));
    await waitFor(async () => expect((await partner.status()).hasBadge).toBe(false));
    // An approved partner has nothing to cancel.
    expect(screen.queryByRole('button', { name: 'Cancel the verification' })).toBeNull();
    expect(await violationsIn(container)).toEqual([]);
  });

  it('cancels a running application after asking, and speaks Czech', async () => {
    const { fanstage } = await person();
    await applyAndCheck(fanstage, '300000003');
    renderWith(fanstage, <PartnerRegistration />, 'cs');
    expect(await screen.findByRole('heading', { name: 'Vaše doklady se kontrolují' })).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Zrušit ověření' }));
    await userEvent.click(within(screen.getByRole('group', { name: /Zrušit vaši partnerskou registraci/ })).getByRole('button', { name: 'Ano, zrušit' }));
    expect(await screen.findByText('Vaše partnerská registrace je zrušena.')).toBeInTheDocument();
    expect((await partnerApi(fanstage.client).status()).approvedState).toBe(0);
    expect(await screen.findByRole('form', { name: 'Vaše údaje' })).toBeInTheDocument();
  });
});
