import { expect, test } from '@playwright/test';
import sharp from 'sharp';
import { formatCount } from '../../lib/sdk';
import { apiProfile, viewports } from './support';
import { signUpCreator } from './creatorSupport';

/**
 * A fan's first visit on a phone, through the interface alone: the age gate, sign-up, the
 * verification mail, a Czech profile with an avatar, a follow that survives a reload, logout.
 */
test('a fan on a phone agrees, signs up, verifies, edits the profile in Czech, uploads an avatar, follows a creator, reloads and logs out', async ({ page, request }) => {
  await page.setViewportSize(viewports.phone);
  const email = `journey${Date.now()}${Math.floor(Math.random() * 1000)}@example.com`;
  const password = 'correct horse battery staple';
  // The creator she follows is one of the test's own: her follower count is the fan's alone to change.
  const creator = await signUpCreator(request, { name: 'Rosa', avatar: true });
  const followersBefore = (await apiProfile(request, creator.username)).followersCount;

  // The blurred page waits for the agreement.
  await page.goto('/');
  const gate = page.getByRole('dialog', { name: 'Are you 18 or older?' });
  await gate.getByRole('button', { name: 'I am 18+ and agree to all' }).click();
  await expect(gate).toBeHidden();

  // Sign up from the visitor's menu; the account is logged in at once.
  await page.getByRole('button', { name: 'Menu' }).click();
  await page.getByRole('link', { name: 'Sign up' }).first().click();
  await page.getByLabel('E-mail').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('checkbox', { name: /18 or older/ }).check();
  await page.getByRole('button', { name: 'Sign up', exact: true }).click();
  await expect(page.getByRole('heading', { name: 'Verify your e-mail' })).toBeVisible();

  // The link from the outbox verifies the address.
  let actionPath: string | undefined;
  await expect
    .poll(async () => {
      const { mails } = (await (await request.get(`/dev/mail.json?to=${encodeURIComponent(email)}`)).json()) as { mails: { links: string[] }[] };
      actionPath = mails.flatMap((mail) => mail.links).map((href) => new URL(href).pathname).find((path) => path.startsWith('/action/'));
      return actionPath !== undefined;
    })
    .toBe(true);
  await page.goto(actionPath!);
  await expect(page.getByText('Your e-mail address is verified. Thank you!')).toBeVisible();

  // Czech from the footer's picker, then the own profile → settings → edit profile.
  await page.getByRole('combobox', { name: 'Language' }).selectOption('cs');
  const nav = page.getByTestId('bottom-nav');
  await nav.getByRole('link', { name: 'Profil' }).click();
  await page.getByRole('link', { name: 'Nastavení' }).click();
  await expect(page).toHaveURL('/settings');
  await page.getByRole('link', { name: 'Upravit profil' }).click();
  await page.getByLabel('Zobrazované jméno').fill('Pavla Fanynka');
  await page.getByRole('button', { name: 'Hotovo' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Váš profil je uložen.' })).toBeVisible();

  // An avatar from a picture on the phone.
  await page.goto('/settings/upload-avatar');
  const picture = await sharp({ create: { width: 800, height: 600, channels: 3, background: { r: 200, g: 60, b: 120 } } }).png().toBuffer();
  await page.getByLabel('Vybrat fotku').setInputFiles({ name: 'me.png', mimeType: 'image/png', buffer: picture });
  await page.getByRole('button', { name: 'Uložit' }).click();
  await expect(page.getByRole('img', { name: 'Vaše současná profilová fotka' })).toHaveAttribute('src', /\.webp\?t=500$/);
  await nav.getByRole('link', { name: 'Profil' }).click();
  const avatar = page.getByRole('img', { name: 'Profilová fotka: Pavla Fanynka' });
  await expect.poll(() => avatar.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBe(120);

  // Following a creator.
  await page.goto(`/${creator.username}`);
  await page.getByTestId('profile-actions').getByRole('button', { pressed: false }).first().click();
  await expect(page.getByTestId('profile-actions').getByRole('button', { pressed: true })).toBeVisible();
  await expect.poll(async () => (await apiProfile(request, creator.username)).followersCount).toBe(followersBefore + 1);

  // A reload keeps the session, the language and the follow.
  await page.reload();
  await expect(page.getByTestId('profile-actions').getByRole('button', { pressed: true })).toBeVisible();
  await expect(page.locator('[data-stat="followers"]')).toContainText(formatCount(followersBefore + 1));

  // Phones log out from the settings.
  await nav.getByRole('link', { name: 'Profil' }).click();
  await page.getByRole('link', { name: 'Nastavení' }).click();
  await page.getByRole('button', { name: 'Odhlásit se' }).click();
  // Logging out loads the public page afresh (SPEC §4); the guard may show '/' a moment before.
  const reloaded = page.waitForEvent('load');
  await page.getByRole('dialog', { name: 'Opravdu se chcete odhlásit?' }).getByRole('button', { name: 'Odhlásit se' }).click();
  await reloaded;
  await expect(page).toHaveURL('/');
  await page.reload();
  await expect(nav.getByRole('button', { name: 'Profil' })).toBeVisible();
});
