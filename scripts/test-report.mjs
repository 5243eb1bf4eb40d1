#!/usr/bin/env node
// Where a test run's time went: the time of each step (.ci/run's and npm test's), then for each
// runner the number of files, tests and `expect` calls and its slowest files, from the reports
// in .tmp/reports/ (tests/support/timings-reporter.ts for Vitest, Playwright's JSON reporter).
// Also counts the `expect` calls written in each suite's files, so a change that moves or merges
// tests shows what it asserts before and after.
//
//   node scripts/test-report.mjs [--slowest N]
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { root } from './built.mjs';

const reports = join(root, '.tmp/reports');
const slowestIndex = process.argv.indexOf('--slowest');
const slowest = slowestIndex > 0 ? Number(process.argv[slowestIndex + 1]) : 30;

const read = (file) => JSON.parse(readFileSync(join(reports, file), 'utf8'));
const seconds = (ms) => (ms / 1000).toFixed(1).padStart(7);

function printSteps(title, steps) {
  console.log(`\n${title}`);
  const total = steps.reduce((sum, step) => sum + step.seconds, 0);
  // `cpu`: how busy the machine's cores were during the step (/proc/stat), where known. A step
  // well below 100 % waits on something (a download, a timer, another process) and leaves room.
  for (const step of steps) console.log(`${String(step.seconds).padStart(6)} s  ${step.cpu === undefined ? '' : `${String(step.cpu).padStart(3)} % CPU  `}${step.step}`);
  console.log(`${String(total).padStart(6)} s  in all`);
}

/** Playwright's JSON report as per-file timings: tests, their time, and how many failed. */
function playwrightFiles(report) {
  const files = new Map();
  const walk = (suite, file) => {
    const here = suite.file ?? file;
    for (const spec of suite.specs ?? []) {
      const entry = files.get(here) ?? { file: join('tests/e2e', here), ms: 0, tests: 0, skipped: 0, failed: 0 };
      for (const test of spec.tests) {
        const results = test.results ?? [];
        if (test.status === 'skipped' || results.length === 0) entry.skipped += 1;
        else entry.tests += 1;
        if (test.status === 'unexpected' || test.status === 'flaky') entry.failed += 1;
        for (const result of results) entry.ms += result.duration;
      }
      files.set(here, entry);
    }
    for (const child of suite.suites ?? []) walk(child, here);
  };
  for (const suite of report.suites) walk(suite, suite.file);
  return [...files.values()];
}

function printRunner(title, files) {
  const sum = (key) => files.reduce((total, file) => total + (file[key] ?? 0), 0);
  const expects = files.some((file) => file.expects !== undefined) ? `, ${sum('expects')} expect calls run` : '';
  console.log(`\n${title}: ${files.length} files, ${sum('tests')} tests run, ${sum('skipped')} skipped, ${sum('failed')} failed${expects}; ${(sum('ms') / 1000).toFixed(0)} s of file time`);
  for (const file of [...files].sort((a, b) => b.ms - a.ms).slice(0, slowest)) {
    console.log(`${seconds(file.ms)} s  ${String(file.tests).padStart(4)} tests  ${file.failed ? 'FAILED ' : ''}${file.file}`);
  }
}

/** `expect` calls as written in each suite's files (helpers beside them included). */
function writtenExpects() {
  const suites = ['unit', 'ui', 'server', 'package', 'e2e', 'support'];
  const counts = [];
  for (const suite of suites) {
    const dir = join(root, 'tests', suite);
    if (!existsSync(dir)) continue;
    let count = 0;
    let tests = 0;
    const walk = (path) => {
      for (const entry of readdirSync(path, { withFileTypes: true })) {
        const full = join(path, entry.name);
        if (entry.isDirectory()) walk(full);
        else if (/\.(ts|tsx)$/.test(entry.name)) {
          const text = readFileSync(full, 'utf8');
          count += (text.match(/\bexpect(\.soft|\.poll)?\(/g) ?? []).length;
          tests += (text.match(/^\s*(it|test)(\.each\([^)]*\))?\(/gm) ?? []).length;
        }
      }
    };
    walk(dir);
    counts.push(`${relative(root, dir)}: ${count} expect calls in ${tests} test blocks`);
  }
  console.log(`\nAs written\n${counts.map((line) => `  ${line}`).join('\n')}`);
}

if (!existsSync(reports)) {
  console.log('No reports in .tmp/reports yet: run npm test first.');
  process.exit(0);
}
if (existsSync(join(reports, 'ci-steps.json'))) printSteps('.ci/run, step by step', read('ci-steps.json'));
if (existsSync(join(reports, 'test-steps.json'))) printSteps('npm test, step by step', read('test-steps.json'));
for (const file of readdirSync(reports).sort()) {
  if (file.endsWith('.vitest.json')) printRunner(`Vitest ${file.replace('.vitest.json', '')}`, read(file).files);
  if (file.endsWith('.playwright.json')) printRunner(`Playwright ${file.replace('.playwright.json', '')}`, playwrightFiles(read(file)));
}
writtenExpects();
