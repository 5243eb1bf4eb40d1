import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import dts from 'vite-plugin-dts';
import { fileURLToPath } from 'node:url';
import { existsSync } from 'node:fs';
import { basename, dirname, join, relative, resolve } from 'node:path';
import pkg from './package.json' with { type: 'json' };
import { shadowPixels } from './vite.shadow-css';

const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));

/**
 * CSS module class names are made from the file and the local name only (`fs-ProfileCard-name`).
 * Elements carry their CSS as inline text (`?inline`) next to the class mapping of the regular
 * import; both go through separate transforms, so the names must depend on nothing that differs
 * between the two (a hash of the query, the build, the bundle), or the shadow root's styles
 * would not match the markup. vite.embed.config.ts and vitest.config.ts use the same rule.
 */
function scopedClassName(name: string, filename: string): string {
  const file = filename.split('?')[0] ?? filename;
  return `fs-${basename(file).replace(/\.module\.css$/, '')}-${name}`;
}

/**
 * Everything the package needs at run time stays an import, resolved by the partner's
 * bundler: one React on their page, and dependency updates without a new release of ours.
 */
const external = [
  ...Object.keys(pkg.dependencies),
  ...Object.keys(pkg.peerDependencies),
];
const isExternal = (id: string) => external.some((name) => id === name || id.startsWith(`${name}/`));

const outDir = here('dist/lib');

/** The entries whose exports need a browser: components, hooks and custom elements. */
const clientEntries = new Set(['index', 'elements']);

/**
 * Declarations are emitted next to a copy of the source tree (dist/lib/lib/..., dist/lib/elements/...)
 * with the source's extensionless imports. A consumer on `moduleResolution: "node16"` or
 * `"nodenext"` cannot follow those inside an ES module package, and would see empty types,
 * so every relative specifier gets the `.js` (or `/index.js`) that resolves under any setting.
 */
function withExplicitExtensions(filePath: string, content: string): string {
  const sourceDir = resolve(here('.'), relative(outDir, dirname(filePath)));
  return withoutStyleImports(content).replace(/(\bfrom\s*|\bimport\s*\(\s*)(['"])(\.{1,2}(?:\/[^'"]*)?)\2/g, (match, lead: string, quote: string, specifier: string) => {
    if (/\.(m?js|json)$/.test(specifier)) return match;
    const target = resolve(sourceDir, specifier);
    if (['.ts', '.tsx', '.d.ts'].some((ext) => existsSync(target + ext))) return `${lead}${quote}${specifier}.js${quote}`;
    if (['index.ts', 'index.tsx'].some((file) => existsSync(join(target, file)))) return `${lead}${quote}${specifier}/index.js${quote}`;
    return match;
  });
}

/**
 * A declaration that kept a stylesheet's import (a CSS module's class map) would need a
 * declaration for `.css`, which only a bundler's types give: the class map becomes what it
 * is, a record of strings, and a plain stylesheet import goes.
 */
function withoutStyleImports(content: string): string {
  return content
    .replace(/^import\s*(?:\{\s*default\s+as\s+(\w+)\s*\}|(\w+))\s*from\s*['"][^'"]+\.css(?:\?[^'"]*)?['"];?$/gm, (_match, named?: string, plain?: string) => `declare const ${named ?? plain}: Readonly<Record<string, string>>;`)
    .replace(/^import\s*['"][^'"]+\.css(?:\?[^'"]*)?['"];?\n?/gm, '');
}

/** The npm library: `fanstage`, `fanstage/sdk`, `fanstage/elements` and `fanstage/style.css`. */
export default defineConfig({
  plugins: [
    // The elements' shadow-root styles in px (vite.shadow-css.ts); the components' stylesheet keeps rem.
    shadowPixels(),
    react(),
    dts({
      tsconfigPath: here('tsconfig.json'),
      include: ['lib', 'elements'],
      exclude: ['elements/embed.ts', 'elements/loader.ts', 'elements/script'],
      // One declaration file per entry, named like the entry's .js (package.json `exports`).
      insertTypesEntry: true,
      beforeWriteFile(filePath, content) {
        // The locales' types are inlined where they are used; their own files would only add weight.
        if (filePath.endsWith('.json.d.ts')) return false;
        return { content: withExplicitExtensions(filePath, content) };
      },
    }),
  ],
  define: { __FANSTAGE_VERSION__: JSON.stringify(pkg.version) },
  css: { modules: { generateScopedName: scopedClassName } },
  build: {
    outDir,
    emptyOutDir: true,
    sourcemap: true,
    // Readable JS for partners' debuggers; their bundlers minify it. The CSS, including the
    // text elements put in their shadow roots, is shipped small.
    minify: false,
    cssMinify: true,
    cssCodeSplit: false,
    lib: {
      entry: {
        index: here('lib/index.ts'),
        sdk: here('lib/sdk/index.ts'),
        elements: here('elements/index.ts'),
      },
      formats: ['es'],
      fileName: (_format, name) => `${name}.js`,
      cssFileName: 'fanstage',
    },
    rolldownOptions: {
      external: isExternal,
      output: {
        chunkFileNames: 'chunks/[name]-[hash].js',
        // React Server Components (Next.js App Router) must not run the components' module: it
        // reads React's client APIs (createContext) at the top. The directive on the entries a
        // page imports marks that boundary; a directive in a source file would not survive
        // bundling. `fanstage/sdk` stays without it, so a server component can call the API.
        banner: (chunk) => (chunk.isEntry && clientEntries.has(chunk.name) ? "'use client';" : ''),
      },
    },
  },
});
