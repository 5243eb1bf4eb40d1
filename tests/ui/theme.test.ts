import { describe, expect, it } from 'vitest';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

// A string, not a URL object: under jsdom `URL` is jsdom's, which Node's fileURLToPath rejects.
const repo = join(fileURLToPath(import.meta.url), '../../..');
const tokens = readFileSync(join(repo, 'lib/ui/theme/tokens.css'), 'utf8');
const docs = readFileSync(join(repo, 'docs/theming.md'), 'utf8');

/** `--_fs-x: var(--fs-x, default);` → { private, public, default }. */
const resolved = [...tokens.matchAll(/(--_fs-[\w-]+):\s*var\((--fs-[\w-]+),\s*(.+?)\);/g)].map((m) => ({
  private: m[1] as string,
  public: m[2] as string,
  fallback: (m[3] as string).trim(),
}));

function moduleCssFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return moduleCssFiles(path);
    return entry.name.endsWith('.module.css') ? [path] : [];
  });
}

describe('the theme tokens', () => {
  it('resolve every public property into a private one of the same name', () => {
    expect(resolved.length).toBeGreaterThan(15);
    for (const token of resolved) expect(token.private).toBe(token.public.replace('--fs-', '--_fs-'));
  });

  it('are all documented in docs/theming.md, with their defaults', () => {
    const rows = new Map([...docs.matchAll(/^\| `(--fs-[\w-]+)` \| (.+?) \|/gm)].map((m) => [m[1] as string, m[2] as string]));
    for (const token of resolved) {
      const row = rows.get(token.public);
      expect(row, `${token.public} is missing from docs/theming.md`).toBeDefined();
      // A literal default must appear as written; one that defers to another token says so in words.
      if (!token.fallback.startsWith('var(')) expect(row, token.public).toContain(token.fallback.replace(/"/g, "'"));
    }
    const documented = [...rows.keys()];
    expect(documented.filter((name) => !resolved.some((token) => token.public === name))).toEqual([]);
  });

  it('are the only values components read: no public or undefined properties in component styles', () => {
    const defined = new Set(resolved.map((token) => token.private));
    const files = moduleCssFiles(join(repo, 'lib/ui'));
    expect(files.length).toBeGreaterThan(0);
    for (const file of files) {
      const css = readFileSync(file, 'utf8');
      for (const [, name] of css.matchAll(/var\((--[\w-]+)/g)) {
        expect(defined.has(name as string), `${file} reads ${name}`).toBe(true);
      }
    }
  });
});
