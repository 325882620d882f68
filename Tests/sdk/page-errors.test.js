'use strict';
// page-errors.js in a bare context: uncaught errors and unhandled rejections become
// `page-error` calls, the first ten distinct ones of a document, each bounded.
const test = require('node:test');
const assert = require('node:assert');
const fs = require('node:fs');
const path = require('node:path');
const vm = require('node:vm');

const SOURCE = fs.readFileSync(path.join(__dirname, '..', '..', 'Resources', 'sdk', 'page-errors.js'), 'utf8');

function page() {
  const calls = [], listeners = {};
  const context = { location: { href: 'app://app/index.html' }, Object, String, Number, Math, Error };
  context.window = {
    vitrine: { invoke: (name, payload) => { calls.push({ name, payload }); return Promise.resolve(true); } },
    addEventListener: (type, listener) => { listeners[type] = listener; },
  };
  vm.createContext(context);
  vm.runInContext(SOURCE, context, { filename: 'app://app/page-errors.js' });
  return { calls, listeners };
}

const plain = (calls) => JSON.parse(JSON.stringify(calls.map((call) => call.payload)));

test('an uncaught error and an unhandled rejection are sent with their place and stack', () => {
  const { calls, listeners } = page();
  listeners.error({ message: 'TypeError: x is undefined', filename: 'app://app/app.js', lineno: 3, colno: 18,
    error: { stack: 'f@app://app/app.js:3:18' } });
  listeners.unhandledrejection({ reason: { message: 'nobody caught me', stack: 'g@app://app/app.js:7:5\nglobal code@app://app/app.js:9:1' } });
  listeners.unhandledrejection({ reason: 'a plain string' });
  assert.deepStrictEqual(plain(calls), [
    { kind: 'error', message: 'TypeError: x is undefined', source: 'app://app/app.js', line: 3, column: 18, stack: 'f@app://app/app.js:3:18' },
    { kind: 'unhandledrejection', message: 'nobody caught me', source: 'app://app/app.js', line: 7, column: 5,
      stack: 'g@app://app/app.js:7:5\nglobal code@app://app/app.js:9:1' },
    { kind: 'unhandledrejection', message: 'a plain string', source: 'app://app/index.html', line: 0, column: 0 },
  ]);
  assert.ok(calls.every((call) => call.name === 'page-error'));
});

test('a flood sends the first ten distinct errors only', () => {
  const { calls, listeners } = page();
  for (let i = 0; i < 1000; i++) listeners.error({ message: 'same', filename: 'app://app/app.js', lineno: 1, colno: 1 });
  assert.strictEqual(calls.length, 1, 'duplicates are sent once');
  for (let i = 0; i < 1000; i++) listeners.error({ message: 'error ' + i, filename: 'app://app/app.js', lineno: i, colno: 1 });
  assert.strictEqual(calls.length, 10);
  assert.strictEqual(calls[9].payload.message, 'error 8');
});

test('messages and stacks are bounded; a failed resource load is not an exception', () => {
  const { calls, listeners } = page();
  listeners.error({ message: 'm'.repeat(100000), filename: 'app://app/app.js', lineno: 1, colno: 1, error: { stack: 's'.repeat(100000) } });
  listeners.error({ target: { src: 'missing.png' } });
  assert.strictEqual(calls.length, 1);
  assert.strictEqual(calls[0].payload.message.length, 1024);
  assert.strictEqual(calls[0].payload.stack.length, 4096);
});

test('without the SDK it does nothing', () => {
  const listeners = {};
  const context = { window: { addEventListener: (type, l) => { listeners[type] = l; } }, location: { href: 'x' } };
  vm.createContext(context);
  vm.runInContext(SOURCE, context);
  assert.deepStrictEqual(Object.keys(listeners), []);
});
