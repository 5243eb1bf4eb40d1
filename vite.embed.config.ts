import { defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';
import { fileURLToPath } from 'node:url';
import { basename } from 'node:path';
import { readFileSync } from 'node:fs';
import pkg from './package.json' with { type: 'json' };
import { precompress } from './vite.precompress';

const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));

/** The same class names as vite.lib.config.ts (see there why they carry no hash). */
function scopedClassName(name: string, filename: string): string {
  const file = filename.split('?')[0] ?? filename;
  return `fs-${basename(file).replace(/\.module\.css$/, '')}-${name}`;
}

/**
 * Elements carry their styles inside their shadow roots (`?inline`); the stylesheet Vite
 * would also extract from the same CSS modules is of no use to a script-tag page, and a
 * `<link>` to it would style the host page itself. Drop it.
 */
function dropExtractedCss(): Plugin {
  return {
    name: 'fanstage:drop-extracted-css',
    enforce: 'post',
    generateBundle(_options, bundle) {
      for (const name of Object.keys(bundle)) if (name.endsWith('.css')) delete bundle[name];
    },
  };
}

/**
 * The translation namespaces the widgets show (lib/i18n/locales/*.json top-level keys). The
 * site's own screens have many more strings that no widget shows; the bundle carries only
 * these. The build fails if a module in the bundle names a key of any other namespace, so a
 * widget that starts using one cannot ship without its strings.
 */
export const widgetNamespaces = [
  'widget',
  'errors',
  'auth',
  'profile',
  'follow',
  'posts',
  'share',
  'price',
  'time',
  'wallet',
  'tip',
  'giftNames',
  // <fanstage-chat>: the chat, its connection notices, and what a message may open (unlock,
  // subscribe, top-up, prices, upload errors).
  'chat',
  'realtime',
  'unlock',
  'subscription',
  'priceDetail',
  'upload',
  // <fanstage-call>: the call button, the call window and its top-up.
  'calls',
  // Every widget's dialogs (lib/ui/dialog): the close button's name.
  'dialog',
] as const;

const localeFile = /[\\/]lib[\\/]i18n[\\/]locales[\\/](en|cs)\.json$/;

function widgetTranslationsOnly(): Plugin {
  const keep = new Set<string>(widgetNamespaces);
  let all = new Set<string>();
  return {
    name: 'fanstage:widget-translations',
    enforce: 'pre',
    load(id) {
      if (!localeFile.test(id)) return null;
      const resources = JSON.parse(readFileSync(id, 'utf8')) as Record<string, unknown>;
      all = new Set([...all, ...Object.keys(resources)]);
      return JSON.stringify(Object.fromEntries(Object.entries(resources).filter(([namespace]) => keep.has(namespace))));
    },
    generateBundle() {
      // Every string that looks like a translation key (`ns.key`, `ns.${...}`) in our own modules.
      const missing = new Map<string, string>();
      for (const id of this.getModuleIds()) {
        if (id.includes('node_modules') || id.endsWith('.json') || id.includes('.css')) continue;
        // Comments mention file names and keys in prose; only code counts.
        const code = (this.getModuleInfo(id)?.code ?? '').replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|\s)\/\/[^\n]*/g, '$1');
        for (const match of code.matchAll(/[`'"]([A-Za-z][\w-]*)\.(?:[\w-]|\$\{)/g)) {
          const namespace = match[1] as string;
          if (all.has(namespace) && !keep.has(namespace) && !missing.has(namespace)) missing.set(namespace, id);
        }
      }
      if (missing.size > 0) {
        const list = [...missing].map(([namespace, id]) => `${namespace} (${id})`).join(', ');
        this.error(`Widgets use translation namespaces the bundle leaves out: ${list}. Add them to widgetNamespaces in vite.embed.config.ts.`);
      }
    },
  };
}

/**
 * The script-tag bundle: every element with React inside, one classic script. A classic
 * script (IIFE) rather than an ES module, because a partner page loads it from our origin and
 * module scripts would need CORS headers on every host that serves it.
 */
export default defineConfig({
  plugins: [widgetTranslationsOnly(), react(), dropExtractedCss(), precompress()],
  define: {
    __FANSTAGE_VERSION__: JSON.stringify(pkg.version),
    // Library mode leaves `process.env.NODE_ENV` alone; React must see production here.
    'process.env.NODE_ENV': JSON.stringify('production'),
  },
  css: { modules: { generateScopedName: scopedClassName } },
  build: {
    outDir: here('dist/embed'),
    emptyOutDir: true,
    sourcemap: true,
    minify: true,
    target: 'es2020',
    lib: {
      entry: here('elements/embed.ts'),
      name: 'FanstageElements',
      formats: ['iife'],
      fileName: () => 'fanstage-elements.js',
    },
  },
});
