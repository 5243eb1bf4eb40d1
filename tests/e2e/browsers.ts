import { existsSync } from 'node:fs';

/**
 * The Chromium builds the journeys drive, both from Debian's packages (no browser downloads on
 * these machines). Headless journeys run on `chromium-headless-shell`, the same Chromium without
 * the desktop browser's windowing and compositor: a third less CPU on two cores, which is most
 * of what an end-to-end run costs. The full browser (`chromium`) stays for what only it has —
 * the Push API and notifications, a fake camera's video decoded, a popup opened from a popup's
 * answer — and is used for everything when the shell is not installed.
 * E2E_CHROMIUM names another build for every journey.
 */
export const fullChromium = process.env.E2E_CHROMIUM ?? '/usr/bin/chromium';
const shell = '/usr/bin/chromium-headless-shell';
export const headlessChromium = process.env.E2E_CHROMIUM ?? (existsSync(shell) ? shell : fullChromium);

/** The flags every journey's Chromium starts with on these machines. */
export const chromiumArgs = ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'];
