import type { Plugin } from 'vite';

/** What `1rem` is inside a widget's shadow root: the browsers' default root size. */
export const shadowRemPx = 16;

/**
 * The styles a widget puts in its shadow root (`*.css?inline`, imported by elements/ only) in
 * pixels instead of `rem`: `rem` is the host page's root font size, and a page with
 * `html { font-size: 62.5% }` (many WordPress and Bootstrap 3 themes) would shrink every widget
 * to 10 px text. The components' own stylesheets, used by React apps (`fanstage/style.css`),
 * keep `rem` and follow their app's root. `em` units follow the widget's own font size, which
 * tokens.css sets on `:host` and `.fs-root`.
 */
export function remToPx(css: string): string {
  // Comments and strings keep their text; only numbers with a `rem` unit change.
  return css.replace(/(\/\*[\s\S]*?\*\/|"[^"]*"|'[^']*')|(-?(?:\d+\.?\d*|\.\d+))rem\b/g, (match, kept: string | undefined, value: string | undefined) => {
    if (kept !== undefined || value === undefined) return match;
    const px = Math.round(Number(value) * shadowRemPx * 1000) / 1000;
    return `${px}px`;
  });
}

export function shadowPixels(): Plugin {
  return {
    name: 'fanstage:shadow-css-pixels',
    enforce: 'pre',
    transform(code, id) {
      if (!/\.css\?(?:.*&)?inline\b/.test(id)) return null;
      return { code: remToPx(code), map: null };
    },
  };
}
