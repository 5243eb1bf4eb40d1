import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

/**
 * The boundaries eslint.config.js draws: the server depends on lib/contract alone (no SDK, no
 * components, no React), and browser code takes only types from the contract's TypeBox files,
 * the websocket's schemas among them.
 */
const eslint = new ESLint({ cwd: process.cwd() });

async function restricted(code: string, filePath: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath });
  return result!.messages.filter((m) => m.ruleId?.endsWith('no-restricted-imports')).map((m) => m.message);
}

// The first lint loads the configuration and its plugins: seconds on a busy machine.
describe('lint boundaries', { timeout: 60_000 }, () => {
  it('fails a server import of the SDK, the components or React', async () => {
    const file = 'server/src/features/posts/probe.ts';
    for (const source of ['../../../../lib/sdk/rules/price', '../../../../lib/sdk', '../../../../lib/ui/Avatar/Avatar', 'react', 'react-dom/server', '@preact/signals-react']) {
      expect(await restricted(`import { x } from '${source}';\nexport const y = x;\n`, file), source).toHaveLength(1);
      expect(await restricted(`import type { X } from '${source}';\nexport type Y = X;\n`, file), source).toHaveLength(1);
    }
  });

  it('passes a server import of the contract and its rules', async () => {
    const code = [
      "import { fanPriceCents } from '../../../../lib/contract/rules/price';",
      "import { CloseCodes } from '../../../../lib/contract/realtime';",
      "import { ClientMessageSchemas } from '../../../../lib/contract/socket';",
      'export const all = [fanPriceCents, CloseCodes, ClientMessageSchemas];',
      '',
    ].join('\n');
    expect(await restricted(code, 'server/src/features/posts/probe.ts')).toEqual([]);
  });

  it('lets browser code take values from the plain contract files and only types from the socket schemas', async () => {
    const file = 'lib/sdk/probe.ts';
    const plain = "import { CloseCodes } from '../contract/realtime';\nimport { minutesBegun } from '../contract/rules/calls';\nexport const all = [CloseCodes, minutesBegun];\n";
    expect(await restricted(plain, file)).toEqual([]);
    expect(await restricted("import type { CheckedClientMessage } from '../contract/socket';\nexport type M = CheckedClientMessage<'ping'>;\n", file)).toEqual([]);
    expect(await restricted("import { ClientMessageSchemas } from '../contract/socket';\nexport const s = ClientMessageSchemas;\n", file)).toHaveLength(1);
  });
});
