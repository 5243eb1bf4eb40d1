import { defineConfig, type Plugin } from 'vite';
import { readFileSync } from 'node:fs';
import react from '@vitejs/plugin-react';
import { fileURLToPath } from 'node:url';
import pkg from '../package.json' with { type: 'json' };
import { precompress } from '../vite.precompress';

const root = fileURLToPath(new URL('.', import.meta.url));
const apiServer = process.env.FANSTAGE_API ?? 'http://localhost:8080';

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
          const chunk = Object.values(bundle).find((c) => c.type === 'chunk' && c.facadeModuleId?.endsWith(`/routes/${name}.tsx`));
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
        const preloads = { home: screen('Home'), profile: screen('Profile'), fixed };
        const script = `(function(r){var p=location.pathname,s=p==='/'?r.home:/^\\/[^/]+\\/?$/.test(p)&&r.fixed.indexOf(p.replace(/\\/$/,''))<0?r.profile:null;if(!s)return;function add(rel,href,as){var l=document.createElement('link');l.rel=rel;l.href=href;l.crossOrigin='';if(as)l.as=as;document.head.appendChild(l)}s.js.forEach(function(f){add('modulepreload',f)});s.css.forEach(function(f){add('preload',f,'style')})})(${JSON.stringify(preloads)})`;
        return { html, tags: [{ tag: 'script', attrs: { id: 'landing-screen-preloads' }, children: script, injectTo: 'head' }] };
      },
    },
  };
}

/** The reference site, served by the server at `/` with an SPA fallback to index.html. */
export default defineConfig({
  root,
  base: '/',
  plugins: [react(), landingScreenPreloads(), precompress()],
  define: { __FANSTAGE_VERSION__: JSON.stringify(pkg.version) },
  build: {
    outDir: fileURLToPath(new URL('../dist/web', import.meta.url)),
    emptyOutDir: true,
    sourcemap: true,
    rollupOptions: {
      // The widgets' sign-in popup, served at /embed/login: a page of its own, without the site's shell.
      input: {
        index: fileURLToPath(new URL('index.html', import.meta.url)),
        'embed-login': fileURLToPath(new URL('embed-login.html', import.meta.url)),
      },
    },
  },
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
});
