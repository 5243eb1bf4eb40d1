import { defineConfig, type Plugin } from 'vite';
import { readFileSync } from 'node:fs';
import react from '@vitejs/plugin-react';
import { fileURLToPath } from 'node:url';
import pkg from '../package.json' with { type: 'json' };
import { precompress } from '../vite.precompress';
import { pageSizes } from '../lib/sdk/rules/constants';

const root = fileURLToPath(new URL('.', import.meta.url));
const apiServer = process.env.FANSTAGE_API ?? 'http://localhost:8080';

/**
 * The English strings (lib/i18n/locales/en.json, the one language bundled) that the shell and
 * the home screen show, by top-level key. The first load carries only these; the rest come in
 * `virtual:fanstage-english-rest`, which the site fetches at start and every other screen and
 * lazily fetched part waits for (host-web/strings.ts). The build fails if a module of the first
 * load names a key of another namespace, so a string cannot go missing on the first screen.
 */
export const firstLoadNamespaces = [
  'app', 'nav', 'footer', 'language', 'consent', 'offline', 'logout', 'realtime', 'auth',
  'home', 'search', 'dialog', 'sitePosts',
  'posts', 'price', 'time', 'follow', 'profile',
] as const;

/**
 * Parts of those namespaces that only screens and parts fetched later show (the account forms,
 * the post editor, comments, the media viewer…): they too come with the rest of the strings.
 * The same check holds: a first-load module that names one of them fails the build.
 */
export const leftOutOfFirstLoad: Partial<Record<(typeof firstLoadNamespaces)[number], readonly string[]>> = {
  auth: ['email', 'password', 'newPassword', 'showPassword', 'hidePassword', 'passwordHint', 'required', 'emailInvalid', 'passwordShort', 'login', 'signup', 'forgot', 'reset', 'verify'],
  posts: ['likers', 'comments', 'viewer', 'editor', 'price'],
  sitePosts: ['timeline', 'topUsers', 'quickPost', 'drop', 'feed', 'post', 'fullScreen', 'newPost', 'updatePost', 'profile'],
  search: ['hashtagTitle', 'hashtagEmpty', 'hashtagInvalid'],
};

/**
 * The server's refusal messages (`errors.<statusText>`, SPEC §7): the first load's modules show
 * one only for a call that failed, always as `t(`errors.${code}`, { defaultValue })`, so they
 * come with the rest of the strings. The check below lets a first-load module name this
 * namespace that way, with a key made from the server's answer, and no other way.
 */
const afterAFailedCall = new Set(['errors']);

const englishFile = /[\\/]lib[\\/]i18n[\\/]locales[\\/]en\.json$/;
const englishRest = 'virtual:fanstage-english-rest';

export function firstLoadStrings(): Plugin {
  const keep = new Set<string>(firstLoadNamespaces);
  const leftOut = new Map<string, ReadonlySet<string>>(Object.entries(leftOutOfFirstLoad).map(([namespace, keys]) => [namespace, new Set(keys)]));
  /** Splits a namespace of the first load into the part it carries and the part left for later. */
  const split = (namespace: string, strings: unknown, later: boolean): [string, unknown][] => {
    const out = leftOut.get(namespace);
    if (!out) return later ? [] : [[namespace, strings]];
    const part = Object.fromEntries(Object.entries(strings as Record<string, unknown>).filter(([key]) => out.has(key) === later));
    return Object.keys(part).length ? [[namespace, part]] : [];
  };
  const english = () => JSON.parse(readFileSync(fileURLToPath(new URL('../lib/i18n/locales/en.json', import.meta.url)), 'utf8')) as Record<string, unknown>;
  return {
    name: 'fanstage:first-load-strings',
    enforce: 'pre',
    resolveId(id) {
      return id === englishRest ? `\0${englishRest}` : null;
    },
    load(id) {
      if (id === `\0${englishRest}`) {
        this.addWatchFile(fileURLToPath(new URL('../lib/i18n/locales/en.json', import.meta.url)));
        // JSON.parse of a string is quicker for a phone to take in than the same object literal.
        const rest = JSON.stringify(Object.fromEntries(Object.entries(english()).flatMap(([namespace, strings]) => (keep.has(namespace) ? split(namespace, strings, true) : [[namespace, strings]]))));
        return `export default JSON.parse(${JSON.stringify(rest)});`;
      }
      if (!englishFile.test(id)) return null;
      return JSON.stringify(Object.fromEntries(Object.entries(english()).flatMap(([namespace, strings]) => (keep.has(namespace) ? split(namespace, strings, false) : []))));
    },
    generateBundle(_options, bundle) {
      // Every module of the first load of `/` and of a profile: the entry's static imports and
      // the home and profile screens' (both render before the rest of the strings are in).
      const all = new Set(Object.keys(english()));
      const files = new Set<string>();
      const walk = (file: string) => {
        const chunk = bundle[file];
        if (!chunk || chunk.type !== 'chunk' || files.has(file)) return;
        files.add(file);
        for (const imported of chunk.imports) walk(imported);
      };
      for (const chunk of Object.values(bundle)) {
        if (chunk.type !== 'chunk') continue;
        if ((chunk.isEntry && chunk.facadeModuleId?.endsWith('/index.html')) || /\/routes\/(Home|Profile)\.tsx$/.test(chunk.facadeModuleId ?? '')) walk(chunk.fileName);
      }
      const missing = new Map<string, string>();
      for (const file of files) {
        const chunk = bundle[file];
        if (!chunk || chunk.type !== 'chunk') continue;
        for (const id of chunk.moduleIds) {
          if (id.includes('node_modules') || id.endsWith('.json') || id.includes('.css') || id.startsWith('\0')) continue;
          // Comments mention file names and keys in prose; only code counts.
          const code = (this.getModuleInfo(id)?.code ?? '').replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|\s)\/\/[^\n]*/g, '$1');
          for (const match of code.matchAll(/[`'"]([A-Za-z][\w-]*)\.(\$\{|[\w-]+)/g)) {
            const namespace = match[1] as string;
            const key = match[2] as string;
            if (afterAFailedCall.has(namespace) && key === '${' && match[0].startsWith('`') && code.slice(match.index, match.index + 120).includes('defaultValue')) continue;
            if (all.has(namespace) && !keep.has(namespace) && !missing.has(namespace)) missing.set(namespace, id);
            // A key made at run time may be any of a namespace's parts, the ones left out too.
            const out = leftOut.get(namespace);
            if (out && (key === '${' || out.has(key)) && !missing.has(`${namespace}.${key}`)) missing.set(`${namespace}.${key}`, id);
          }
        }
      }
      if (missing.size > 0) {
        const list = [...missing].map(([namespace, id]) => `${namespace} (${id})`).join(', ');
        this.error(`The site's first load uses strings it leaves out: ${list}. Add them to firstLoadNamespaces (or take them out of leftOutOfFirstLoad) in host-web/vite.config.ts.`);
      }
    },
  };
}

