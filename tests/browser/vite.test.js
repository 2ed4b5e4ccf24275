// SPDX-License-Identifier: Apache-2.0
// Bundler test: the packed tarball installed into a minimal Vite app (tests/browser/vite-app,
// whose vite.config.js is the one docs/web.md#bundlers gives users), run on Vite's dev server and
// built and served by `vite preview`, in Chromium. The app must find its .wasm, glue and worker
// files (no failed request) and run reorders: on the threaded build with COOP/COEP, one large
// enough for the threads to share, on simd when asked or without COOP/COEP.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';

import { launchChromium, repo, screenshot, startVite, watch, within } from './lib.js';

// nchw -> nhwc of 0..59 over 1x3x4x5
const WANT = [];
for (let hw = 0; hw < 20; hw++) for (let c = 0; c < 3; c++) WANT.push(c * 20 + hw);
const THREADS = 4;

describe('the npm package in a Vite app', { timeout: 180000 }, () => {
  let dir, app, browser;
  const servers = [];

  before(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'relayout-vite-'));
    const npm = (args, cwd) => execFileSync('npm', args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, npm_config_loglevel: 'error', npm_config_update_notifier: 'false' } });
    const packed = JSON.parse(npm(['pack', '--json', '--pack-destination', dir], repo));
    app = path.join(dir, 'app');
    mkdirSync(app);
    cpSync(path.join(repo, 'tests/browser/vite-app'), app, { recursive: true });
    writeFileSync(path.join(app, 'package.json'), JSON.stringify({ name: 'vite-app', private: true, type: 'module' }));
    // the same app without the COOP/COEP headers, and with them but without optimizeDeps
    writeFileSync(path.join(app, 'vite.plain.config.js'),
      "export default { optimizeDeps: { exclude: ['tensor-relayout'] } };\n");
    writeFileSync(path.join(app, 'vite.headers.config.js'), `import config from './vite.config.js';
      export default { server: config.server };\n`);
    npm(['install', '--offline', '--no-audit', '--no-fund', path.join(dir, packed[0].filename)], app);
    browser = await launchChromium();
  });

  after(async () => {
    await browser?.close();
    await Promise.all(servers.map((s) => s.stop()));
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  async function serve(args) {
    const server = await startVite(args, app);
    servers.push(server);
    return server;
  }

  async function run(url, name) {
    const context = await browser.newContext();
    const page = await context.newPage();
    const w = watch(page);
    try {
      await page.goto(url);
      const result = await within(page.evaluate(() => window.viteApp), 60000, `${url}: window.viteApp`);
      await screenshot(page, name, { minColours: 2 });
      return { result, w };
    } finally {
      await context.close();
    }
  }

  // simd-threads with THREADS threads: the .wasm fetched once, the workers started, both reorders right
  function assertThreaded({ result, w }) {
    assert.deepEqual({ build: result.build, threads: result.threads, isolated: result.isolated },
      { build: 'simd-threads', threads: THREADS, isolated: true });
    assert.deepEqual(result.y, WANT);
    assert.equal(result.large, true, 'the 64x256x256 reorder on the threads');
    const wasm = w.responses.filter((r) => new URL(r.url).pathname.endsWith('.wasm'));
    assert.equal(wasm.length, 1, JSON.stringify(w.responses));
    assert.equal(wasm[0].status, 200);
    assert.equal(wasm[0].type, 'application/wasm');
    assert.ok(w.workers.length >= THREADS - 1, `workers: ${w.workers.join(', ')}`);
    // the workers import the glue by URL
    assert.ok(w.responses.some((r) => new URL(r.url).pathname.endsWith('.mjs') && r.status === 200), JSON.stringify(w.responses));
    assert.deepEqual(w.problems, []);
  }

  function assertSimd({ result, w }, isolated) {
    assert.deepEqual({ build: result.build, threads: result.threads, isolated: result.isolated },
      { build: 'simd', threads: 1, isolated });
    assert.deepEqual(result.y, WANT);
    assert.equal(result.large, true);
    assert.equal(w.workers.length, 0);
    assert.deepEqual(w.problems, []);
  }

  describe('vite dev server', () => {
    test('with COOP/COEP: simd-threads, its workers start, the reorders are right', async () => {
      const dev = await serve([]);
      assertThreaded(await run(`${dev.url}?threads=${THREADS}`, 'vite-dev'));
      assertSimd(await run(`${dev.url}?build=simd`, 'vite-dev-simd'), true);
    });

    test('with COOP/COEP, the package pre-bundled (no optimizeDeps.exclude): simd-threads', async () => {
      const dev = await serve(['--config', 'vite.headers.config.js']);
      assertThreaded(await run(`${dev.url}?threads=${THREADS}`, 'vite-dev-prebundled'));
    });

    test('without COOP/COEP: falls back to simd', async () => {
      const dev = await serve(['--config', 'vite.plain.config.js']);
      assertSimd(await run(dev.url, 'vite-dev-no-isolation'), false);
    });
  });

  describe('vite build, vite preview', () => {
    before(() => {
      execFileSync(process.execPath, [path.join(repo, 'node_modules/vite/bin/vite.js'), 'build', '--logLevel', 'error'],
        { cwd: app, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
    });

    test('the build emits the three .wasm files and the glue', () => {
      const assets = readdirSync(path.join(app, 'dist/assets'));
      assert.equal(assets.filter((f) => f.endsWith('.wasm')).length, 3, assets.join(', '));
      assert.ok(assets.some((f) => f.endsWith('.mjs')), `the glue the pthread workers import: ${assets.join(', ')}`);
    });

    test('with COOP/COEP: simd-threads; ?build=simd: the one-thread build', async () => {
      const preview = await serve(['preview']);
      assertThreaded(await run(`${preview.url}?threads=${THREADS}`, 'vite-app'));
      assertSimd(await run(`${preview.url}?build=simd`, 'vite-app-simd'), true);
    });

    test('without COOP/COEP: falls back to simd', async () => {
      const preview = await serve(['preview', '--config', 'vite.plain.config.js']);
      assertSimd(await run(preview.url, 'vite-app-no-isolation'), false);
    });
  });
});
