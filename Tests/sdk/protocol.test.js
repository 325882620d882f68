'use strict';
// The constants the SDK shares with Swift come from Resources/sdk/protocol.json, declared
// by the loader around the injected files (SDKFile.script; docs/bridge-protocol.md): the
// files hold none of their own, and page scripts never see the declaration.
const test = require('node:test');
const assert = require('node:assert');
const fs = require('node:fs');
const path = require('node:path');
const { Frame, PROTOCOL, SDK_DIR } = require('./support/fake-webkit.js');

test('the SDK opens channels after protocol.json\'s count, whatever it is', async () => {
  const frame = new Frame({ respond: () => null, protocol: { channelAfter: 3, jsonPort: '.json' } });
  frame.page.register('ping#' + frame.token);
  frame.page.register('ping#' + frame.token + '.json');
  for (let i = 0; i < 3; i++) await frame.vitrine.invoke('ping', 'x');
  assert.ok(frame.page.posts.every((post) => post.handler === 'ping'));
  frame.vitrine.invoke('ping', 'x');
  frame.vitrine.invoke('ping', { n: 1 });
  assert.deepStrictEqual(frame.page.posts.slice(-2).map((post) => post.handler),
    ['ping#' + frame.token, 'ping#' + frame.token + '.json']);
});

test('the registrar posts on protocol.json\'s handler and defines its event function', () => {
  const frame = new Frame({ registrar: false, protocol: { frameHandler: 'other-frame', eventFunction: 'otherEvent' } });
  assert.strictEqual(frame.isolated.posts.length, 0, 'no handler of that name: nothing posted');
  assert.strictEqual(frame.isolated.eval('typeof otherEvent'), 'function');
  assert.strictEqual(frame.isolated.eval('typeof vitrineEvent'), 'undefined');
  const registered = new Frame({ registrar: false, protocol: { frameHandler: 'other-frame' } });
  assert.strictEqual(registered.token, undefined);
});

test('page scripts cannot read or replace the constants', () => {
  const frame = new Frame();
  assert.strictEqual(frame.page.eval('typeof VITRINE_PROTOCOL'), 'undefined');
  assert.strictEqual(frame.isolated.eval('typeof VITRINE_PROTOCOL'), 'undefined');
  // A page that declares the name itself changes nothing for the SDK already running.
  frame.page.eval('var VITRINE_PROTOCOL = { channelAfter: 1 };');
  assert.strictEqual(typeof frame.vitrine.invoke, 'function');
});

test('no shipped file declares a shared constant of its own', () => {
  for (const file of fs.readdirSync(SDK_DIR).filter((name) => name.endsWith('.js'))) {
    const text = fs.readFileSync(path.join(SDK_DIR, file), 'utf8');
    for (const [name, value] of Object.entries(PROTOCOL)) {
      // The world's name is native code's only (and a common word).
      if (typeof value !== 'string' || value.length < 3 || name === 'worldName') continue;
      assert.ok(!text.includes("'" + value + "'"), `${file} writes ${name} (${value}) itself instead of VITRINE_PROTOCOL.${name}`);
    }
    assert.ok(!/var (SHORT_STRING|CHANNEL_AFTER|CHANNEL_POSTS|BATCH_LIMIT) = \d/.test(text), `${file} writes a number of protocol.json`);
  }
});
