import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFile } from 'node:child_process';
import { chmod, copyFile, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import sharp from 'sharp';
import { describeMediaTool, resolveMediaTool } from '../../server/src/media/tools';
import type { TestServer } from '../support/server';
import type { TestAccount } from '../support/accounts';

const run = promisify(execFile);
const npmFfmpeg = (createRequire(import.meta.url)('@ffmpeg-installer/ffmpeg') as { path: string }).path;
/** CI and the development machines have the distribution's ffmpeg (docs/server.md, Media tools). */
const systemPath = '/usr/local/bin:/usr/bin:/bin';

let scratch: string;
/** An executable that is no ffmpeg: a shell script that fails, as a broken install would. */
let broken: string;

beforeAll(async () => {
  scratch = await mkdtemp(path.join(tmpdir(), 'fanstage-media-tools-'));
  broken = path.join(scratch, 'ffmpeg');
  await writeFile(broken, '#!/bin/sh\necho "segmentation fault" >&2\nexit 139\n', { mode: 0o755 });
});
afterAll(async () => {
  await rm(scratch, { recursive: true, force: true });
});

describe('choosing ffmpeg and ffprobe', () => {
  it('prefers the one on the PATH to the npm build, and names it with its version', () => {
    for (const name of ['ffmpeg', 'ffprobe'] as const) {
      const tool = resolveMediaTool(name, { PATH: systemPath });
      expect(tool.source, name).toBe('PATH');
      expect(tool.path, name).toMatch(new RegExp(`/${name}$`));
      expect(tool.version, name).toMatch(new RegExp(`^${name} version `));
      const report = describeMediaTool(tool);
      expect(report.level).toBe('info');
      expect(report.message).toContain(tool.path!);
      expect(report.message).toContain('from the PATH');
    }
  });

  it('takes FFMPEG_PATH and FFPROBE_PATH before anything else', () => {
    const tool = resolveMediaTool('ffmpeg', { FFMPEG_PATH: npmFfmpeg, PATH: '/usr/bin:/bin' });
    expect(tool).toMatchObject({ source: 'env', path: npmFfmpeg });
    expect(describeMediaTool(tool).message).toContain('from FFMPEG_PATH');
  });

  it('falls back to the npm build when the PATH has none, and warns that it is old', () => {
    const tool = resolveMediaTool('ffmpeg', { PATH: scratch.replace(/$/, '/nothing-here') });
    expect(tool).toMatchObject({ source: 'npm', path: npmFfmpeg });
    expect(tool.problems).toEqual(['no ffmpeg on the PATH']);
    const report = describeMediaTool(tool);
    expect(report.level).toBe('warn');
    expect(report.message).toMatch(/install a maintained ffmpeg/);
  });

  it('passes over a binary on the PATH that does not answer -version', () => {
    const tool = resolveMediaTool('ffmpeg', { PATH: scratch });
    expect(tool.source).toBe('npm');
    expect(tool.problems[0]).toContain(broken);
  });

  it('does not run an older binary behind a configured one that fails, and says what to do', () => {
    const tool = resolveMediaTool('ffmpeg', { FFMPEG_PATH: broken, PATH: '/usr/bin:/bin' });
    expect(tool.path).toBeNull();
    expect(tool.problems).toEqual([expect.stringContaining(`${broken}: -version answered 139`)]);
    const report = describeMediaTool(tool);
    expect(report.level).toBe('error');
    expect(report.message).toContain('apt-get install ffmpeg');
    expect(report.message).toContain('FFMPEG_PATH');
    expect(report.message).toContain('Videos and voice notes are refused');
  });

  it('makes the npm binary executable when the install skipped its chmod script', async () => {
    // A copy without the execute bit stands in for the package's binary.
    const copy = path.join(scratch, 'npm-ffmpeg');
    await copyFile(npmFfmpeg, copy);
    await chmod(copy, 0o644);
    const tool = resolveMediaTool('ffmpeg', { PATH: '' }, copy);
    expect(tool).toMatchObject({ source: 'npm', path: copy });
    expect((await stat(copy)).mode & 0o100).toBe(0o100);
  });

  it('leaves a configured binary without its execute bit as it is, and reports it', async () => {
    const copy = path.join(scratch, 'configured-ffmpeg');
    await copyFile(npmFfmpeg, copy);
    await chmod(copy, 0o644);
    const tool = resolveMediaTool('ffmpeg', { FFMPEG_PATH: copy, PATH: '/usr/bin:/bin' });
    expect(tool.path).toBeNull();
    expect(tool.problems).toEqual([`${copy}: EACCES`]);
    expect((await stat(copy)).mode & 0o777).toBe(0o644);
  });
});

describe('a server without a working ffmpeg', () => {
  let server: TestServer;
  let account: TestAccount;

  beforeAll(async () => {
    // Set before the server's modules load: the tools are chosen once per process.
    process.env.FFMPEG_PATH = broken;
    process.env.FFPROBE_PATH = broken;
    const [{ startTestServer }, { createAccount }] = await Promise.all([import('../support/server'), import('../support/accounts')]);
    server = await startTestServer({ seed: false });
    account = await createAccount(server.app);
  });
  afterAll(async () => {
    delete process.env.FFMPEG_PATH;
    delete process.env.FFPROBE_PATH;
    await server?.close();
  });

  async function upload(data: Buffer, name: string, type: string) {
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(data)], { type }), name);
    const response = await fetch(`${server.baseUrl}/api/media/binary`, { method: 'POST', headers: { authorization: `Bearer ${account.accessToken}` }, body: form });
    return { status: response.status, json: (await response.json()) as { statusCode: number; statusText?: string } };
  }

  it('still takes pictures', async () => {
    const photo = await sharp({ create: { width: 640, height: 480, channels: 3, background: '#336699' } }).jpeg().toBuffer();
    const answer = await upload(photo, 'photo.jpg', 'image/jpeg');
    expect(answer.status).toBe(200);
    expect(answer.json.statusCode).toBe(2);
  });

  it('refuses a video with a message that says the server cannot process it, not that the file is bad', async () => {
    const file = path.join(scratch, 'clip.mp4');
    await run(npmFfmpeg, ['-v', 'error', '-y', '-f', 'lavfi', '-i', 'testsrc=size=640x480:rate=25', '-t', '1', '-pix_fmt', 'yuv420p', file]);
    const answer = await upload(await readFile(file), 'clip.mp4', 'video/mp4');
    expect(answer.status).toBe(503);
    expect(answer.json).toEqual({ statusCode: -1, statusText: 'media-processing-unavailable' });
  });
});
