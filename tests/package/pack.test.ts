import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFile } from 'node:child_process';
import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import pkg from '../../package.json' with { type: 'json' };
import { parts, staleParts } from '../../scripts/built.mjs';

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
  await sh('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', '--loglevel=error', tarball, 'react@19', 'react-dom@19', '@types/react@19'], app);
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
    const unexpected = files.filter((file) => !/^(dist\/(lib|embed)\/|package\.json$|README\.md$|LICENSE)/.test(file));
    expect(unexpected).toEqual([]);
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

  it('type-checks a consumer under NodeNext resolution', async () => {
    await writeFile(
      path.join(app, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: { module: 'NodeNext', moduleResolution: 'NodeNext', target: 'ES2022', lib: ['ES2023', 'DOM'], strict: true, noEmit: true, skipLibCheck: true, types: [] },
        files: ['consumer.ts'],
      }),
    );
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
    await sh('node', [tsc, '-p', 'tsconfig.json'], app);
    expect(existsSync(path.join(app, 'node_modules/fanstage/dist/lib/index.d.ts'))).toBe(true);
  });
});
