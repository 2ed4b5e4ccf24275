// SPDX-License-Identifier: Apache-2.0
// relayout's demo server (`npm start`): a small static server for the web pages in web/, the
// browser package in bindings/js/ (with the WebAssembly builds in bindings/js/dist/) and the
// benchmark workloads in bench/js/. It sends the two headers that make a page
// crossOriginIsolated, so the threaded build (SharedArrayBuffer) can run:
//
//   Cross-Origin-Opener-Policy: same-origin
//   Cross-Origin-Embedder-Policy: require-corp
//
//   node web/server.js [--port N] [--no-isolation] [--root DIR]
//
//   PORT=N                  the port (default 8080; 0 picks a free one); --port wins
//   --no-isolation          omit COOP/COEP (also RELAYOUT_NO_ISOLATION=1): the page then
//                           falls back to the one-thread `simd` build (the tests check it)
//   --root DIR              serve DIR alone at / instead of the repository's pages (the
//                           bundler test serves a Vite build with it)
//
// Prints `relayout demo: http://localhost:PORT/` once it listens. Only GET and HEAD; no
// directory listings; paths that leave a served folder are refused.
import { createReadStream, statSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const repo = fileURLToPath(new URL('../', import.meta.url));

const MIME = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.wasm': 'application/wasm',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.svg': 'image/svg+xml',
  '.ico': 'image/x-icon',
  '.txt': 'text/plain; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.ts': 'text/plain; charset=utf-8',
};

/** The repository's pages: URL prefix -> folder, longest prefix first. */
export function repoMounts() {
  return [
    ['/bindings/js/', path.join(repo, 'bindings/js')],
    ['/bench/js/', path.join(repo, 'bench/js')],
    ['/', path.join(repo, 'web')],
  ];
}

// The file a URL path names, or null when it names nothing we serve.
function resolve(mounts, urlPath) {
  let p;
  try {
    p = decodeURIComponent(urlPath);
  } catch {
    return null;
  }
  if (p.includes('\0') || p.includes('\\') || !p.startsWith('/')) return null;
  if (p.split('/').some((seg) => seg === '..' || seg === '.')) return null;
  for (const [prefix, dir] of mounts) {
    if (!p.startsWith(prefix)) continue;
    const file = path.resolve(dir, p.slice(prefix.length));
    const rel = path.relative(dir, file);
    if (rel.startsWith('..') || path.isAbsolute(rel)) return null;
    return file;
  }
  return null;
}

function headers(isolation, extra) {
  const h = {
    'Cache-Control': 'no-cache',
    'X-Content-Type-Options': 'nosniff',
    'Cross-Origin-Resource-Policy': 'same-origin',
    ...extra,
  };
  if (isolation) {
    h['Cross-Origin-Opener-Policy'] = 'same-origin';
    h['Cross-Origin-Embedder-Policy'] = 'require-corp';
  }
  return h;
}

/**
 * Starts the server. Options: port (0 = a free one), isolation (default true), root (a folder
 * served alone at /; default the repository's pages), host (default 127.0.0.1), quiet.
 * Resolves to { server, port, url, close() }.
 */
export function startServer({ port = 8080, isolation = true, root, host = '127.0.0.1' } = {}) {
  const mounts = root ? [['/', path.resolve(root)]] : repoMounts();
  const server = http.createServer((req, res) => {
    const send = (status, body, extra = {}) => {
      res.writeHead(status, headers(isolation, { 'Content-Type': 'text/plain; charset=utf-8', ...extra }));
      res.end(req.method === 'HEAD' ? undefined : body);
    };
    if (req.method !== 'GET' && req.method !== 'HEAD') return send(405, 'method not allowed\n', { Allow: 'GET, HEAD' });
    const urlPath = (req.url ?? '/').split(/[?#]/)[0];
    let file = resolve(mounts, urlPath);
    if (!file) return send(404, 'not found\n');
    let st;
    try {
      st = statSync(file);
      if (st.isDirectory()) {
        if (!urlPath.endsWith('/')) return send(301, 'moved\n', { Location: `${urlPath}/` });
        file = path.join(file, 'index.html');
        st = statSync(file);
      }
    } catch {
      return send(404, 'not found\n');
    }
    if (!st.isFile()) return send(404, 'not found\n');
    const type = MIME[path.extname(file).toLowerCase()] ?? 'application/octet-stream';
    res.writeHead(200, headers(isolation, { 'Content-Type': type, 'Content-Length': st.size }));
    if (req.method === 'HEAD') return res.end();
    createReadStream(file).on('error', () => res.destroy()).pipe(res);
  });
  return new Promise((ok, fail) => {
    server.once('error', fail);
    server.listen(port, host, () => {
      const actual = server.address().port;
      ok({
        server, port: actual, url: `http://localhost:${actual}/`,
        close: () => new Promise((done) => { server.closeAllConnections?.(); server.close(() => done()); }),
      });
    });
  });
}

function main() {
  const argv = process.argv.slice(2);
  const opts = { isolation: !/^(1|true|yes)$/i.test(process.env.RELAYOUT_NO_ISOLATION ?? '') };
  let port = process.env.PORT ?? '8080';
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const value = () => {
      const eq = a.indexOf('=');
      if (eq >= 0) return a.slice(eq + 1);
      if (i + 1 >= argv.length) throw new Error(`server.js: ${a} needs a value`);
      return argv[++i];
    };
    if (a === '--no-isolation') opts.isolation = false;
    else if (a === '--port' || a.startsWith('--port=')) port = value();
    else if (a === '--root' || a.startsWith('--root=')) opts.root = value();
    else if (a === '-h' || a === '--help') {
      console.log('usage: node web/server.js [--port N] [--no-isolation] [--root DIR]  (env: PORT, RELAYOUT_NO_ISOLATION=1)');
      return;
    } else {
      console.error(`server.js: unknown argument '${a}' (try --help)`);
      process.exit(2);
    }
  }
  opts.port = Number(port);
  if (!Number.isInteger(opts.port) || opts.port < 0 || opts.port > 65535) {
    console.error(`server.js: bad port '${port}'`);
    process.exit(2);
  }
  startServer(opts).then(({ url }) => {
    console.log(`relayout demo: ${url}`);
    if (!opts.root) console.log(`relayout benchmark: ${url}bench.html`);
    console.log(opts.isolation ? 'serving with COOP/COEP (crossOriginIsolated: the threaded build can run)'
      : 'serving WITHOUT COOP/COEP (--no-isolation): pages fall back to one thread');
    try {
      if (!opts.root) statSync(path.join(repo, 'bindings/js/dist/simd/relayout.wasm'));
    } catch {
      console.log('note: bindings/js/dist is missing: run `npm run build` (or scripts/setup.sh) first');
    }
  }, (e) => {
    console.error(`server.js: cannot listen on port ${opts.port}: ${e.message}`);
    process.exit(1);
  });
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) main();
