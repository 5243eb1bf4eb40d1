// The `sizes` part of `npm run bench` (bench/run.ts): what a browser downloads, gzip -9 of the
// built files (the script-tag loader, each element's first load before interaction, the site's
// first load), then the bytes on the wire from the real server in production (Brotli, gzip,
// none) and that hashed chunks are served immutable.
import { mkdtempSync, readFileSync, rmSync, existsSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { randomBytes } from 'node:crypto';
import { budgets } from './budgets';
import { check, failures, freePort, kb, root, startProcess, stop } from './harness';

function gzipSize(path: string): number {
  return gzipSync(readFileSync(path), { level: 9 }).length;
}

/**
 * What the page's inline script (host-web/vite.config.ts, landing screen preloads) adds for `/`:
 * the home screen's chunks and stylesheets, fetched with the shell.
 */
function homeScreenPreloads(html: string): { js: string[]; css: string[] } {
  const json = /<script id="landing-screen-preloads">.*\}\)\((\{.*\})\)<\/script>/.exec(html)?.[1];
  if (!json) throw new Error('dist/web/index.html has no landing screen preloads');
  return (JSON.parse(json) as { home: { js: string[]; css: string[] } }).home;
}

/** The JavaScript a first visit to `/` downloads: the entry script, its modulepreloads and the home screen's. */
function webFirstLoad(): { files: string[]; bytes: number } {
  const html = readFileSync(join(root, 'dist/web/index.html'), 'utf8');
  const files = [...[...html.matchAll(/<(?:script[^>]*\ssrc|link[^>]*rel="modulepreload"[^>]*\shref)="([^"]+\.js)"/g)].map((m) => m[1]!), ...homeScreenPreloads(html).js]
    .filter((f, i, all) => all.indexOf(f) === i);
  const bytes = files.reduce((sum, f) => sum + gzipSize(join(root, 'dist/web', f.replace(/^\//, ''))), 0);
  return { files, bytes };
}
/**
 * stream-chat-react's documented minimal chat (Chat, Channel, MessageList, MessageInput, with
 * its stylesheet), gzip of its JavaScript and CSS built with Vite 8 in production mode, as
 * issue 14 measured it. Recorded rather than built in each run: the bench runs offline, and the
 * reference would add stream-chat and stream-chat-react (and their dependency tree) to the
 * repository's install for one number (docs/performance.md, Widget chunks).
 */
const referenceChatGzip = 644 * 1024;

interface ManifestChunk {
  file: string;
  imports?: string[];
}

/**
 * What a page holding only one element fetches from /embed/ before anyone interacts: the loader,
 * then the element's chunk and every chunk it imports (transitively), as the loader preloads
 * them (vite.loader.config.ts). That is all it fetches from the platform's scripts until the reader
 * shows intent (elements/script/lite.ts: nothing loads on idle); the React widget behind each first
 * view, the runtime and lazy parts (the tip dialog, simple-peer) come then.
 */
function elementFirstLoads(): { tag: string; files: string[]; bytes: number; laterBytes: number }[] {
  const manifest = JSON.parse(readFileSync(join(root, 'dist/embed/.vite/manifest.json'), 'utf8')) as Record<string, ManifestChunk>;
  const filesOf = (key: string, into: string[] = []): string[] => {
    const chunk = manifest[key];
    if (!chunk || into.includes(chunk.file)) return into;
    into.push(chunk.file);
    for (const imported of chunk.imports ?? []) filesOf(imported, into);
    return into;
  };
  const bytesOf = (files: string[]) => files.reduce((sum, file) => sum + gzipSize(join(root, 'dist/embed', file)), 0);
  return ['tip-button', 'profile-card', 'feed', 'wallet', 'chat', 'call'].map((name) => {
    const files = ['fanstage.js', ...filesOf(`elements/script/${name}.ts`)];
    // The React widget behind a first screen without React (elements/script/lite.ts), on interaction or when idle.
    const full = filesOf(`elements/script/${name}-full.ts`).filter((file) => !files.includes(file));
    return { tag: `<fanstage-${name}>`, files, bytes: bytesOf(files), laterBytes: bytesOf(full) };
  });
}

/** Sizes (gzip -9) of the loader, each element's first load and the site's first load, then the transfer sizes. */
export async function benchSizes(): Promise<void> {
  for (const f of ['dist/embed/fanstage.js', 'dist/embed/.vite/manifest.json', 'dist/web/index.html']) {
    if (!existsSync(join(root, f))) throw new Error(`${f} is missing: run npm run build first`);
  }

  console.log('Sizes (gzip -9)');
  const loader = gzipSize(join(root, 'dist/embed/fanstage.js'));
  const web = webFirstLoad();
  console.log(`  script-tag loader   dist/embed/fanstage.js           ${kb(loader).padStart(9)}  budget ${kb(budgets.loaderGzip)}  ${check('loader', loader, budgets.loaderGzip)}`);
  console.log('  first load of a page with one element (the loader and the chunks it imports for it, before interaction):');
  for (const element of elementFirstLoads()) {
    let note = `budget ${kb(budgets.elementFirstLoadGzip)}  ${check(`${element.tag} first load`, element.bytes, budgets.elementFirstLoadGzip)}`;
    if (element.tag === '<fanstage-chat>') {
      const ratio = element.bytes / referenceChatGzip;
      note += `  ${ratio.toFixed(3)} of stream-chat-react's minimal chat (${kb(referenceChatGzip)}, recorded)  budget ≤ ${budgets.chatFirstLoadRatio}  ${check('chat first load ratio', Number(ratio.toFixed(3)), budgets.chatFirstLoadRatio)}`;
    }
    console.log(`    ${element.tag.padEnd(24)} ${String(element.files.length).padStart(2)} files ${kb(element.bytes).padStart(9)}  ${note}`);
    if (element.laterBytes > 0) console.log(`      then, on the reader's intent, the React widget: +${kb(element.laterBytes)} (${kb(element.bytes + element.laterBytes)} in all)`);
  }
  console.log(`  site first load     ${web.files.length} file(s) of dist/web           ${kb(web.bytes).padStart(9)}  budget ${kb(budgets.webFirstLoadGzip)}  ${check('web first load', web.bytes, budgets.webFirstLoadGzip)}`);
  await transferSizes();
}

/** The bytes one GET puts on the wire (not decoded), and the headers that came with them. */
function transfer(url: string, encoding: string): Promise<{ bytes: number; encoding: string; cacheControl: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { headers: encoding === 'identity' ? {} : { 'accept-encoding': encoding } }, (res) => {
      let bytes = 0;
      res.on('data', (chunk: Buffer) => (bytes += chunk.length));
      res.on('end', () => {
        if (res.statusCode !== 200) reject(new Error(`${url}: ${res.statusCode}`));
        else resolve({ bytes, encoding: String(res.headers['content-encoding'] ?? 'identity'), cacheControl: String(res.headers['cache-control'] ?? '') });
      });
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

/**
 * What a browser really downloads from the server (`NODE_ENV=production`): each file of the
 * site's first load (the page, its entry script, modulepreloads and stylesheets) and each
 * widget bundle, asked for with `Accept-Encoding: br`, then `gzip`, then none. The bytes are
 * counted on the wire, so these are the build's precompressed copies as the server sends them.
 */
async function transferSizes(): Promise<void> {
  const html = readFileSync(join(root, 'dist/web/index.html'), 'utf8');
  const siteFiles = [
    '/',
    ...[...html.matchAll(/<(?:script[^>]*\ssrc|link[^>]*rel="(?:modulepreload|stylesheet)"[^>]*\shref)="(\/[^"]+)"/g)].map((m) => m[1]!),
    ...homeScreenPreloads(html).js,
    ...homeScreenPreloads(html).css,
  ].filter((f, i, all) => all.indexOf(f) === i);
  // The loader, then the chunks of a page with every widget on it (each fetched once).
  const widgetFiles = [...new Set(elementFirstLoads().flatMap((element) => element.files))].map((f) => `/embed/${f}`);

  const dataDir = mkdtempSync(join(tmpdir(), 'fanstage-bench-'));
  try {
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    const server = await startProcess(
      'server/src/main.ts',
      { PORT: String(port), HOST: '127.0.0.1', PUBLIC_URL: base, DATA_DIR: dataDir, LOG_LEVEL: 'warn', NODE_ENV: 'production', FANSTAGE_STAGING: '1', DATABASE_URL: '', JWT_SECRET: randomBytes(32).toString('base64url') },
      `${base}/papi/settings`,
    );
    try {
      console.log('\nTransfer sizes (bytes on the wire from the server: Brotli, gzip, none)');
      const measure = async (path: string) => {
        const [br, gz, raw] = [await transfer(`${base}${path}`, 'br'), await transfer(`${base}${path}`, 'gzip'), await transfer(`${base}${path}`, 'identity')];
        // A text file the server sent uncompressed to a browser that asked is a regression (below
        // 256 bytes the build keeps no compressed copy: vite.precompress.ts `minimumBytes`).
        if (raw.bytes >= 256 && (br.encoding !== 'br' || gz.encoding !== 'gzip')) failures.push(`${path} was not sent compressed (br: ${br.encoding}, gzip: ${gz.encoding})`);
        return { path, br: br.bytes, gzip: gz.bytes, raw: raw.bytes, cacheControl: raw.cacheControl };
      };
      const row = (name: string, r: { br: number; gzip: number; raw: number }, note = '') =>
        `  ${name.padEnd(44)} br ${kb(r.br).padStart(9)}  gzip ${kb(r.gzip).padStart(9)}  raw ${kb(r.raw).padStart(9)}${note ? `  ${note}` : ''}`;
      const site = [];
      for (const path of siteFiles) site.push(await measure(path));
      const total = (rows: { br: number; gzip: number; raw: number }[]) => rows.reduce((sum, r) => ({ br: sum.br + r.br, gzip: sum.gzip + r.gzip, raw: sum.raw + r.raw }), { br: 0, gzip: 0, raw: 0 });
      const scripts = site.filter((r) => r.path.endsWith('.js'));
      console.log(row(`site first load: ${site.length} files`, total(site)));
      console.log(row(`  of which JavaScript: ${scripts.length} files`, total(scripts)));
      console.log(row('  of which the page (/)', site[0]!, site[0]!.cacheControl));
      const widgets = [];
      for (const path of widgetFiles) widgets.push(await measure(path));
      const [loaderRow, ...chunkRows] = widgets;
      console.log(row('widget loader /embed/fanstage.js', loaderRow!, loaderRow!.cacheControl));
      console.log(row(`widget chunks of all six elements: ${chunkRows.length} files`, total(chunkRows), chunkRows[0]?.cacheControl ?? ''));
      // Hashed chunks are cached for good: a second visit fetches none of them.
      for (const r of chunkRows) if (!r.cacheControl.includes('immutable')) failures.push(`${r.path} is not served immutable (${r.cacheControl})`);
    } finally {
      await stop(server);
    }
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}
