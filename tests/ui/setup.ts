import '@testing-library/jest-dom/vitest';
import { cleanup, configure } from '@testing-library/react';
import { afterEach } from 'vitest';
import { loadLanguage } from '../../lib/i18n';

// jsdom has no canvas and logs "Not implemented" whenever axe probes one for icon fonts; axe
// copes with a missing 2D context, so answer as a browser without canvas support would.
HTMLCanvasElement.prototype.getContext = () => null;

// These tests talk to a real server; on a busy machine an answer can take more than the
// default second. `findBy…` waits up to five before it calls the element missing.
configure({ asyncUtilTimeout: 5000 });

// Under this jsdom environment, Node's fetch (undici) now and then never finishes a compressed
// answer these tests ask for (seen with the settings once they grew past the compression
// threshold: they never reached the component, and the server could not close) — never with
// Node's fetch outside jsdom, nor in Chromium. The components read the same JSON either way,
// so their requests ask for it uncompressed; compression itself is tested on the server
// (tests/server/compression.test.ts) and in Chromium (tests/e2e).
const nodeFetch = globalThis.fetch;
globalThis.fetch = (input, init) => {
  const headers = new Headers(init?.headers ?? (input instanceof Request ? input.headers : undefined));
  if (!headers.has('accept-encoding')) headers.set('accept-encoding', 'identity');
  return nodeFetch(input, { ...init, headers });
};

// Czech is a chunk of its own in the browser; the tests render both languages synchronously.
await loadLanguage('cs');

// Vitest runs without globals here, so Testing Library cannot register its own cleanup.
afterEach(() => {
  cleanup();
});
