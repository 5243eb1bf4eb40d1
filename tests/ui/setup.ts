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

// Czech is a chunk of its own in the browser; the tests render both languages synchronously.
await loadLanguage('cs');

// Vitest runs without globals here, so Testing Library cannot register its own cleanup.
afterEach(() => {
  cleanup();
});
