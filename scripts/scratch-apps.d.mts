/** Types of scripts/scratch-apps.mjs, for the package suite. */
export const scratchDependencies: string[];
export const npmCache: string;
export function warmScratchCache(): Promise<boolean>;
