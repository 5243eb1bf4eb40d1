// The websocket yardstick: a bare `ws` server that sends every text frame it receives to every
// connected client, JSON-encoded the way our server sends a `newPost`. No authentication, no
// database, no registry by user: the least a broadcast can cost on this machine.
import { createServer } from 'node:http';
import { WebSocketServer, WebSocket } from 'ws';

const server = createServer((_request, response) => {
  response.writeHead(200, { 'content-type': 'text/plain' });
  response.end('ok');
});
const wss = new WebSocketServer({ server, path: '/ws/' });
wss.on('connection', (socket) => {
  socket.on('message', (data) => {
    const { postId } = JSON.parse(String(data)) as { postId: number };
    const frame = JSON.stringify({ type: 'newPost', postId, userId: 0 });
    for (const client of wss.clients) if (client !== socket && client.readyState === WebSocket.OPEN) client.send(frame);
  });
});
server.listen(Number(process.env.PORT), '127.0.0.1', () => console.log('listening'));
process.on('SIGTERM', () => {
  for (const client of wss.clients) client.terminate();
  server.close(() => process.exit(0));
});
