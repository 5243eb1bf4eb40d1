// The baseline: a bare Fastify server answering a tiny JSON document, nothing else.
import Fastify from 'fastify';

const app = Fastify({ logger: false });
app.get('/', async () => ({ hello: 'world' }));
await app.listen({ host: '127.0.0.1', port: Number(process.env.PORT) });
console.log('listening');
process.on('SIGTERM', () => void app.close().then(() => process.exit(0)));
