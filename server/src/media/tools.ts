import { spawnSync } from 'node:child_process';
import { accessSync, chmodSync, constants, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

/**
 * Which ffmpeg and ffprobe the media pipeline runs. Both parse untrusted uploads, so the
 * newest build at hand wins: the one named by FFMPEG_PATH / FFPROBE_PATH, else the one on
 * the PATH (a distribution's package, patched with the system), and only then the binaries
 * of the npm packages (@ffmpeg-installer is a 2018 build), so `npm start` still works on a
 * machine with no ffmpeg installed. Each candidate must answer `-version` before it is used.
 */

export type MediaToolName = 'ffmpeg' | 'ffprobe';

export interface MediaTool {
  name: MediaToolName;
  /** The binary that answered `-version`, or null when none did. */
  path: string | null;
  /** Where it came from. */
  source: 'env' | 'PATH' | 'npm' | null;
  /** The first line of its `-version`, e.g. `ffmpeg version 5.1.6-0+deb12u1`. */
  version: string | null;
  /** Why each candidate before it (or every candidate) was passed over. */
  problems: string[];
}

const envVar: Record<MediaToolName, 'FFMPEG_PATH' | 'FFPROBE_PATH'> = { ffmpeg: 'FFMPEG_PATH', ffprobe: 'FFPROBE_PATH' };
const npmPackage: Record<MediaToolName, string> = { ffmpeg: '@ffmpeg-installer/ffmpeg', ffprobe: '@ffprobe-installer/ffprobe' };

/** The full path of `name` in the PATH, as the shell would find it. */
function onPath(name: string, envPath: string | undefined): string | null {
  for (const dir of (envPath ?? '').split(path.delimiter)) {
    if (dir === '') continue;
    const candidate = path.join(dir, name);
    try {
      if (statSync(candidate).isFile()) {
        accessSync(candidate, constants.X_OK);
        return candidate;
      }
    } catch {
      // Not here, or not executable: keep looking, as the shell does.
    }
  }
  return null;
}

/** The npm package's binary, or why there is none (the platform package may be missing). */
function npmBinary(name: MediaToolName): { path: string } | { problem: string } {
  try {
    const require = createRequire(import.meta.url);
    return { path: (require(npmPackage[name]) as { path: string }).path };
  } catch (error) {
    return { problem: `${npmPackage[name]}: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}` };
  }
}

/** The first line of `binary -version`, or why it did not answer. */
function versionOf(binary: string, name: MediaToolName): { version: string } | { problem: string } {
  const result = spawnSync(binary, ['-version'], { timeout: 10_000, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  if (result.error) return { problem: `${binary}: ${(result.error as NodeJS.ErrnoException).code ?? result.error.message}` };
  const first = result.stdout.split('\n', 1)[0]?.trim() ?? '';
  if (result.status !== 0 || !first.startsWith(`${name} version`)) return { problem: `${binary}: -version answered ${result.status ?? result.signal} "${first}"` };
  return { version: first };
}

/**
 * npm skips dependencies' install scripts unless they are approved, and the installers'
 * only script marks the binary executable: a copy left without it gets the bit here.
 */
function makeExecutable(binary: string): string | null {
  try {
    accessSync(binary, constants.X_OK);
    return null;
  } catch {
    try {
      chmodSync(binary, statSync(binary).mode | 0o100);
      return null;
    } catch (error) {
      return `${binary} is not executable and could not be made so (${(error as NodeJS.ErrnoException).code ?? String(error)}); run chmod u+x on it`;
    }
  }
}

/**
 * The binary to use for `name`. `npmFallback` stands in for the npm package's binary (tests
 * give a copy, so the real one in node_modules is never changed).
 */
export function resolveMediaTool(name: MediaToolName, env: NodeJS.ProcessEnv = process.env, npmFallback?: string): MediaTool {
  const problems: string[] = [];
  const chosen = (binary: string, source: MediaTool['source']): MediaTool | null => {
    const answer = versionOf(binary, name);
    if ('problem' in answer) {
      problems.push(answer.problem);
      return null;
    }
    return { name, path: binary, source, version: answer.version, problems };
  };

  const configured = env[envVar[name]]?.trim();
  if (configured) {
    // An operator's explicit choice is not second-guessed: if it does not run, that is the
    // error to fix, not a reason to run an older binary behind their back.
    return chosen(configured, 'env') ?? { name, path: null, source: null, version: null, problems };
  }
  const system = onPath(name, env.PATH);
  if (system !== null) {
    const tool = chosen(system, 'PATH');
    if (tool) return tool;
  } else {
    problems.push(`no ${name} on the PATH`);
  }
  const bundled = npmFallback === undefined ? npmBinary(name) : { path: npmFallback };
  if ('problem' in bundled) {
    problems.push(bundled.problem);
  } else {
    const problem = makeExecutable(bundled.path);
    if (problem !== null) problems.push(problem);
    else {
      const tool = chosen(bundled.path, 'npm');
      if (tool) return tool;
    }
  }
  return { name, path: null, source: null, version: null, problems };
}

let resolved: { key: string; tools: Record<MediaToolName, MediaTool> } | undefined;

/**
 * Both tools, looked up once per process and configuration (the first call runs each
 * candidate's `-version`; a changed FFMPEG_PATH, FFPROBE_PATH or PATH looks again).
 */
export function mediaTools(): Record<MediaToolName, MediaTool> {
  const key = [process.env.FFMPEG_PATH, process.env.FFPROBE_PATH, process.env.PATH].join('\0');
  if (resolved?.key !== key) resolved = { key, tools: { ffmpeg: resolveMediaTool('ffmpeg'), ffprobe: resolveMediaTool('ffprobe') } };
  return resolved.tools;
}

export interface ToolReport {
  level: 'info' | 'warn' | 'error';
  message: string;
}

/** What the server says at start about a tool: which binary, or what to do when none runs. */
export function describeMediaTool(tool: MediaTool): ToolReport {
  const variable = envVar[tool.name];
  if (tool.path === null) {
    return {
      level: 'error',
      message:
        `No working ${tool.name} (${tool.problems.join('; ')}). Videos and voice notes are refused until one runs: ` +
        `install ffmpeg (Debian/Ubuntu: apt-get install ffmpeg; macOS: brew install ffmpeg) or set ${variable} to a working binary, then restart. Pictures are not affected.`,
    };
  }
  const from = tool.source === 'env' ? variable : tool.source === 'PATH' ? 'the PATH' : `the npm package ${npmPackage[tool.name]}`;
  if (tool.source === 'npm') {
    return {
      level: 'warn',
      message:
        `${tool.name}: ${tool.path} (${tool.version}, from ${from}). This bundled build is old and parses untrusted uploads: ` +
        `install a maintained ffmpeg (apt-get install ffmpeg) or set ${variable}.`,
    };
  }
  return { level: 'info', message: `${tool.name}: ${tool.path} (${tool.version}, from ${from})` };
}
