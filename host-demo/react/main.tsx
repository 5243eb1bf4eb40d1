/*
 * A partner's React app using the npm package, as it would after `npm install fanstage`.
 * (With the published package, also `import 'fanstage/style.css'`; here the alias points at
 * the library's source, whose components bring their own styles.)
 */
import { StrictMode, useMemo, useState } from 'react';
import { createRoot } from 'react-dom/client';
import { FanstageProvider, ProfileCard, createFanstage } from 'fanstage';
import { formatCount } from 'fanstage/sdk';

type Language = 'en' | 'cs';

const copy = {
  en: {
    title: 'Creators we love',
    intro: 'Every week Studio Weekly picks two creators worth following. This page is a React app built with the fanstage npm package.',
    language: 'Language',
    footer: (n: string) => `Read by ${n} photographers every week.`,
  },
  cs: {
    title: 'Tvůrci, které milujeme',
    intro: 'Studio Weekly každý týden vybírá dva tvůrce, které stojí za to sledovat. Tahle stránka je aplikace v Reactu postavená na npm balíčku fanstage.',
    language: 'Jazyk',
    footer: (n: string) => `Každý týden nás čte ${n} fotografů.`,
  },
} as const;

const picks = ['lucy.rivers', 'marek.novak'];

function App() {
  const [language, setLanguage] = useState<Language>('en');
  // The platform's address; this demo is served by the platform itself.
  const fanstage = useMemo(() => createFanstage({ baseUrl: window.location.origin, language: 'en' }), []);
  const text = copy[language];

  return (
    <FanstageProvider fanstage={fanstage} language={language}>
      <header className="masthead">
        <p className="logo">Studio Weekly</p>
        <label className="language">
          {text.language}{' '}
          <select
            value={language}
            onChange={(event) => {
              const next = event.target.value === 'cs' ? 'cs' : 'en';
              setLanguage(next);
              fanstage.client.setLanguage(next);
              document.documentElement.lang = next;
            }}
          >
            <option value="en">English</option>
            <option value="cs" lang="cs">
              Čeština
            </option>
          </select>
        </label>
      </header>
      <main className="page">
        <h1>{text.title}</h1>
        <p className="intro">{text.intro}</p>
        <ul className="picks">
          {picks.map((username) => (
            <li key={username}>
              <ProfileCard username={username} href={fanstage.client.url(`/${encodeURIComponent(username)}`)} />
            </li>
          ))}
        </ul>
      </main>
      <footer className="colophon">{text.footer(formatCount(12_400))}</footer>
    </FanstageProvider>
  );
}

const root = document.getElementById('app');
if (root) {
  createRoot(root).render(
    <StrictMode>
      <App />
    </StrictMode>,
  );
}
