import { defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';
import { fileURLToPath } from 'node:url';
import pkg from '../package.json' with { type: 'json' };
import { precompress } from '../vite.precompress';
import { reservedCss } from '../elements/reserved';

const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));
const apiServer = process.env.FANSTAGE_API ?? 'http://localhost:8080';

/**
 * The script-tag page keeps its widgets' boxes from its first paint, as docs/embedding.md asks
 * of a partner page ("Keep your page still"): the loader's rules, in the page itself, under the
 * id the loader looks for. Without them the page paints before the loader arrives and moves
 * when it does.
 */
function reservedBoxes(): Plugin {
  return {
    name: 'fanstage:reserved-boxes',
    transformIndexHtml(html, ctx) {
      if (!ctx.filename.endsWith('index.html')) return html;
      return { html, tags: [{ tag: 'style', attrs: { id: 'fanstage-reserved' }, children: reservedCss, injectTo: 'head-prepend' }] };
    },
  };
}

/**
 * The partner demo, served by the server at `/demo/`: a plain HTML page using the script tag,
 * and a React page importing `fanstage` the way an app that installed the package does. The
 * aliases point those imports at the library's source, so the demo always shows this tree.
 */
export default defineConfig({
  root: here('.'),
  base: '/demo/',
  plugins: [react(), reservedBoxes(), precompress()],
  define: { __FANSTAGE_VERSION__: JSON.stringify(pkg.version) },
  resolve: {
    alias: [
      { find: /^fanstage\/sdk$/, replacement: here('../lib/sdk/index.ts') },
      { find: /^fanstage$/, replacement: here('../lib/index.ts') },
    ],
  },
  build: {
    outDir: here('../dist/demo'),
    emptyOutDir: true,
    rollupOptions: {
      input: {
        index: here('index.html'),
        react: here('react.html'),
      },
    },
  },
  server: {
    proxy: {
      '/papi': apiServer,
      '/api': apiServer,
      '/media': apiServer,
      '/embed': apiServer,
    },
  },
});
