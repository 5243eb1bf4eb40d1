import type { AppContext } from '../../../context';
import { AppError } from '../../../errors';
import { createSandboxProcessor } from './sandbox';
import type { CardProcessor } from './types';

export type { CardProcessor } from './types';

/**
 * The processors this server charges through, by name. The sandbox is always there; a real
 * processor joins the map when its settings are configured (docs/payments.md).
 */
export function createProcessors(ctx: AppContext) {
  const sandbox = createSandboxProcessor({ publicUrl: () => ctx.config.publicUrl, jwtSecret: ctx.config.jwtSecret });
  const all = new Map<string, CardProcessor>([[sandbox.name, sandbox]]);
  return {
    sandbox,
    all: (): CardProcessor[] => [...all.values()],
    get(name: string): CardProcessor {
      const processor = all.get(name);
      if (!processor) throw new AppError('processor-unknown');
      return processor;
    },
    default: (): CardProcessor => sandbox,
  };
}

export type Processors = ReturnType<typeof createProcessors>;
