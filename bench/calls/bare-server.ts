// The bare side of the calls benchmark, its own process as our server is: a static page with
// simple-peer (bench/calls/bare-page.ts, built by bench/calls.ts into BENCH_CALLS_DIR) and a
// bare `ws` relay on /ws/ that passes every frame to the other page of the same room — no
// authentication, no database, no checks. It also serves /element.html, a page that holds
// only the script tag and one <fanstage-call>, for the call element's first load.
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { join } from 'node:path';
import { WebSocketServer, WebSocket } from 'ws';

const dir = process.env.BENCH_CALLS_DIR!;

const barePage = `<!doctype html>
<html lang="en">
  <head><meta charset="utf-8" /><title>Bare simple-peer call</title><link rel="icon" href="data:," /></head>
  <body>
    <p id="status">loading</p>
    <button id="accept" type="button" hidden>Accept</button>
    <video id="remote" data-bench-remote autoplay playsinline></video>
    <video id="local" autoplay playsinline muted width="160"></video>
    <script src="/bare-page.js"></script>
  </body>
</html>`;

/** The platform's script tag and one call element: what a creator's page with only a call button holds. */
function elementPage(platform: string): string {
  const origin = new URL(platform).origin;
  return `<!doctype html>
<html lang="en">
  <head><meta charset="utf-8" /><title>Call me</title><link rel="icon" href="data:," />
    <script src="${origin}/embed/fanstage.js" async></script>
  </head>
  <body>
    <fanstage-call with="lucy.rivers"></fanstage-call>
  </body>
</html>`;
}

const server = createServer((request, response) => {
  const url = new URL(request.url ?? '/', 'http://127.0.0.1');
  if (url.pathname === '/' || url.pathname === '/index.html') {
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
    response.end(barePage);
  } else if (url.pathname === '/bare-page.js') {
    response.writeHead(200, { 'content-type': 'text/javascript; charset=utf-8', 'cache-control': 'max-age=3600' });
    response.end(readFileSync(join(dir, 'bare-page.js')));
  } else if (url.pathname === '/element.html') {
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
    response.end(elementPage(url.searchParams.get('platform') ?? 'http://127.0.0.1'));
  } else {
    response.writeHead(404, { 'content-type': 'text/plain' });
    response.end('not found');
  }
});

const rooms = new Map<string, Set<WebSocket>>();
const wss = new WebSocketServer({ server, path: '/ws/' });
wss.on('connection', (socket, request) => {
  const room = new URL(request.url ?? '/', 'http://127.0.0.1').searchParams.get('room') ?? '';
  const members = rooms.get(room) ?? new Set<WebSocket>();
  rooms.set(room, members);
  members.add(socket);
  if (members.size === 2) for (const member of members) member.send('{"type":"joined"}');
  socket.on('message', (data, isBinary) => {
    for (const member of members) if (member !== socket && member.readyState === WebSocket.OPEN) member.send(data, { binary: isBinary });
  });
  socket.on('close', () => {
    members.delete(socket);
    if (members.size === 0) rooms.delete(room);
  });
});

server.listen(Number(process.env.PORT), '127.0.0.1', () => console.log('listening'));
process.on('SIGTERM', () => {
  for (const client of wss.clients) client.terminate();
  server.close(() => process.exit(0));
});
