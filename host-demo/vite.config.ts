import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { fileURLToPath } from 'node:url';
import pkg from '../package.json' with { type: 'json' };
import { precompress } from '../vite.precompress';

const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));
const apiServer = process.env.FANSTAGE_API ?? 'http://localhost:8080';

/**
 * The partner demo, served by the server at `/demo/`: a plain HTML page using the script tag,
 * and a React page importing `fanstage` the way an app that installed the package does. The
 * aliases point those imports at the library's source, so the demo always shows this tree.
 */
export default defineConfig({
  root: here('.'),
  base: '/demo/',
  plugins: [react(), precompress()],
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