/**
 * The two screens a visitor most often lands on, `/` (routes/Home) and a profile `/{username}`
 * (routes/Profile), are chunks of their own; the page starts fetching the one its address
 * shows together with the shell's scripts, not after them. A small inline script in the page
 * adds the `modulepreload` (and the screen's stylesheet) for the address it is opened at;
 * the other addresses fetch nothing more.
 */
function landingScreenPreloads(): Plugin {
  return {
    name: 'fanstage:landing-screen-preloads',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler(html, ctx) {
        if (!ctx.bundle || !ctx.chunk || !ctx.filename.endsWith('index.html')) return html;
        const bundle = ctx.bundle;
        const inEntry = new Set<string>();
        const walk = (file: string, into: Set<string>) => {
          const chunk = bundle[file];
          if (!chunk || chunk.type !== 'chunk' || into.has(file)) return;
          into.add(file);
          for (const imported of chunk.imports) walk(imported, into);
        };
        walk(ctx.chunk.fileName, inEntry);
        const cssOf = (files: Iterable<string>) =>
          new Set(
            [...files].flatMap((f) => {
              const c = bundle[f];
              return c && c.type === 'chunk' ? [...(c.viteMetadata?.importedCss ?? [])] : [];
            }),
          );
        const entryCss = cssOf(inEntry);
        const screen = (name: string) => {
          const chunk = Object.values(bundle).find((c) => c.type === 'chunk' && c.moduleIds.some((id) => id.endsWith(`/routes/${name}.tsx`)));
          if (!chunk || chunk.type !== 'chunk') throw new Error(`no chunk for routes/${name}.tsx`);
          const files = new Set<string>();
          walk(chunk.fileName, files);
          const scripts = [...files].filter((f) => !inEntry.has(f));
          const styles = [...cssOf(files)].filter((f) => !entryCss.has(f));
          return { js: scripts.map((f) => `/${f}`), css: styles.map((f) => `/${f}`) };
        };
        // The site's own one-segment addresses (App.tsx routes) are screens, not profiles.
        const app = readFileSync(fileURLToPath(new URL('App.tsx', import.meta.url)), 'utf8');
        const fixed = [...app.matchAll(/path="(\/[\w-]+)"/g)].map((m) => m[1]);
        const preloads = { home: screen('Home'), profile: screen('Profile'), fixed, homeData: homeData(), profileData: profileData() };
        // `/` and a profile also start their screen's first requests of the public API with the
        // scripts, not after them (the SDK's own fetch of the same address, mode and credentials takes the preloaded
        // answer), unless the session marker says someone is signed in (host-web/session.ts):
        // their home asks the logged-in API instead.
        const script = `(function(r){var p=location.pathname,c=document.cookie,s=p==='/'?r.home:/^\\/[^/]+\\/?$/.test(p)&&r.fixed.indexOf(p.replace(/\\/$/,''))<0?r.profile:null;if(!s)return;function add(rel,href,as,cred){var l=document.createElement('link');l.rel=rel;l.href=href;l.crossOrigin=cred||'';if(as)l.as=as;document.head.appendChild(l)}s.js.forEach(function(f){add('modulepreload',f)});s.css.forEach(function(f){add('preload',f,'style')});if(/(^|;\\s*)fs_session=1(;|$)/.test(c))return;var g=/(^|;\\s*)genderfilter=([1-4])(;|$)/.exec(c),n=p.replace(/^\\/|\\/$/g,'');(s===r.home?r.homeData:/^[\\w.-]+$/.test(n)?r.profileData:[]).forEach(function(u){add('preload',u.replace('{gender}',g?g[2]:'1').replace('{username}',n),'fetch','use-credentials')})})(${JSON.stringify(preloads)})`;
        // Ahead of the stylesheets: a script after them would wait until they have loaded, and so
        // would every fetch it starts.
        const tag = `<script id="landing-screen-preloads">${script}</script>`;
        if (!html.includes('</title>')) throw new Error('index.html has no <title> to put the landing screen preloads after');
        return html.replace('</title>', `</title>\n    ${tag}`);
      },
    },
  };
}

