import { defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';
import { fileURLToPath } from 'node:url';
import { basename } from 'node:path';
import { readFileSync } from 'node:fs';
import pkg from './package.json' with { type: 'json' };
import { precompress } from './vite.precompress';
import { shadowPixels } from './vite.shadow-css';

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
 * The strings the script tag's React-free first views show (elements/script/lite.ts), by
 * language, picked from lib/i18n/locales at build time (with their plural forms, `key_one`…):
 * importing a locale file would bring every widget string along. One set per first view
 * (`__FANSTAGE_LITE_WORDS_FEED__`…), so a page with a tip button carries none of the feed's.
 */
export const liteWordKeys = {
  TIP: ['tip.button', 'tip.buttonName'],
  CHAT: ['chat.widget.signIn', 'chat.widget.signInAnonymous'],
  WALLET: ['wallet.signIn'],
  CALL: ['calls.button', 'calls.buttonFree', 'calls.buttonName'],
  CARD: [
    'follow.follow',
    'price.free',
    'profile.loading',
    'profile.avatarOf',
    'profile.open',
    'profile.verified',
    'profile.online',
    'profile.stats',
    'profile.followersLabel',
    'profile.postsLabel',
    'profile.prices',
    'profile.messagePrice',
    'profile.messageFree',
    'profile.callPrice',
    'profile.callFree',
  ],
  FEED: [
    'follow.follow',
    'price.free',
    'posts.feed.loading',
    'posts.feed.label.profile',
    'posts.stats',
    'posts.actions',
    'posts.like',
    'posts.comment',
    'posts.share',
    'posts.likesCount',
    'posts.commentsCount',
    'posts.giftsCount',
    'posts.photoBy',
    'posts.videoBy',
    'posts.mediaOf',
    'posts.openMedia',
    'posts.lockedMedia',
    'posts.lockedPrice',
    'time.justNow',
    'time.minutes',
    'time.hours',
  ],
} as const;

const pluralSuffixes = ['zero', 'one', 'two', 'few', 'many', 'other'];

function liteWords(keys: readonly string[]): Record<string, Record<string, string>> {
  const words: Record<string, Record<string, string>> = {};
  for (const language of ['en', 'cs']) {
    const resources = JSON.parse(readFileSync(here(`lib/i18n/locales/${language}.json`), 'utf8')) as Record<string, unknown>;
    const lookup = (key: string) => key.split('.').reduce<unknown>((node, part) => (node as Record<string, unknown> | undefined)?.[part], resources);
    const picked: Record<string, string> = {};
    for (const key of keys) {
      for (const variant of [key, ...pluralSuffixes.map((suffix) => `${key}_${suffix}`)]) {
        const value = lookup(variant);
        if (typeof value === 'string') picked[variant] = value;
      }
      if (!Object.keys(picked).some((name) => name === key || name.startsWith(`${key}_`))) throw new Error(`lib/i18n/locales/${language}.json has no string ${key}`);
    }
    words[language] = picked;
  }
  return words;
}

/** The script tag's entries: the runtime, and one chunk per element (elements/script/). */
export const embedEntries = {
  runtime: 'elements/embed.ts',
  'profile-card': 'elements/script/profile-card.ts',
  feed: 'elements/script/feed.ts',
  wallet: 'elements/script/wallet.ts',
  'tip-button': 'elements/script/tip-button.ts',
  chat: 'elements/script/chat.ts',
  call: 'elements/script/call.ts',
} as const;

/**
 * The script tag's chunks: ES modules, split so a page downloads only what its elements need.
 * Each element is an entry (its `define` kept for the loader); what several share (React, the
 * SDK, i18n, the theme) goes into shared chunks, fetched once whatever the number of elements;
 * lazy parts (the tip dialog, simple-peer, the media viewer) are chunks of their own. Every
 * file is named by its content's hash under `assets/`, so the platform serves it `immutable`
 * (server/src/features/static/domain.ts). The loader (vite.loader.config.ts, built next) reads
 * the manifest to learn which files each element needs. Module scripts from another origin
 * need CORS: the platform sends `Access-Control-Allow-Origin: *` for /embed/.
 */
export default defineConfig({
  plugins: [widgetTranslationsOnly(), shadowPixels(), react(), dropExtractedCss(), precompress()],
  define: {
    __FANSTAGE_VERSION__: JSON.stringify(pkg.version),
    'process.env.NODE_ENV': JSON.stringify('production'),
    ...Object.fromEntries(Object.entries(liteWordKeys).map(([group, keys]) => [`__FANSTAGE_LITE_WORDS_${group}__`, JSON.stringify(liteWords(keys))])),
  },
  // Chunks find each other (and their preloads) relative to their own address, on any page.
  base: './',
  css: { modules: { generateScopedName: scopedClassName } },
  build: {
    outDir: here('dist/embed'),
    emptyOutDir: true,
    sourcemap: true,
    minify: true,
    target: 'es2020',
    manifest: true,
    // One stylesheet (dropped above), so no chunk asks the page for a <link> of its own.
    cssCodeSplit: false,
    modulePreload: { polyfill: false },
    rolldownOptions: {
      input: Object.fromEntries(Object.entries(embedEntries).map(([name, file]) => [name, here(file)])),
      preserveEntrySignatures: 'exports-only',
      output: {
        format: 'es',
        entryFileNames: 'assets/[name]-[hash].js',
        chunkFileNames: 'assets/[name]-[hash].js',
      },
    },
  },
});
