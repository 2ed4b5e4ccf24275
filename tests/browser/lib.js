// SPDX-License-Identifier: Apache-2.0
// Shared by the browser tests: the demo's Vite dev server as a child process, headless Chromium
// (Debian's, through playwright-core), a watch on console errors and failed requests, and
// screenshots saved as artefacts (build/artefacts/browser/) and checked to be non-blank.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { chromium } from 'playwright-core';
import pngjs from 'pngjs';

/** PNG bytes -> { data: RGBA bytes, width, height } (pngjs). */
export function decodePng(buf) {
  return pngjs.PNG.sync.read(buf);
}

/** How many distinct colours an image has (stops counting at `cap`). */
export function distinctColours({ data }, cap = 1 << 20) {
  const seen = new Set();
  for (let i = 0; i < data.length && seen.size < cap; i += 4)
    seen.add((data[i] << 16) | (data[i + 1] << 8) | data[i + 2]);
  return seen.size;
}

export const repo = fileURLToPath(new URL('../../', import.meta.url));
export const artefacts = process.env.RELAYOUT_ARTEFACTS ?? path.join(repo, 'build/artefacts/browser');
export const CHROMIUM = process.env.RELAYOUT_CHROMIUM ?? '/usr/bin/chromium';
// --no-sandbox: CI runs as root, where Chromium's sandbox refuses to start
// Chromium's built-in test camera (a moving pattern), granted without asking
export const FAKE_CAMERA = ['--use-fake-device-for-media-stream', '--use-fake-ui-for-media-stream'];
export const CHROMIUM_ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking',
  '--disable-component-update', '--no-first-run'];

/**
 * Starts the demo and benchmark pages on Vite's dev server (`npm start`: web/vite.config.js) on a
 * free port, with the COOP/COEP headers unless `isolation` is false; resolves to { url, stop() }.
 */
export function startServer({ isolation = true } = {}) {
  return startVite(['--config', path.join(repo, 'web/vite.config.js')], repo,
    { RELAYOUT_NO_ISOLATION: isolation ? '' : '1' });
}

/**
 * Starts the repository's Vite (`vite ARGS`: the dev server, or `preview ...`) in `cwd` on a free
 * port of 127.0.0.1, with `env` added to the environment; resolves to { url, stop() } once it
 * prints its Local: URL.
 */
export function startVite(args, cwd, env = {}) {
  const child = spawn(process.execPath, [path.join(repo, 'node_modules/vite/bin/vite.js'), ...args,
    '--host', '127.0.0.1', '--port', '0'], { cwd, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => { child.kill(); reject(new Error(`vite ${args.join(' ')} printed no URL in 20 s:\n${output}`)); }, 20000);
    const onData = (d) => {
      output += d;
      // eslint-disable-next-line no-control-regex
      const m = /Local:\s+(http:\/\/\S+)/.exec(output.replace(/\x1b\[[0-9;]*m/g, ''));
      if (!m) return;
      clearTimeout(timer);
      resolve({ url: m[1], output: () => output, stop: () => stopChild(child) });
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.once('exit', (code) => { clearTimeout(timer); reject(new Error(`vite ${args.join(' ')} exited (${code}):\n${output}`)); });
  });
}

function stopChild(child) {
  return new Promise((done) => {
    if (child.exitCode !== null) return done();
    child.once('exit', () => done());
    child.kill();
  });
}

/** `promise`, or a rejection naming `what` after `ms` (a page that never answers fails, not hangs). */
export function within(promise, ms, what) {
  let timer;
  const timeout = new Promise((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: no answer in ${ms / 1000} s`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/** Headless Chromium; `args` are added to CHROMIUM_ARGS (e.g. FAKE_CAMERA). */
export async function launchChromium(args = []) {
  assert.ok(existsSync(CHROMIUM), `${CHROMIUM} is missing: install Debian's chromium ` +
    '(scripts/debian-packages.txt; scripts/setup.sh installs it) or set RELAYOUT_CHROMIUM');
  return chromium.launch({ executablePath: CHROMIUM, args: [...CHROMIUM_ARGS, ...args], headless: true });
}

/**
 * Collects what a page reports: console errors, uncaught exceptions, failed requests and HTTP
 * errors (`problems`), every console message (`console`), every response (`responses`) and the
 * workers it starts (`workers`).
 */
export function watch(page) {
  const w = { problems: [], console: [], responses: [], workers: [] };
  page.on('console', (m) => {
    w.console.push(`${m.type()}: ${m.text()}`);
    if (m.type() === 'error') w.problems.push(`console.error: ${m.text()}`);
  });
  page.on('pageerror', (e) => w.problems.push(`uncaught: ${e.message}`));
  page.on('requestfailed', (r) => w.problems.push(`request failed: ${r.url()} (${r.failure()?.errorText})`));
  page.on('response', (r) => {
    w.responses.push({ url: r.url(), status: r.status(), type: r.headers()['content-type'] });
    if (r.status() >= 400) w.problems.push(`HTTP ${r.status()}: ${r.url()}`);
  });
  page.on('worker', (worker) => w.workers.push(worker.url()));
  return w;
}

/** A full-page screenshot saved as build/artefacts/browser/NAME.png; asserts it is not blank. */
export async function screenshot(page, name, { minColours = 64 } = {}) {
  mkdirSync(artefacts, { recursive: true });
  const png = await page.screenshot({ fullPage: true });
  const file = path.join(artefacts, `${name}.png`);
  writeFileSync(file, png);
  const img = decodePng(png);
  const colours = distinctColours(img);
  assert.ok(img.width > 100 && img.height > 100, `${file}: ${img.width}x${img.height} is too small`);
  assert.ok(colours >= minColours, `${file} looks blank: ${colours} distinct colours (want >= ${minColours})`);
  return { file, colours, width: img.width, height: img.height };
}
