import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFile } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { cp, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import pkg from '../../package.json' with { type: 'json' };
import { parts, staleParts } from '../../scripts/built.mjs';
import { npmCache, scratchDependencies } from '../../scripts/scratch-apps.mjs';
import type { Browser } from '@playwright/test';
import { freePort, freshProcessDatabase, startServerProcess, stopServerProcess, type ProcessDatabase, type ServerProcess } from '../support/processes';
import { launchBrowser, serveStatic, startNext, watchedPage } from './apps';

const run = promisify(execFile);
const repo = fileURLToPath(new URL('../..', import.meta.url));
const tsc = path.join(repo, 'node_modules/typescript/bin/tsc');

let work: string;
let app: string;
let tarball: string;
let files: string[];

/** Runs a command, keeping its output for the failure message instead of the console. */
async function sh(command: string, args: string[], cwd: string): Promise<string> {
  // Vitest sets NODE_ENV=test; `npm pack` rebuilds through prepack, and a build that inherits
  // it would ship React's development JSX runtime.
  try {
    const { stdout } = await run(command, args, { cwd, maxBuffer: 64 * 1024 * 1024, env: { ...process.env, npm_config_update_notifier: 'false', NODE_ENV: 'production' } });
    return stdout;
  } catch (error) {
    const failure = error as { stdout?: string; stderr?: string; message: string };
    throw new Error(`${command} ${args.join(' ')} failed:\n${failure.stdout ?? ''}\n${failure.stderr ?? failure.message}`, { cause: error });
  }
}

/**
 * The scratch apps' dependencies (scripts/scratch-apps.mjs), installed once into `app` with the
 * tarball; the Vite and Next.js apps live in folders under it and resolve them from there. npm
 * keeps its downloads in the repository's .tmp, so a second run (and `npm test`, which warms that
 * cache while the earlier suites run) installs from the disk.
 */
beforeAll(async () => {
  work = await mkdtemp(path.join(tmpdir(), 'fanstage-pack-'));
  // The tarball holds fresh output: `prepack` builds the library and the embed bundles, unless
  // this run's build (npm test builds once for every suite) is newer than their sources.
  const packed = parts.filter((part) => part.script === 'build:lib' || part.script === 'build:embed');
  const fresh = staleParts(packed).length === 0;
  await sh('npm', ['pack', '--pack-destination', work, ...(fresh ? ['--ignore-scripts'] : [])], repo);
  const tarballs = (await readdir(work)).filter((name) => name.endsWith('.tgz'));
  expect(tarballs).toHaveLength(1);
  tarball = path.join(work, tarballs[0] as string);
  files = (await sh('tar', ['-tzf', tarball], work)).split('\n').filter(Boolean).map((name) => name.replace(/^package\//, ''));

  // A scratch app, as a partner would have it, installing the tarball like any package.
  app = path.join(work, 'app');
  await sh('mkdir', ['-p', app], work);
  await writeFile(path.join(app, 'package.json'), JSON.stringify({ name: 'scratch-app', private: true, type: 'module' }));
  await sh('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', '--loglevel=error', `--cache=${npmCache}`, tarball, ...scratchDependencies], app);
});

afterAll(async () => {
  if (work) await rm(work, { recursive: true, force: true });
});

describe('the packed fanstage package', () => {
  it('holds the built library, the embed scripts and nothing else of the repository', () => {
    for (const file of ['package.json', 'dist/lib/index.js', 'dist/lib/sdk.js', 'dist/lib/elements.js', 'dist/lib/fanstage.css', 'dist/embed/fanstage.js']) {
      expect(files, file).toContain(file);
    }
    // The script tag's chunks, one per element and the parts they share, named by their content.
    const chunks = files.filter((file) => /^dist\/embed\/assets\/[\w.-]+-[\w-]{8}\.js$/.test(file));
    expect(chunks.length).toBeGreaterThan(6);
    // Source maps, compressed copies and the build manifest stay out of the tarball.
    expect(files.filter((file) => file.startsWith('dist/embed/') && /\.(map|br|gz)$|\/\.vite\//.test(file))).toEqual([]);
    const unexpected = files.filter((file) => !/^(dist\/(lib|embed)\/|package\.json$|README\.md$|CHANGELOG\.md$|LICENSE$)/.test(file));
    expect(unexpected).toEqual([]);
    for (const file of ['LICENSE', 'CHANGELOG.md', 'dist/embed/integrity.json']) expect(files, file).toContain(file);
  });

  it('has type declarations for each entry', () => {
    for (const types of ['dist/lib/index.d.ts', 'dist/lib/sdk.d.ts', 'dist/lib/elements.d.ts']) expect(files, types).toContain(types);
    for (const entry of Object.values(pkg.exports)) {
      if (typeof entry === 'object') expect(files, entry.types).toContain(entry.types.replace(/^\.\//, ''));
    }
  });

  it('imports every entry in Node, with the version of package.json', async () => {
    const script = `
      import * as main from 'fanstage';
      import * as sdk from 'fanstage/sdk';
      import * as elements from 'fanstage/elements';
      import { createElement } from 'react';
      import { renderToStaticMarkup } from 'react-dom/server';
      import { existsSync } from 'node:fs';
      import { fileURLToPath } from 'node:url';

      const html = renderToStaticMarkup(
        createElement(main.FanstageProvider, { baseUrl: 'https://platform.example', language: 'cs' },
          createElement(main.ProfileCardView, { status: 'not-found', message: 'Tento profil neexistuje.' })));
      let defineError = null;
      try { elements.defineElements(); } catch (error) { defineError = String(error); }

      console.log(JSON.stringify({
        sdkVersion: sdk.version,
        mainVersion: main.version,
        elementsVersion: elements.version,
        sdkHasReact: Object.keys(sdk).some((name) => name === 'ProfileCard' || name === 'FanstageProvider'),
        main: ['FanstageProvider', 'useFanstage', 'ProfileCard', 'ProfileCardView', 'createFanstage', 'formatPrice'].filter((name) => typeof main[name] !== 'function'),
        sdk: ['createClient', 'createFanstage', 'formatPrice', 'formatCount', 'avatarUrl'].filter((name) => typeof sdk[name] !== 'function'),
        elements: ['defineElements', 'profileCardElement'].filter((name) => typeof elements[name] !== 'function'),
        tags: elements.elementTags,
        defineError,
        html,
        style: existsSync(fileURLToPath(import.meta.resolve('fanstage/style.css'))),
        embed: existsSync(fileURLToPath(import.meta.resolve('fanstage/embed/fanstage.js'))),
      }));
    `;
    await writeFile(path.join(app, 'check.mjs'), script);
    const result = JSON.parse(await sh('node', ['check.mjs'], app)) as Record<string, unknown>;
    expect(result.sdkVersion).toBe(pkg.version);
    expect(result.mainVersion).toBe(pkg.version);
    expect(result.elementsVersion).toBe(pkg.version);
    expect(result.sdkHasReact).toBe(false);
    expect(result.main).toEqual([]);
    expect(result.sdk).toEqual([]);
    expect(result.elements).toEqual([]);
    expect(result.tags).toEqual(['fanstage-profile-card', 'fanstage-feed', 'fanstage-wallet', 'fanstage-tip-button', 'fanstage-chat', 'fanstage-call']);
    // Importing `fanstage/elements` touched no DOM; defining needs one, and says so.
    expect(result.defineError).toMatch(/customElements/);
    expect(result.html).toContain('Tento profil neexistuje.');
    expect(result.html).toContain('fs-root');
    expect(result.style).toBe(true);
    expect(result.embed).toBe(true);
  });

  it('type-checks a consumer, its declarations included, under node16, nodenext and bundler resolution', async () => {
    await writeFile(
      path.join(app, 'consumer.ts'),
      `
      import { createElement } from 'react';
      import { FanstageProvider, ProfileCard, createFanstage, formatPrice, type Fanstage, type ProfileCardState } from 'fanstage';
      import { version, type PublicProfile } from 'fanstage/sdk';
      import { defineElements, type FanstageLoaded } from 'fanstage/elements';

      const fanstage: Fanstage = createFanstage({ baseUrl: 'https://platform.example', language: 'cs' });
      const price: string = formatPrice(130, 15000);
      const state: ProfileCardState = { status: 'loading', message: '…' };
      const defined: Record<'fanstage-profile-card', CustomElementConstructor> = defineElements({ apiBase: '' });
      const card = createElement(FanstageProvider, { fanstage }, createElement(ProfileCard, { username: 'lucy.rivers' }));
      const name = (p: PublicProfile): string => p.displayName;
      const ready = (f: FanstageLoaded): string => f.version;

      // The declarations are real types, not \`any\`: each line below must be rejected.
      // @ts-expect-error version is a string
      const wrong: number = version;
      // @ts-expect-error ProfileCard needs a username
      createElement(ProfileCard, {});
      // @ts-expect-error unknown language
      createFanstage({ baseUrl: '', language: 'de' });

      export { price, state, defined, card, name, ready, wrong };
      `,
    );
    await writeFile(
      path.join(app, 'elements.tsx'),
      `
      import type { FanstageFeedElement } from 'fanstage/elements';

      // The tags in JSX, with their attributes; a missing required one is an error.
      export const card = <fanstage-profile-card user="lucy.rivers" api-base="https://platform.example" follow="false" />;
      // @ts-expect-error the card needs a user
      export const cardWithoutUser = <fanstage-profile-card />;
      // Queried by tag, an element has its own type, and its events their detail.
      const feed: FanstageFeedElement | null = document.querySelector('fanstage-feed');
      export const creator: string | undefined = feed?.creator;
      document.addEventListener('fanstage:tip', (event) => {
        const gift: number = event.detail.giftId;
        // @ts-expect-error a tip's detail has no such field
        const nothing = event.detail.nothing;
        return [gift, nothing];
      });
      `,
    );
    // Each resolution a partner's project may use. The package's own declarations are checked
    // whole (skipLibCheck: false) under NodeNext here and under Bundler by the apps below; the
    // other runs check what a consumer's imports resolve to, which attw checks per entry too.
    const settings = [
      { module: 'NodeNext', moduleResolution: 'NodeNext', skipLibCheck: false },
      { module: 'Node16', moduleResolution: 'Node16', skipLibCheck: true },
      { module: 'ESNext', moduleResolution: 'Bundler', skipLibCheck: true },
    ];
    for (const resolution of settings) {
      await writeFile(
        path.join(app, 'tsconfig.json'),
        JSON.stringify({
          compilerOptions: { ...resolution, target: 'ES2022', lib: ['ES2023', 'DOM'], jsx: 'react-jsx', strict: true, noEmit: true, types: [] },
          files: ['consumer.ts', 'elements.tsx'],
        }),
      );
      await sh('node', [tsc, '-p', 'tsconfig.json'], app);
    }
    expect(existsSync(path.join(app, 'node_modules/fanstage/dist/lib/index.d.ts'))).toBe(true);
  }, 600_000);
});

describe('the release', () => {
  it('has declarations every resolution finds: are-the-types-wrong reports nothing', async () => {
    // ES modules only (package.json `type`, no `require` condition), so CommonJS resolutions do
    // not apply; the stylesheet is not a module.
    await sh('node', [path.join(app, 'node_modules/@arethetypeswrong/cli/dist/index.js'), tarball, '--profile', 'esm-only', '--exclude-entrypoints', 'style.css', '--format', 'ascii'], app);
  });

  it('turns the pending changesets into a version and its changelog (`changeset version`, in a scratch copy)', async () => {
    const copy = path.join(work, 'release');
    await mkdir(path.join(copy, 'server'), { recursive: true });
    for (const file of ['package.json', 'CHANGELOG.md', 'server/package.json']) await cp(path.join(repo, file), path.join(copy, file));
    await cp(path.join(repo, '.changeset'), path.join(copy, '.changeset'), { recursive: true });
    const pending = (await readdir(path.join(copy, '.changeset'))).filter((name) => name.endsWith('.md') && name !== 'README.md');
    expect(pending.length).toBeGreaterThan(0);
    await sh('node', [path.join(repo, 'node_modules/@changesets/cli/bin.js'), 'version'], copy);
    const bumped = JSON.parse(await readFile(path.join(copy, 'package.json'), 'utf8')) as { version: string };
    expect(bumped.version).not.toBe(pkg.version);
    expect(await readFile(path.join(copy, 'CHANGELOG.md'), 'utf8')).toContain(`## ${bumped.version}`);
    expect((await readdir(path.join(copy, '.changeset'))).filter((name) => name.endsWith('.md'))).toEqual(['README.md']);
  });
});

/** The first React snippet of docs/embedding.md, as a partner copies it. */
async function docsSnippet(): Promise<string> {
  const docs = await readFile(path.join(repo, 'docs/embedding.md'), 'utf8');
  const react = docs.slice(docs.indexOf('### React'));
  const snippet = /```tsx\n([\s\S]*?)```/.exec(react)?.[1];
  if (!snippet) throw new Error('docs/embedding.md has no React snippet');
  return snippet;
}

describe('partner apps on the packed package, against the real platform', () => {
  let platform: ServerProcess;
  let database: ProcessDatabase;
  let browser: Browser;
  let lucy: string;
  const viteApp = () => path.join(app, 'vite-app');
  const nextApp = () => path.join(app, 'next-app');

  beforeAll(async () => {
    database = await freshProcessDatabase();
    const dataDir = await mkdtemp(path.join(work, 'data-'));
    // The platform as `npm start` runs it, with its demo creators, serving the repository's build.
    platform = await startServerProcess({ dataDir, databaseUrl: database.databaseUrl, jwtSecret: randomBytes(32).toString('hex') }, { patience: 240_000 });
    lucy = ((await (await fetch(`${platform.baseUrl}/papi/users/lucy.rivers`)).json()) as { body: { displayName: string } }).body.displayName;

    // A Vite + React 19 app whose component is the first React snippet of the docs, as written
    // but for the platform's address.
    await mkdir(path.join(viteApp(), 'src'), { recursive: true });
    const snippet = await docsSnippet();
    expect(snippet).toContain('https://fanstage.example');
    await writeFile(path.join(viteApp(), 'src/Creators.tsx'), snippet.replaceAll('https://fanstage.example', platform.baseUrl));
    await writeFile(path.join(viteApp(), 'src/main.tsx'), `import { createRoot } from 'react-dom/client';\nimport { Creators } from './Creators';\n\ncreateRoot(document.getElementById('root')!).render(<Creators />);\n`);
    await writeFile(path.join(viteApp(), 'index.html'), '<!doctype html><html lang="en"><head><meta charset="utf-8" /><title>Creators</title></head><body><div id="root"></div><script type="module" src="/src/main.tsx"></script></body></html>');
    await writeFile(path.join(viteApp(), 'vite.config.mjs'), "import react from '@vitejs/plugin-react';\nexport default { plugins: [react()] };\n");

    // A Next.js App Router app as create-next-app makes it (Cache Components on, its tsconfig),
    // whose page is a server component, as in the docs; its modules are the parent folder's.
    await mkdir(path.join(nextApp(), 'app'), { recursive: true });
    await writeFile(path.join(nextApp(), 'next.config.mjs'), "import { fileURLToPath } from 'node:url';\nexport default { cacheComponents: true, partialPrefetching: true, turbopack: { root: fileURLToPath(new URL('..', import.meta.url)) } };\n");
    await writeFile(path.join(nextApp(), 'app/layout.tsx'), "import type { ReactNode } from 'react';\n\nexport default function RootLayout({ children }: { children: ReactNode }) {\n  return (\n    <html lang=\"en\">\n      <body>{children}</body>\n    </html>\n  );\n}\n");
    await writeFile(
      path.join(nextApp(), 'app/page.tsx'),
      `import { FanstageProvider, ProfileCard } from 'fanstage';\nimport 'fanstage/style.css';\n\nexport default function Page() {\n  return (\n    <FanstageProvider baseUrl="${platform.baseUrl}">\n      <ProfileCard username="lucy.rivers" />\n    </FanstageProvider>\n  );\n}\n`,
    );
    const compilerOptions = { target: 'ES2022', lib: ['dom', 'dom.iterable', 'esnext'], strict: true, noEmit: true, module: 'esnext', moduleResolution: 'bundler', jsx: 'react-jsx', isolatedModules: true, esModuleInterop: true, resolveJsonModule: true };
    await writeFile(path.join(nextApp(), 'tsconfig.json'), JSON.stringify({ compilerOptions: { ...compilerOptions, skipLibCheck: true, incremental: true, plugins: [{ name: 'next' }] }, include: ['**/*.ts', '**/*.tsx'], exclude: ['node_modules'] }));

    // Both apps' code and every declaration of the package it reaches, with skipLibCheck: false,
    // in one run. (Next.js's own declarations do not pass it; `next build` checks with its defaults.)
    await writeFile(
      path.join(app, 'tsconfig.apps.json'),
      JSON.stringify({ compilerOptions: { ...compilerOptions, skipLibCheck: false, types: [] }, files: ['vite-app/src/main.tsx', 'vite-app/src/Creators.tsx', 'next-app/app/layout.tsx', 'next-app/app/page.tsx'] }),
    );
    await sh('node', [tsc, '-p', 'tsconfig.apps.json'], app);
    browser = await launchBrowser();
  }, 900_000);

  afterAll(async () => {
    await browser?.close();
    await stopServerProcess(platform);
    await database?.drop();
  });

  it('a Vite + React 19 app made of the docs snippet as written builds and shows the card from its own origin', async () => {
    await sh('node', [path.join(app, 'node_modules/vite/bin/vite.js'), 'build', '--logLevel', 'error'], viteApp());
    const site = await serveStatic(path.join(viteApp(), 'dist'));
    try {
      const { page, errors } = await watchedPage(browser);
      await page.goto(site.url);
      await page.getByRole('heading', { name: lucy }).waitFor();
      expect(errors).toEqual([]);
      await page.close();
    } finally {
      await site.close();
    }
  });

  it('a Next.js App Router app with the defaults prerenders the card loading, hydrates it without error and shows it', async () => {
    const nextBin = path.join(app, 'node_modules/next/dist/bin/next');
    await sh('node', [nextBin, 'build'], nextApp());
    const next = await startNext(nextApp(), nextBin, await freePort());
    try {
      // The prerendered page holds the card's loading state: no request to the API, no error state.
      const html = await (await fetch(next.url)).text();
      expect(html).toContain('aria-busy="true"');
      expect(html).not.toContain('role="alert"');
      expect(html).not.toContain(lucy);

      const { page, errors } = await watchedPage(browser);
      await page.goto(next.url);
      await page.getByRole('heading', { name: lucy }).waitFor();
      expect(errors, next.output()).toEqual([]);
      await page.close();
    } finally {
      await next.stop();
    }
  });

  it('a page pinned to the versioned loader with its published integrity hash loads the widgets; a wrong hash loads nothing', async () => {
    const release = JSON.parse(await readFile(path.join(app, 'node_modules/fanstage/dist/embed/integrity.json'), 'utf8')) as { version: string; loader: string; files: { 'fanstage.js': string } };
    expect(release.version).toBe(pkg.version);
    const pinned = `${platform.baseUrl}/embed/${release.loader}`;
    const answer = await fetch(pinned);
    expect(answer.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(`sha384-${createHash('sha384').update(Buffer.from(await answer.arrayBuffer())).digest('base64')}`).toBe(release.files['fanstage.js']);
    expect((await fetch(`${platform.baseUrl}/embed/v/0.0.0-other/fanstage.js`)).status).toBe(404);

    const page = (integrity: string) =>
      `<!doctype html><html lang="en"><head><meta charset="utf-8" /><title>Pinned</title>` +
      `<script src="${pinned}" integrity="${integrity}" crossorigin="anonymous" async onerror="window.loaderRefused = true"></script></head>` +
      `<body><fanstage-profile-card user="lucy.rivers"></fanstage-profile-card></body></html>`;
    const site = await serveStatic(work, { '/pinned': page(release.files['fanstage.js']), '/tampered': page(`sha384-${createHash('sha384').update('other bytes').digest('base64')}`) });
    try {
      const { page: pinnedPage, errors } = await watchedPage(browser);
      await pinnedPage.goto(`${site.url}/pinned`);
      await pinnedPage.locator('fanstage-profile-card').getByRole('heading', { name: lucy }).waitFor();
      expect(errors).toEqual([]);
      await pinnedPage.close();

      const tampered = await browser.newPage();
      await tampered.goto(`${site.url}/tampered`);
      await tampered.waitForFunction(() => (window as { loaderRefused?: boolean }).loaderRefused === true);
      expect(await tampered.evaluate(() => customElements.get('fanstage-profile-card'))).toBeUndefined();
      await tampered.close();
    } finally {
      await site.close();
    }
  });
});
