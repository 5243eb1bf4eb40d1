import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { fileURLToPath } from 'node:url';
import { precompress } from '../vite.precompress';
import { firstLoadStrings, sharedConfig } from './vite.config';

/**
 * The widgets' sign-in popup, served at /embed/login: a page of its own, without the site's
 * shell, built after the site into the same directory (it empties nothing). Built apart from
 * the site so that what it uses at once (the account forms, the whole SDK) does not join the
 * site's first load; it shares no file with the site, and is opened from partners' pages.
 */
export default defineConfig({
  ...sharedConfig,
  plugins: [react(), firstLoadStrings(), precompress()],
  build: {
    outDir: fileURLToPath(new URL('../dist/web', import.meta.url)),
    emptyOutDir: false,
    sourcemap: true,
    rollupOptions: {
      input: { 'embed-login': fileURLToPath(new URL('embed-login.html', import.meta.url)) },
    },
  },
});
