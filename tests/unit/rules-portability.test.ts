import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const entry = fileURLToPath(new URL('../../lib/sdk/rules/index.ts', import.meta.url));

describe('the SDK rules', () => {
  it('type-check with nothing but the ECMAScript library, so the server can charge with them', () => {
    // No DOM and no Node types: a rule that reached for window, document or Buffer fails here.
    const program = ts.createProgram([entry], {
      target: ts.ScriptTarget.ES2022,
      module: ts.ModuleKind.ESNext,
      moduleResolution: ts.ModuleResolutionKind.Bundler,
      lib: ['lib.es2023.d.ts'],
      types: [],
      strict: true,
      noUncheckedIndexedAccess: true,
      noEmit: true,
    });
    const problems = ts.getPreEmitDiagnostics(program).map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'));
    expect(problems).toEqual([]);
  }, 30_000);
});
