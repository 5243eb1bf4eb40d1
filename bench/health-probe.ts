// A load balancer's health probe, in a process of its own: GET `/papi/health/live` on a fresh
// connection every 10 ms until stdin closes, then the latencies (ms) as one JSON line on stdout.
// Apart from the process that makes the load, so the probe never waits on the load's own work.
import { request } from 'node:http';

const url = process.argv[2];
if (url === undefined) throw new Error('usage: health-probe.ts <url>');
const latencies: number[] = [];
let running = true;
process.stdin.on('end', () => (running = false)).resume();

function probe(): Promise<number> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const req = request(url!, { agent: false }, (response) => {
      response.resume();
      response.on('end', () => (response.statusCode === 200 ? resolve(performance.now() - started) : reject(new Error(`health answered ${response.statusCode}`))));
    });
    req.on('error', reject);
    req.end();
  });
}

console.error('probing');
while (running) {
  latencies.push(await probe());
  await new Promise((resolve) => setTimeout(resolve, 10));
}
console.log(JSON.stringify(latencies));
