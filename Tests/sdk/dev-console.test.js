'use strict';
// `vitrine dev`'s dev-console.js in a bare context: each kind of page error becomes one
// `dev-console` call with its file, line and column.
const test = require('node:test');
const assert = require('node:assert');
const fs = require('node:fs');
const path = require('node:path');
const vm = require('node:vm');

const SOURCE = fs.readFileSync(path.join(__dirname, '..', '..', 'Resources', 'sdk', 'dev-console.js'), 'utf8');

function page() {
  const calls = [], listeners = {}, printed = [];
  const context = {
    location: { href: 'app://app/index.html' },
    console: { error: (...args) => printed.push(args) },
    Error, String, Number, Array,
  };
  context.window = {
    vitrine: { invoke: (name, payload) => { calls.push({ name, payload }); return Promise.resolve(true); } },
    addEventListener: (type, listener) => { listeners[type] = listener; },
  };
  vm.createContext(context);
  vm.runInContext(SOURCE, context, { filename: 'app://app/dev-console.js' });
  return { context, calls, listeners, printed };
}

test('uncaught errors and rejections are sent with their place', () => {
  const { calls, listeners } = page();
  listeners.error({ message: 'ReferenceError: x', filename: 'app://app/app.js', lineno: 3, colno: 18 });
  listeners.unhandledrejection({ reason: { message: 'nobody caught me', stack: 'f@app://app/app.js:2:25' } });
  assert.deepStrictEqual(JSON.parse(JSON.stringify(calls.map((call) => call.payload))), [
    { kind: 'error', message: 'ReferenceError: x', source: 'app://app/app.js', line: 3, column: 18 },
    { kind: 'unhandledrejection', message: 'nobody caught me', source: 'app://app/app.js', line: 2, column: 25 },
  ]);
  assert.ok(calls.every((call) => call.name === 'dev-console'));
});

test('console.error is sent with its caller and still printed', () => {
  const { context, calls, printed } = page();
  vm.runInContext("function caller() { console.error('bad thing', 42); }\ncaller();", context, { filename: 'app://app/app.js' });
  assert.strictEqual(calls.length, 1);
  assert.strictEqual(calls[0].payload.kind, 'console.error');
  assert.strictEqual(calls[0].payload.message, 'bad thing 42');
  assert.strictEqual(calls[0].payload.source, 'app://app/app.js');
  assert.strictEqual(calls[0].payload.line, 1);
  assert.deepStrictEqual(printed, [['bad thing', 42]]);
});

test('without the SDK it does nothing', () => {
  const context = { window: {}, console: { error() {} }, location: { href: 'x' } };
  vm.createContext(context);
  vm.runInContext(SOURCE, context);
  assert.strictEqual(typeof context.console.error, 'function');
});
