import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import sharp from 'sharp';
import { startTestServer, type TestServer } from '../support/server';
import { createAccount, type TestAccount } from '../support/accounts';
import { apiCaller } from '../support/inject';
import { closeSockets, connectSocket } from '../support/sockets';

/* Server rules a newcomer's client relies on (issue 20, SPEC §5 and §7). */

let server: TestServer;
let app: FastifyInstance;
const call = apiCaller(() => app);

beforeAll(async () => {
  server = await startTestServer({ seed: false });
  app = server.app;
});
afterAll(async () => {
  closeSockets();
  await server?.close();
});

describe('the discover search’s gender filter', () => {
  it('refuses gender 0 (everyone) from a visitor, as the timeline does, and takes it from a member', async () => {
    const visitor = await app.inject({ method: 'GET', url: '/papi/discover/search?gender=0' });
    expect(visitor.statusCode).toBeLessThan(500);
    expect(visitor.json()).toMatchObject({ statusCode: -1, statusText: 'invalid-request' });
    expect((await app.inject({ method: 'GET', url: '/papi/discover/search?gender=1' })).json().statusCode).toBe(2);
    const member = await createAccount(app);
    expect((await call('GET', '/papi/discover/search?gender=0', member)).json.statusCode).toBe(2);
  });
});

describe('mediaChange', () => {
  async function upload(account: TestAccount, data: Buffer): Promise<string> {
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(data)], { type: 'image/jpeg' }), 'photo.jpg');
    const response = await fetch(`${server.baseUrl}/api/media/binary`, { method: 'POST', headers: { authorization: `Bearer ${account.accessToken}` }, body: form });
    return ((await response.json()) as { body: { fileName: string } }).body.fileName;
  }

  it('tells the owner’s pages over the socket when a media is ready, and when it is rejected', async () => {
    const owner = await createAccount(app);
    const socket = await connectSocket(server, owner);
    const from = socket.mark;
    const photo = await sharp({ create: { width: 800, height: 600, channels: 3, background: '#3366aa' } }).jpeg().toBuffer();
    const made = await call('POST', '/api/media', owner, { fileNames: [await upload(owner, photo)] });
    expect(made.json.statusCode).toBe(2);
    const mediaId = (made.json.body as { mediaId: number }[])[0]!.mediaId;
    const ready = await socket.nextOf('eventMessage', from, (m) => m.event === 'mediaChange');
    expect(ready).toMatchObject({ userId: owner.id, data: { mediaId, mediaStatus: 3 } });

    // A picture too small for a post is rejected (4), and the owner hears of it too.
    const small = await sharp({ create: { width: 200, height: 150, channels: 3, background: '#aa3366' } }).jpeg().toBuffer();
    const next = socket.mark;
    await call('POST', '/api/media', owner, { fileNames: [await upload(owner, small)] });
    const rejected = await socket.nextOf('eventMessage', next, (m) => m.event === 'mediaChange');
    expect(rejected.data).toMatchObject({ mediaStatus: 4 });
  });
});
