// SPDX-License-Identifier: Apache-2.0
// The npm package as users get it: `npm pack`, install the tarball into an empty project, run
// the README's JavaScript quick start there (extracted from README.md, so the README stays
// true) and check that the process exits by itself.
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

const repo = fileURLToPath(new URL('../../', import.meta.url));

/** The ```js block that follows `<!-- example: NAME -->` in README.md. */
export function readmeExample(name) {
  const readme = readFileSync(join(repo, 'README.md'), 'utf8');
  const at = readme.indexOf(`<!-- example: ${name} -->`);
  assert.ok(at >= 0, `README.md has no '<!-- example: ${name} -->' marker`);
  const m = /```js\n([\s\S]*?)```/.exec(readme.slice(at));
  assert.ok(m, `no js code block after the ${name} marker`);
  return m[1];
}

test('npm pack -> install into an empty project -> README example runs and exits alone', () => {
  const dir = mkdtempSync(join(tmpdir(), 'relayout-pack-'));
  try {
    const npm = (args, cwd) => execFileSync('npm', args, { cwd, encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, npm_config_loglevel: 'error' } });
    const packed = JSON.parse(npm(['pack', '--json', '--pack-destination', dir], repo));
    const files = packed[0].files.map((f) => f.path);
    for (const build of ['simd-threads', 'simd', 'baseline'])
      assert.ok(files.includes(`bindings/js/dist/${build}/relayout.wasm`), `${build} is packed`);
    assert.ok(!files.some((f) => f.startsWith('src/') || f.startsWith('tests/')), 'no sources in the package');
    for (const f of ['LICENSE', 'NOTICE', 'bindings/js/image.js', 'bindings/js/checks.js']) assert.ok(files.includes(f), `${f} is packed`);
    const app = join(dir, 'app');
    execFileSync('mkdir', [app]);
    writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'app', private: true, type: 'module' }));
    npm(['install', '--no-audit', '--no-fund', '--offline', join(dir, packed[0].filename)], app);
    writeFileSync(join(app, 'example.js'), readmeExample('js-quickstart'));
    const t0 = Date.now();
    const run = spawnSync(process.execPath, ['example.js'], { cwd: app, encoding: 'utf8', timeout: 30000 });
    assert.equal(run.signal, null, `the example did not exit by itself within 30 s:\n${run.stdout}${run.stderr}`);
    assert.equal(run.status, 0, `the example failed:\n${run.stdout}${run.stderr}`);
    assert.match(run.stdout, /simd-threads \d+ 1228800 150528 0.3333 140 0.4471/);
    console.log(`example output: ${run.stdout.trim()} (${Date.now() - t0} ms)`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
