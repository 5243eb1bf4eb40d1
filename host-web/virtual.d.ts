// The English strings the site's first load leaves out (host-web/vite.config.ts, first-load strings).
declare module 'virtual:fanstage-english-rest' {
  const strings: Record<string, unknown>;
  export default strings;
}
