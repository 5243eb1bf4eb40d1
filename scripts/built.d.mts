/** Types of scripts/built.mjs, for the tests that ask whether dist/ is fresh. */
export interface Part {
  out: string;
  script: string;
  sources: string[];
}
export const root: string;
export const parts: Part[];
export function staleParts(only?: Part[]): Part[];
