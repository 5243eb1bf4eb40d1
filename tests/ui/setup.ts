import '@testing-library/jest-dom/vitest';
import { cleanup } from '@testing-library/react';
import { afterEach } from 'vitest';

// jsdom has no canvas and logs "Not implemented" whenever axe probes one for icon fonts; axe
// copes with a missing 2D context, so answer as a browser without canvas support would.
HTMLCanvasElement.prototype.getContext = () => null;

// Vitest runs without globals here, so Testing Library cannot register its own cleanup.
afterEach(() => {
  cleanup();
});
