// SPDX-License-Identifier: Apache-2.0
// Shared by the demo (index.html) and the benchmark page (bench.html): loading builds, the
// "build in use" line, number formatting and the bar charts.
import { BUILDS, load } from '/bindings/js/browser.js';

export { BUILDS };

/** True when the server sent COOP/COEP: the threaded build can run. */
export const isolated = globalThis.crossOriginIsolated === true;

const loaded = new Map(); // build -> Promise<Relayout>

/** The best build this page allows (what `load()` picks), remembered under its name. */
export async function loadBest() {
  const rl = await load();
  loaded.set(rl.build, Promise.resolve(rl));
  return rl;
}

/** A given build, loaded once. Rejects when the page cannot run it. */
export function loadBuild(build) {
  if (!loaded.has(build)) loaded.set(build, load({ build }));
  return loaded.get(build);
}

/** Why a build cannot run here, or null when it can. */
export function unavailable(build) {
  if (build === 'simd-threads' && !isolated)
    return 'needs a crossOriginIsolated page (COOP/COEP headers)';
  if (build !== 'baseline' && typeof WebAssembly.validate === 'function') {
    // the same probe as bindings/js/builds.js: (func (result v128) v128.const 0)
    const probe = new Uint8Array([0, 97, 115, 109, 1, 0, 0, 0, 1, 5, 1, 96, 0, 1, 123, 3, 2, 1, 0,
      10, 22, 1, 20, 0, 253, 12, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 11]);
    if (!WebAssembly.validate(probe)) return 'this browser has no WebAssembly SIMD128';
  }
  return null;
}

/** 'simd-threads · 2 threads' */
export function buildLabel(rl) {
  return `${rl.build} · ${rl.threads} thread${rl.threads === 1 ? '' : 's'}`;
}

/** Fills the page's status bar (made after the header when the page has none): the build in
 *  use in plain text, and why when it fell back. */
export function showStatus(rl) {
  if (!document.getElementById('build')) {
    const bar = Object.assign(document.createElement('div'), { className: 'status', role: 'status' });
    bar.innerHTML = '<span>Build in use:</span><span id="build" class="pill"></span><span id="build-note" class="note"></span>';
    document.querySelector('header')?.after(bar);
  }
  const pill = document.getElementById('build');
  pill.textContent = buildLabel(rl);
  pill.classList.toggle('fallback', rl.build !== 'simd-threads');
  const note = document.getElementById('build-note');
  if (rl.build === 'simd-threads') {
    note.textContent = `cross-origin isolated: relayout runs its WebAssembly SIMD kernels on ${rl.threads} threads ` +
      `(kernels: ${rl.isa}, relayout ${rl.version})`;
  } else {
    note.classList.add('warn');
    note.textContent = isolated
      ? `relayout fell back to the ${rl.build} build (kernels: ${rl.isa})`
      : `fell back to the one-thread ${rl.build} build: this page is not cross-origin isolated ` +
        '(the server did not send Cross-Origin-Opener-Policy / Cross-Origin-Embedder-Policy), ' +
        'so SharedArrayBuffer and threads are off';
  }
}

/** Shows an error on the page (and in the console, where the tests look). */
export function showError(e) {
  console.error(e);
  let el = document.getElementById('error');
  if (!el) {
    el = document.createElement('div');
    el.id = 'error';
    el.className = 'error-banner';
    document.querySelector('.status')?.after(el);
  }
  el.textContent = `Error: ${e?.message ?? e}`;
}

/** The browser, its threads and the page's isolation, for a benchmark's table. */
export function environment(quick) {
  const m = /(Chrom(?:e|ium)|Firefox|Version)\/([\d.]+)/.exec(navigator.userAgent);
  const browser = m ? `${m[1] === 'Version' ? 'Safari' : m[1]} ${m[2]}` : navigator.userAgent;
  return `${browser}, ${navigator.hardwareConcurrency ?? '?'} hardware threads, ` +
    `crossOriginIsolated ${isolated}${quick ? ', quick mode (few runs)' : ''}`;
}

/** Milliseconds with sensible digits. */
export function fmtMs(ms) {
  if (!Number.isFinite(ms)) return '–';
  return ms >= 100 ? ms.toFixed(0) : ms >= 10 ? ms.toFixed(1) : ms >= 1 ? ms.toFixed(2) : ms.toFixed(3);
}

/**
 * Median time of one call of fn in ms, like bench/js/workloads.js's timeMedian, but each sample
 * times a batch of calls lasting about `sampleMs`: browsers coarsen performance.now() (100 µs
 * without cross-origin isolation, 5 µs with it), which would turn sub-millisecond calls into
 * noise. { warmup, samples, sampleMs, budgetMs }; returns { median, runs, batch }.
 */
export function timeBatched(fn, { warmup = 2, samples = 15, sampleMs = 2, budgetMs = 1500 } = {}) {
  for (let i = 0; i < warmup; i++) fn();
  let batch = 1;
  for (;;) { // the batch size: calls that last at least sampleMs
    const t0 = performance.now();
    for (let i = 0; i < batch; i++) fn();
    const dt = performance.now() - t0;
    if (dt >= sampleMs || batch >= 1 << 16) break;
    batch = Math.min(1 << 16, dt > 0 ? Math.ceil((batch * sampleMs * 1.2) / dt) : batch * 8);
  }
  const times = [];
  const start = performance.now();
  for (let s = 0; s < samples; s++) {
    const t0 = performance.now();
    for (let i = 0; i < batch; i++) fn();
    times.push((performance.now() - t0) / batch);
    if (times.length >= 5 && performance.now() - start > budgetMs) break;
  }
  times.sort((a, b) => a - b);
  return { median: times[times.length >> 1], runs: times.length * batch, batch };
}

/** Lets the page paint before the next piece of work. */
export const nextFrame = () => new Promise((r) => setTimeout(r, 0));

/**
 * Horizontal bars into `el`: rows of { label, value (ms), text, extra (muted, after text),
 * kind ('' | 'js' | 'copy'), note (shown instead of a bar when value is missing) }. Bars are
 * proportional to value.
 */
export function drawBars(el, rows, { max } = {}) {
  const top = max ?? Math.max(...rows.map((r) => (Number.isFinite(r.value) ? r.value : 0)), 1e-9);
  el.replaceChildren(...rows.map((r) => {
    const row = document.createElement('div');
    row.className = 'bar-row';
    const label = document.createElement('div');
    label.className = 'label';
    label.textContent = r.label;
    const track = document.createElement('div');
    track.className = 'track';
    const value = document.createElement('div');
    value.className = 'value';
    if (Number.isFinite(r.value)) {
      const fill = document.createElement('div');
      fill.className = `fill ${r.kind ?? ''}`;
      fill.style.width = `${Math.max(0.5, (100 * r.value) / top)}%`;
      track.append(fill);
      value.textContent = r.text ?? `${fmtMs(r.value)} ms`;
      if (r.extra) {
        const extra = document.createElement('span');
        extra.className = 'speed';
        extra.textContent = ` ${r.extra}`;
        value.append(extra);
      }
    } else {
      row.classList.add('na');
      value.textContent = r.note ?? 'not available';
    }
    row.append(label, track, value);
    return row;
  }));
}
