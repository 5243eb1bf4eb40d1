// One thread of the password-hashing pool (hashing.ts): argon2 run to the end on this thread,
// one request at a time, so the pool decides how many hash at once. Plain JavaScript, so it
// starts the same under `npm start`, in the tests and wherever the server runs.
import { parentPort } from 'node:worker_threads';
import { setPriority } from 'node:os';
import { hashSync, verifySync } from '@node-rs/argon2';

// On Linux a thread has a priority of its own (pid 0 is this thread): hashing yields the cores
// to the event loop and the database whenever both want them, so health checks, sockets and
// every other request keep answering while sign-ins wait. Elsewhere the call would lower the
// whole server, so it is left alone.
if (process.platform === 'linux') {
  try {
    setPriority(0, 10);
  } catch {
    // Kept at the normal priority: hashing is still bounded by the pool.
  }
}

parentPort.on('message', ({ id, op, password, stored, options }) => {
  let result;
  try {
    if (op === 'hash') result = hashSync(password, options);
    else {
      try {
        result = verifySync(stored, password);
      } catch {
        // A malformed stored hash counts as a mismatch.
        result = false;
      }
    }
  } catch (error) {
    parentPort.postMessage({ id, error: error instanceof Error ? error.message : String(error) });
    return;
  }
  parentPort.postMessage({ id, result });
});
