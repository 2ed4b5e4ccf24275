// SPDX-License-Identifier: Apache-2.0
// Runs the benchmark page (web/bench.html) in headless Chromium and prints its table as
// Markdown (`npm run bench:browser`); with --resize its resampling suite (bench.html?suite=resize,
// `npm run bench:browser:resize`). Uses the same server and browser set-up as the tests.
//
//   node tests/browser/run-bench.js [--resize [--peers]] [--quick] [--no-isolation]
//
// --peers: the resampling suite also times onnxruntime-web's Tensor.fromImage (install it first:
// npm install --prefix bench/js/peers).
import { parseArgs } from 'node:util';

import { launchChromium, screenshot, startServer, watch, within } from './lib.js';

let args;
try {
  ({ values: args } = parseArgs({ options: { quick: { type: 'boolean' }, 'no-isolation': { type: 'boolean' },
    resize: { type: 'boolean' }, peers: { type: 'boolean' } } }));
} catch (e) {
  console.error(`run-bench.js: ${e.message} (--resize, --peers, --quick, --no-isolation)`);
  process.exit(2);
}
const server = await startServer({ isolation: !args['no-isolation'] });
const browser = await launchChromium();
try {
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  const w = watch(page);
  const resize = args.resize;
  const query = [resize && 'suite=resize', args.peers && 'peers=1', args.quick && 'quick=1']
    .filter(Boolean).join('&');
  await page.goto(`${server.url}bench.html${query ? `?${query}` : ''}`);
  const r = await within(page.evaluate(() => window.relayoutBench.done), 600000, 'the benchmark page');
  const shot = await screenshot(page, resize ? 'bench-resize-full' : 'bench-full');
  console.log(r.markdown);
  console.log(`\n${r.seconds.toFixed(1)} s in the page; screenshot ${shot.file}`);
  if (w.problems.length) {
    console.error(`problems on the page:\n  ${w.problems.join('\n  ')}`);
    process.exitCode = 1;
  }
} finally {
  await browser.close();
  await server.stop();
}