/**
 * This build's release id: the package version and the build's time (or `FANSTAGE_RELEASE`),
 * compiled into the site and written to `release.json`, which the server answers at
 * `GET /release`. An open page whose id differs from the server's offers a reload.
 */
const release = process.env.FANSTAGE_RELEASE?.trim() || `${pkg.version}+${Date.now().toString(36)}`;

function releaseFile(): Plugin {
  return {
    name: 'fanstage:release-file',
    apply: 'build',
    generateBundle() {
      this.emitFile({ type: 'asset', fileName: 'release.json', source: JSON.stringify({ release }) });
    },
  };
}

/**
 * The public API requests a visitor's home screen makes first (lib/sdk: the settings, who to
 * follow and the public timeline's first page, SPEC §9 page sizes), exactly as the SDK asks for
 * them, so the browser hands the preloaded answers to its fetches. `{gender}`: the stored
 * timeline filter (host-web/components/genderFilter.ts), 1 by default. Checked by
 * tests/e2e/first-load.spec.ts: a preload the page does not use would be a request too many.
 */
function homeData(): string[] {
  return ['/papi/settings', `/papi/who-to-follow?limit=${pageSizes.whoToFollow}`, `/papi/2/timeline?limit=${pageSizes.timeline}&gender={gender}`];
}

/** The same for a profile `/{username}` (a plain name only): the settings and the profile. */
function profileData(): string[] {
  return ['/papi/settings', '/papi/users/{username}'];
}

/**
 * How the first load is cut into files: the libraries (React, i18next, the router…) in one,
 * which a new release of the site leaves cached, and every other module the shell and the home
 * screen use in the entry. Left to itself the bundler makes a file of each set of screens that
 * share a module: a visitor's first load was 22 files, a dozen of them under 1 KB, each
 * compressed on its own (5 KB more than together) and each a request. The other screens stay in
 * chunks of their own and take what they share with the first screen from these two.
 */
const firstLoadChunks = [
  { name: 'vendor', test: /[\\/]node_modules[\\/]/, tags: ['$initial' as const], priority: 2 },
  { name: 'index', tags: ['$initial' as const], priority: 1 },
];

/** What the site's build and the sign-in popup's (vite.embed-login.config.ts) share. */
export const sharedConfig = {
  root,
  base: '/',
  define: { __FANSTAGE_VERSION__: JSON.stringify(pkg.version), __FANSTAGE_RELEASE__: JSON.stringify(release) },
  server: {
    // In development the API, media, websocket and widgets come from the real server.
    proxy: {
      '/papi': apiServer,
      '/api': apiServer,
      '/media': apiServer,
      '/embed': apiServer,
      '/ws': { target: apiServer, ws: true },
    },
  },
};

/**
 * The reference site, served by the server at `/` with an SPA fallback to index.html. The
 * widgets' sign-in popup (embed-login.html) is built on its own (vite.embed-login.config.ts):
 * a page without the site's shell, whose modules would otherwise join the site's first load.
 */
export default defineConfig({
  ...sharedConfig,
  plugins: [react(), firstLoadStrings(), landingScreenPreloads(), releaseFile(), precompress()],
  build: {
    outDir: fileURLToPath(new URL('../dist/web', import.meta.url)),
    emptyOutDir: true,
    sourcemap: true,
    rollupOptions: {
      input: { index: fileURLToPath(new URL('index.html', import.meta.url)) },
      output: { codeSplitting: { groups: firstLoadChunks } },
    },
  },
});
