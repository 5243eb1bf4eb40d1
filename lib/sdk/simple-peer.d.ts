/**
 * simple-peer's browser build (a standalone bundle with its stream and buffer shims inside):
 * the package's main file needs Node's `process` and `global`, which browsers and Vite do not
 * provide. The calls store types what it uses itself (`CallPeer`).
 */
declare module 'simple-peer/simplepeer.min.js' {
  const SimplePeer: unknown;
  export default SimplePeer;
}
