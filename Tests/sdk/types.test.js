'use strict';
// The SDK's types (Resources/sdk/vitrine.d.ts) with an app's strategies declared as `vitrine
// new` writes them (templates/app/web/strategies.d.ts): tsc (Debian's node-typescript)
// accepts the template's page script and rejects each misuse in types/misuse.js.
const test = require('node:test');
const assert = require('node:assert');
const fs = require('node:fs');
const path = require('node:path');
const { spawnSync } = require('node:child_process');

const ROOT = path.join(__dirname, '..', '..');
const WEB = path.join(ROOT, 'Resources', 'templates', 'app', 'web');

function tsc(files) {
  const run = spawnSync('tsc', ['--noEmit', '--strict', '--allowJs', '--checkJs', '--target', 'es2022',
    '--lib', 'es2022,dom', '--pretty', 'false', ...files], { encoding: 'utf8' });
  assert.ok(!run.error, 'tsc runs (apt install node-typescript): ' + (run.error && run.error.message));
  return run;
}

test("the template's page script type-checks against the SDK and the app's strategies", (t) => {
  // web/ as `vitrine new` writes it: the template's files and the SDK's vitrine.d.ts.
  const web = fs.mkdtempSync(path.join(require('node:os').tmpdir(), 'vitrine-web-'));
  t.after(() => fs.rmSync(web, { recursive: true, force: true }));
  for (const name of fs.readdirSync(WEB)) fs.copyFileSync(path.join(WEB, name), path.join(web, name));
  fs.copyFileSync(path.join(ROOT, 'Resources', 'sdk', 'vitrine.d.ts'), path.join(web, 'vitrine.d.ts'));
  const run = tsc([path.join(web, 'app.js')]);
  assert.strictEqual(run.status, 0, run.stdout + run.stderr);
});

test('each misuse of a typed strategy is a type error on its own line', () => {
  const file = path.join(__dirname, 'types', 'misuse.js');
  const expected = fs.readFileSync(file, 'utf8').split('\n')
    .flatMap((line, index) => (line.includes('expect-error') ? [index + 1] : []));
  const run = tsc([file]);
  assert.notStrictEqual(run.status, 0, 'tsc must fail');
  const reported = new Set(Array.from(run.stdout.matchAll(/misuse\.js\((\d+),\d+\): error/g), (m) => Number(m[1])));
  assert.deepStrictEqual([...reported].sort((a, b) => a - b), expected, run.stdout);
});

test("the SDK's page-errors.js sends page-error reports of the Swift strategy's shape", () => {
  // vitrine.d.ts's `page-error` is written from PageErrorStrategy.Request (make sdk-types).
  const run = tsc([path.join(ROOT, 'Resources', 'sdk', 'page-errors.js'), path.join(ROOT, 'Resources', 'sdk', 'vitrine.d.ts')]);
  assert.strictEqual(run.status, 0, run.stdout + run.stderr);
});
