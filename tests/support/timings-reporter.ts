/**
 * A Vitest reporter that writes, for every test file, how long it took from start to end
 * (environment, imports, hooks and tests), how many tests it ran and how many `expect` calls
 * they made (tests/support/count-expects.ts), to the JSON file named by FANSTAGE_TIMINGS.
 * scripts/test-report.mjs prints the slowest files of each runner from it.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Reporter, TestModule } from 'vitest/node';

export interface FileTiming {
  file: string;
  project: string;
  ms: number;
  tests: number;
  skipped: number;
  failed: number;
  expects: number;
}

export default class TimingsReporter implements Reporter {
  private readonly files: FileTiming[] = [];

  onTestModuleEnd(module: TestModule): void {
    const diagnostic = module.diagnostic();
    let tests = 0;
    let skipped = 0;
    let failed = 0;
    let expects = 0;
    for (const test of module.children.allTests()) {
      const state = test.result().state;
      if (state === 'skipped' || state === 'pending') skipped += 1;
      else tests += 1;
      if (state === 'failed') failed += 1;
      expects += test.meta().expects ?? 0;
    }
    this.files.push({
      file: path.relative(process.cwd(), module.moduleId),
      project: module.project.name,
      ms: Math.round(diagnostic.environmentSetupDuration + diagnostic.prepareDuration + diagnostic.collectDuration + diagnostic.setupDuration + diagnostic.duration),
      tests,
      skipped,
      failed,
      expects,
    });
  }

  onTestRunEnd(): void {
    const out = process.env.FANSTAGE_TIMINGS;
    if (!out) return;
    mkdirSync(path.dirname(out), { recursive: true });
    writeFileSync(out, JSON.stringify({ runner: 'vitest', files: this.files }, null, 1));
  }
}
