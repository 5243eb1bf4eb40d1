import type { ReactNode } from 'react';
import { render } from '@testing-library/react';
import axe from 'axe-core';
import { createFanstage, type Fanstage } from '../../../lib/sdk';
import { FanstageProvider } from '../../../lib/ui';
import { startApiServer, type ApiServer } from '../../unit/support/api-server';
import { fetchWithCookies, mountSessionServer, type SessionServer } from '../../unit/support/session-server';

export interface AuthTestServer {
  server: ApiServer;
  api: SessionServer;
}

/** A real HTTP server answering the account endpoints of the contract. */
export async function startAuthServer(): Promise<AuthTestServer> {
  const server = await startApiServer();
  return { server, api: mountSessionServer(server) };
}

/** A Fanstage on that server that keeps the session cookie, as a browser would. */
export function siteFanstage(baseUrl: string, language: 'en' | 'cs' = 'en'): Fanstage {
  return createFanstage({ baseUrl, language, fetch: fetchWithCookies() });
}

export function renderWith(fanstage: Fanstage, ui: ReactNode, language: 'en' | 'cs' = 'en') {
  return render(
    <FanstageProvider fanstage={fanstage} language={language}>
      <main>{ui}</main>
    </FanstageProvider>,
  );
}

/** axe's verdict; colour contrast needs layout, which jsdom has not. */
export async function violationsIn(container: HTMLElement) {
  const result = await axe.run(container, { rules: { 'color-contrast': { enabled: false } } });
  return result.violations.map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`);
}
