'use strict';
// The page SDK on the shared handler: what `vitrine.invoke` posts, how answers and
// rejections reach the page, and the WKWebView form `window.webkit.messageHandlers`.
const test = require('node:test');
const assert = require('node:assert');
const fs = require('node:fs');
const path = require('node:path');
const { Frame, plain, settle, SDK_DIR } = require('./support/fake-webkit.js');

/** The member names of interface `name` in vitrine.d.ts. */
function declaredMembers(name) {
  const types = fs.readFileSync(path.join(SDK_DIR, 'vitrine.d.ts'), 'utf8');
  const body = types.match(new RegExp('interface ' + name + ' \\{([\\s\\S]*?)\\n\\}'))[1];
  return Array.from(new Set(Array.from(body.matchAll(/^ {2}(?:readonly )?(\w+)[<(:]/gm), (match) => match[1]))).sort();
}

test('a string payload goes as token + "s" + text and resolves with the answer', async () => {
  const frame = new Frame();
  const call = frame.vitrine.invoke('ping', 'hello');
  const [post] = frame.page.take();
  assert.strictEqual(post.handler, 'ping');
  assert.strictEqual(post.message, frame.token + 's' + 'hello');
  post.resolve({ j: '{"echoed":true}' });
  assert.deepStrictEqual(plain(await call), { echoed: true });
});

test('any other payload goes as token + "j" + JSON; no payload as null', async () => {
  const frame = new Frame({ respond: () => 'ok' });
  await frame.vitrine.invoke('ping', { n: 1, list: [true, null, 'x'] });
  await frame.vitrine.invoke('ping');
  await frame.vitrine.invoke('ping', 42);
  assert.deepStrictEqual(frame.page.posts.map((post) => post.message), [
    frame.token + 'j{"n":1,"list":[true,null,"x"]}',
    frame.token + 'jnull',
    frame.token + 'j42',
  ]);
});

test('a long string, or one with NUL or a lone surrogate, goes as {t, v}', async () => {
  const frame = new Frame({ respond: (post) => post.raw.v });
  const long = 'x'.repeat(1025);
  const edge = 'y'.repeat(1024);
  for (const text of [long, 'a\0b', 'lone \ud800 surrogate']) {
    assert.strictEqual(await frame.vitrine.invoke('ping', text), text);
  }
  await frame.vitrine.invoke('ping', edge);
  assert.deepStrictEqual(frame.page.posts.map((post) => post.message), [
    { t: frame.token, v: long },
    { t: frame.token, v: 'a\0b' },
    { t: frame.token, v: 'lone \ud800 surrogate' },
    frame.token + 's' + edge,
  ]);
});

test('the WKWebView form posts as vitrine.invoke does, one poster per name', async () => {
  const frame = new Frame({ respond: () => 7 });
  const handlers = frame.page.eval('window.webkit.messageHandlers');
  assert.strictEqual(await handlers.ping.postMessage({ a: 1 }), 7);
  assert.strictEqual(frame.page.posts[0].message, frame.token + 'j{"a":1}');
  assert.strictEqual(handlers.ping, handlers.ping);
  assert.ok(Object.isFrozen(handlers.ping));
  // WebKit's own handlers stay out of the page's reach.
  assert.notStrictEqual(handlers.ping, frame.page.handlers.ping);
  await assert.rejects(handlers.nothing.postMessage(1), { message: "no strategy for message 'nothing'" });
});

test('window.vitrine is frozen, versioned, and installed once', () => {
  const frame = new Frame();
  const vitrine = frame.vitrine;
  assert.strictEqual(vitrine.version, '1');
  assert.ok(Object.isFrozen(vitrine));
  frame.page.run('vitrine.js');
  assert.strictEqual(frame.vitrine, vitrine);
});

test('window.vitrine and its posters have the members vitrine.d.ts declares', () => {
  const frame = new Frame();
  assert.deepStrictEqual(declaredMembers('Vitrine'), ['app', 'clipboard', 'dialog', 'invoke', 'menu', 'notification', 'off', 'on', 'power', 'print', 'shell', 'shortcuts', 'sidecars', 'storage', 'tray', 'update', 'version', 'window']);
  assert.deepStrictEqual(Object.keys(frame.vitrine).sort(), declaredMembers('Vitrine'));
  for (const name of ['invoke', 'on', 'off']) assert.strictEqual(typeof frame.vitrine[name], 'function');
  assert.strictEqual(typeof frame.vitrine.version, 'string');
  const poster = frame.page.eval('window.webkit.messageHandlers.anything');
  assert.deepStrictEqual(Object.keys(poster), declaredMembers('VitrineMessageHandler'));
});

test('a strategy\'s error rejects the call with it', async () => {
  const frame = new Frame({ respond: () => { throw new Error('out of stock'); } });
  await assert.rejects(frame.vitrine.invoke('ping', 'x'), { message: 'out of stock' });
});

test('a strategy\'s Swift error ({e, c}) rejects with an Error carrying its code', async () => {
  const frame = new Frame({ handlers: ['cart.add'], respond: () => ({ e: 'cart.add: sku 7 is out of stock', c: 'CartError.outOfStock' }) });
  const error = await frame.vitrine.invoke('cart.add', { sku: 7 }).then(() => null, (reason) => reason);
  assert.ok(error instanceof frame.page.eval('Error'), 'an Error of the page');
  assert.strictEqual(error.message, 'cart.add: sku 7 is out of stock');
  assert.strictEqual(error.code, 'CartError.outOfStock');
  // WebKit's own rejections (the bridge's) have no code.
  const plainFrame = new Frame({ respond: () => { throw new Error('origin not allowed'); } });
  const bridgeError = await plainFrame.vitrine.invoke('ping', 1).then(() => null, (reason) => reason);
  assert.strictEqual(bridgeError.code, undefined);
});

test('calls that cannot go reject at once, without a post', async () => {
  const frame = new Frame({ handlers: ['ping', 'broken'] });
  frame.page.handlers.broken = {}; // no postMessage
  await assert.rejects(frame.vitrine.invoke('nothing', 1), { name: 'Error', message: "no strategy for message 'nothing'" });
  await assert.rejects(frame.vitrine.invoke('broken', 1), { message: "no strategy for message 'broken'" });
  await assert.rejects(frame.vitrine.invoke('', 1), { name: 'TypeError', message: 'vitrine.invoke: invalid handler name' });
  await assert.rejects(frame.vitrine.invoke('ping', 10n), {
    name: 'TypeError', message: /^vitrine\.invoke: payload is not JSON-serialisable: /,
  });
  await assert.rejects(frame.vitrine.invoke('ping', () => 1), {
    name: 'TypeError', message: 'vitrine.invoke: payload is not JSON-serialisable',
  });
  const cyclic = frame.page.eval('var cyclic = {}; cyclic.self = cyclic; cyclic');
  await assert.rejects(frame.vitrine.invoke('ping', cyclic), { name: 'TypeError' });
  // A name that cannot become a string: its error, as a rejection.
  const unnamed = { toString() { throw new RangeError('no name'); } };
  await assert.rejects(frame.vitrine.invoke(unnamed, 1), { name: 'RangeError', message: 'no name' });
  assert.deepStrictEqual(frame.page.posts, []);
});

test('without a registrar the frame has no token and every call rejects', async () => {
  const frame = new Frame({ registrar: false, respond: () => 'never' });
  assert.strictEqual(frame.token, undefined);
  await assert.rejects(frame.vitrine.invoke('ping', 'x'), { message: 'vitrine: no bridge in this frame' });
  assert.deepStrictEqual(frame.page.posts, []);
});

test('an answer is a string or scalar as it is, JSON text {j} parsed', async () => {
  const replies = [null, 0, '', { j: '[1,"two"]' }, { j: '{"nested":{"deep":[]}}' }, 'garbage{'];
  const frame = new Frame();
  const calls = replies.map(() => frame.vitrine.invoke('ping', 'x'));
  frame.page.take().forEach((post, i) => post.resolve(replies[i]));
  assert.deepStrictEqual(plain(await Promise.all(calls)), [null, 0, '', [1, 'two'], { nested: { deep: [] } }, 'garbage{']);
});

test('a call without WebKit handlers rejects: no strategy', async () => {
  const frame = new Frame({ handlers: [] });
  await assert.rejects(frame.vitrine.invoke('ping', 'x'), { message: "no strategy for message 'ping'" });
  await settle();
});
