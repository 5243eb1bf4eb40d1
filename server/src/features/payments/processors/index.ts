import { sandboxesRun, type Config } from '../../../config';
import type { AppContext } from '../../../context';
import { AppError } from '../../../errors';
import { createSandboxProcessor, SANDBOX } from './sandbox';
import type { CardProcessor } from './types';

export type { CardProcessor } from './types';

/**
 * The names of the processors a server of this configuration charges through, as
 * `createProcessors` builds them; the start-up checks read it before anything is built
 * (production-checks.ts). A real processor adds its name here when its settings are set.
 */
export function cardProcessorNames(config: Pick<Config, 'nodeEnv' | 'staging'>): string[] {
  return sandboxesRun(config) ? [SANDBOX] : [];
}

/**
 * The processors this server charges through, by name. The sandbox, whose test card pays, runs
 * only where play money is allowed (sandboxesRun); a real processor joins the map when its
 * settings are configured (docs/payments.md).
 */
export function createProcessors(ctx: AppContext) {
  const names = cardProcessorNames(ctx.config);
  const sandbox = names.includes(SANDBOX) ? createSandboxProcessor({ publicUrl: () => ctx.config.publicUrl, jwtSecret: ctx.config.jwtSecret }) : null;
  const all = new Map<string, CardProcessor>(sandbox === null ? [] : [[sandbox.name, sandbox]]);
  return {
    /** The sandbox, when it runs (its card pages need its keys). */
    sandbox,
    all: (): CardProcessor[] => [...all.values()],
    get(name: string): CardProcessor {
      const processor = all.get(name);
      if (!processor) throw new AppError('processor-unknown');
      return processor;
    },
    default(): CardProcessor {
      const first = all.values().next().value;
      if (first === undefined) throw new AppError('processor-unknown');
      return first;
    },
  };
}

export type Processors = ReturnType<typeof createProcessors>;
