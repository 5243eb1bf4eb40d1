import type { ReactNode } from 'react';
import { render } from '@testing-library/react';
import axe from 'axe-core';
import { createFanstage, type Fanstage } from '../../../lib/sdk';
import { FanstageProvider } from '../../../lib/ui';
import type { TestServer, TestServerOptions } from '../../support/server';
import { startRealServer } from './realServer';

/** A request as it left a site's Fanstage, for checks that a form sent nothing (or what it sent). */
export interface SentRequest {
  method: string;
  /** Path without the query. */
  path: string;
  headers: Headers;
  /** The JSON body, parsed; undefined when there was none. */
  body: unknown;
}

/** A mail of the server's development outbox (GET /dev/mail.json). */
export interface OutboxMail {
  to: string;
  subject: string;
  template: string;
  language: string;
  text: string;
  links: string[];
}

export interface AuthTestServer {
  server: TestServer;
  /** Every request the site Fanstages of this server sent, oldest first. */
  readonly sent: SentRequest[];
  /** How many requests went to `path` (with `method`, when given). */
  count(path: string, method?: string): number;
  /**
   * The platform's own site in cookie mode: a browser keeps the refresh cookie the server
   * sets, Node's fetch keeps none, so each Fanstage gets a cookie jar of its own (one browser).
   */
  site(language?: 'en' | 'cs'): Fanstage;
  /** The mails the server wrote to `to`, newest first. */
  mailsTo(to: string): Promise<OutboxMail[]>;
  /**
   * The newest mail of `template` to `to`, once there is one more than `before`: some mails
   * (the password reset's) are written after the answer, so they are waited for.
   */
  nextMail(to: string, template: string, before?: number): Promise<OutboxMail>;
  close(): Promise<void>;
}

function parsed(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text === '' ? undefined : text;
  }
}

/** A fetch that keeps cookies as a browser does for one origin, and logs what it sends. */
function browserFetch(sent: SentRequest[]): typeof globalThis.fetch {
  const jar = new Map<string, string>();
  return async (input, init) => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    const headers = new Headers(init?.headers);
    if (jar.size > 0) headers.set('cookie', [...jar].map(([k, v]) => `${k}=${v}`).join('; '));
    const body = typeof init?.body === 'string' ? parsed(init.body) : undefined;
    sent.push({ method: (init?.method ?? (input instanceof Request ? input.method : 'GET')).toUpperCase(), path: url.pathname, headers, body });
    const response = await globalThis.fetch(input, { ...init, headers });
    for (const line of response.headers.getSetCookie()) {
      const [name = '', value = ''] = (line.split(';')[0] ?? '').split('=');
      if (value === '' || /max-age=0/i.test(line)) jar.delete(name.trim());
      else jar.set(name.trim(), value.trim());
    }
    return response;
  };
}

/** The real server (buildApp on PGlite, on loopback) with the account helpers the forms' tests need. */
export async function startAuthServer(options: TestServerOptions = { seed: false }): Promise<AuthTestServer> {
  const server = await startRealServer(options);
  const sent: SentRequest[] = [];
  const mailsTo = async (to: string) => {
    const response = await server.app.inject({ method: 'GET', url: `/dev/mail.json?to=${encodeURIComponent(to)}` });
    return (response.json() as { mails: OutboxMail[] }).mails;
  };
  return {
    server,
    sent,
    count: (path, method) => sent.filter((r) => r.path === path && (method === undefined || r.method === method)).length,
    // The platform's own pages, on the API's origin: the refresh cookie.
    site: (language = 'en') => createFanstage({ baseUrl: server.baseUrl, language, fetch: browserFetch(sent), session: { mode: 'cookie' } }),
    mailsTo,
    async nextMail(to, template, before = 0) {
      const deadline = Date.now() + 10_000;
      for (;;) {
        const mails = (await mailsTo(to)).filter((m) => m.template === template);
        if (mails.length > before) return mails[0]!;
        if (Date.now() > deadline) throw new Error(`no ${template} mail to ${to}`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    },
    close: () => server.close(),
  };
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
