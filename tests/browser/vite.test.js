// SPDX-License-Identifier: Apache-2.0
// Bundler test: the packed tarball installed into a minimal Vite app (tests/browser/vite-app),
// built with the repository's Vite, served by web/server.js --root and loaded in Chromium.
// The built app must find its .wasm and pthread worker files (no failed request) and run a
// reorder: on the threaded build with COOP/COEP, on simd when asked or without them.
import assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';

import { launchChromium, repo, screenshot, startServer, watch, within } from './lib.js';

// nchw -> nhwc of 0..59 over 1x3x4x5
const WANT = [];
for (let hw = 0; hw < 20; hw++) for (let c = 0; c < 3; c++) WANT.push(c * 20 + hw);

describe('the npm package in a Vite app', { timeout: 120000 }, () => {
  let dir, app, dist, isolated, plain, browser;

  before(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'relayout-vite-'));
    const npm = (args, cwd) => execFileSync('npm', args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, npm_config_loglevel: 'error', npm_config_update_notifier: 'false' } });
    const packed = JSON.parse(npm(['pack', '--json', '--pack-destination', dir], repo));
    app = path.join(dir, 'app');
    mkdirSync(app);
    cpSync(path.join(repo, 'tests/browser/vite-app'), app, { recursive: true });
    writeFileSync(path.join(app, 'package.json'), JSON.stringify({ name: 'vite-app', private: true, type: 'module' }));
    npm(['install', '--offline', '--no-audit', '--no-fund', path.join(dir, packed[0].filename)], app);
    execFileSync(process.execPath, [path.join(repo, 'node_modules/vite/bin/vite.js'), 'build', '--logLevel', 'error'],
      { cwd: app, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
    dist = path.join(app, 'dist');
    [isolated, plain, browser] = await Promise.all([startServer(['--root', dist]),
      startServer(['--root', dist, '--no-isolation']), launchChromium()]);
  });

  after(async () => {
    await browser?.close();
    await isolated?.stop();
    await plain?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  test('the build emits the three .wasm files and the glue', () => {
    const assets = readdirSync(path.join(dist, 'assets'));
    assert.equal(assets.filter((f) => f.endsWith('.wasm')).length, 3, assets.join(', '));
    assert.ok(assets.some((f) => f.endsWith('.mjs')), `the glue the pthread workers import: ${assets.join(', ')}`);
  });

  async function run(url, name) {
    const context = await browser.newContext();
    const page = await context.newPage();
    const w = watch(page);
    try {
      await page.goto(url);
      const result = await within(page.evaluate(() => window.viteApp), 30000, `${url}: window.viteApp`);
      await screenshot(page, name, { minColours: 2 });
      return { result, w };
    } finally {
      await context.close();
    }
  }

  test('with COOP/COEP: simd-threads, its .wasm and workers load, the reorder is right', async () => {
    const { result, w } = await run(isolated.url, 'vite-app');
    assert.equal(result.build, 'simd-threads');
    assert.equal(result.isolated, true);
    assert.deepEqual(result.y, WANT);
    const wasm = w.responses.filter((r) => r.url.endsWith('.wasm'));
    assert.equal(wasm.length, 1, JSON.stringify(w.responses));
    assert.equal(wasm[0].status, 200);
    assert.equal(wasm[0].type, 'application/wasm');
    assert.ok(w.workers.length >= Math.max(1, result.threads - 1), `workers: ${w.workers.join(', ')}`);
    // the workers import the glue by URL
    assert.ok(w.responses.some((r) => r.url.endsWith('.mjs') && r.status === 200), JSON.stringify(w.responses));
    assert.deepEqual(w.problems, []);
  });

  test('with COOP/COEP, ?build=simd: the one-thread build', async () => {
    const { result, w } = await run(`${isolated.url}?build=simd`, 'vite-app-simd');
    assert.deepEqual({ build: result.build, threads: result.threads }, { build: 'simd', threads: 1 });
    assert.deepEqual(result.y, WANT);
    assert.equal(w.workers.length, 0);
    assert.deepEqual(w.problems, []);
  });

  test('Vite dev server with COOP/COEP: simd runs; simd-threads fails with an error, not a hang', async () => {
    // Vite's dev server rewrites the classic pthread worker script into a module (it adds an
    // import), so the threaded build cannot start there: load() must say so rather than wait.
    writeFileSync(path.join(app, 'vite.dev.config.js'), `export default {
      optimizeDeps: { exclude: ['tensor-relayout'] },
      server: { headers: { 'Cross-Origin-Opener-Policy': 'same-origin', 'Cross-Origin-Embedder-Policy': 'require-corp' } },
    };\n`);
    const dev = spawn(process.execPath, [path.join(repo, 'node_modules/vite/bin/vite.js'), '--config', 'vite.dev.config.js',
      '--port', '0', '--host', '127.0.0.1'], { cwd: app, stdio: ['ignore', 'pipe', 'pipe'] });
    try {
      let out = '';
      const url = await within(new Promise((resolve) => {
        const onData = (d) => {
          out += d;
          // eslint-disable-next-line no-control-regex
          const m = /Local:\s+(http:\/\/\S+)/.exec(out.replace(/\x1b\[[0-9;]*m/g, ''));
          if (m) resolve(m[1]);
        };
        dev.stdout.on('data', onData);
        dev.stderr.on('data', onData);
      }), 20000, 'vite dev server start');
      const context = await browser.newContext();
      try {
        const page = await context.newPage();
        await page.goto(`${url}?build=simd`);
        const r = await within(page.evaluate(() => window.viteApp), 30000, 'dev: window.viteApp (simd)');
        assert.equal(r.build, 'simd');
        assert.deepEqual(r.y, WANT);
        await page.goto(url);
        const err = await within(page.evaluate(() => window.viteApp.then(() => 'resolved', (e) => e.message)), 30000,
          'dev: window.viteApp (simd-threads)');
        assert.match(err, /a worker thread of the simd-threads build failed to start/);
      } finally {
        await context.close();
      }
    } finally {
      dev.kill();
    }
  });

  test('without COOP/COEP: falls back to simd', async () => {
    const { result, w } = await run(plain.url, 'vite-app-no-isolation');
    assert.deepEqual({ build: result.build, isolated: result.isolated }, { build: 'simd', isolated: false });
    assert.deepEqual(result.y, WANT);
    assert.deepEqual(w.problems, []);
  });
});
