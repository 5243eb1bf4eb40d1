/** The package version, replaced at build time (Vite `define`) and in tests (vitest.config.ts). */
declare const __FANSTAGE_VERSION__: string;
