/**
 * Records how many `expect` calls each test made, for the timing report's census
 * (tests/support/timings-reporter.ts): a suite that moves or merges tests can show it asserts
 * no less than before.
 */
import { afterEach, expect } from 'vitest';

declare module 'vitest' {
  interface TaskMeta {
    expects?: number;
  }
}

afterEach((context) => {
  context.task.meta.expects = expect.getState().assertionCalls;
});
