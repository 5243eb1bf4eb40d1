import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { fileURLToPath } from 'node:url';
import pkg from '../package.json' with { type: 'json' };
import { precompress } from '../vite.precompress';

const root = fileURLToPath(new URL('.', import.meta.url));
const apiServer = process.env.FANSTAGE_API ?? 'http://localhost:8080';

/** The reference site, served by the server at `/` with an SPA fallback to index.html. */
export default defineConfig({
  root,
  base: '/',
  plugins: [react(), precompress()],
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
