'use strict';
// The frame registrar (isolated world) and native events: the token's registration and
// hand-over to the SDK in either order, and `vitrine.on` / `off` fed by `vitrineEvent`.
const test = require('node:test');
const assert = require('node:assert');
const { Frame } = require('./support/fake-webkit.js');

test('the registrar posts token \\n main \\n origin \\n url on vitrine-frame, in its own world, once the bridge is used', () => {
  const frame = new Frame({ origin: 'https://shop.example', href: 'https://shop.example/cart?id=1#top' });
  assert.deepStrictEqual(frame.isolated.posts, [], 'nothing before the page uses the bridge');
  frame.vitrine.on('anything', () => {});
  const [registration] = frame.isolated.posts;
  assert.strictEqual(registration.handler, 'vitrine-frame');
  const [token, kind, origin, url, ...rest] = registration.message.split('\n');
  assert.match(token, /^[0-9a-f]{32}$/);
  assert.strictEqual(token, frame.handedToken);
  assert.strictEqual(kind, 'main');
  assert.strictEqual(origin, 'https://shop.example');
  assert.strictEqual(url, 'https://shop.example/cart?id=1#top');
  assert.deepStrictEqual(rest, []);
  frame.vitrine.on('more', () => {});
  assert.strictEqual(frame.isolated.posts.length, 1, 'registered once');
  assert.strictEqual(frame.page.posts.length, 0);
});

test('a document that never uses the bridge sends no message, not even when it goes', () => {
  const frame = new Frame({ origin: 'https://shop.example' });
  frame.hide(true);
  frame.show();
  frame.hide(false);
  assert.deepStrictEqual(frame.isolated.posts, []);
  assert.deepStrictEqual(frame.page.posts, []);
});

test('the first call registers before its own message leaves', async () => {
  let registeredFirst = null;
  const frame = new Frame({
    origin: 'https://shop.example',
    respond: (post) => { registeredFirst = frame.isolated.posts.length === 1; return post.message; },
  });
  assert.strictEqual(await frame.vitrine.invoke('ping', 'x'), frame.token + 'sx');
  assert.strictEqual(registeredFirst, true);
  assert.strictEqual(frame.isolated.posts[0].message.split('\n')[0], frame.token);
});

test('a sandboxed frame registers its true origin, null, not its URL\'s', () => {
  const frame = new Frame({ origin: 'https://shop.example', selfOrigin: 'null', mainFrame: false });
  frame.vitrine.on('x', () => {});
  const [, kind, origin, url] = frame.isolated.posts[0].message.split('\n');
  assert.strictEqual(kind, 'frame');
  assert.strictEqual(origin, 'null');
  assert.strictEqual(url, 'https://shop.example/index.html');
});

test('a page cannot change the origin or URL the registrar reports, nor register twice', () => {
  const frame = new Frame({ origin: 'https://shop.example', selfOrigin: 'null', order: 'sdk-first' });
  frame.page.eval("self.origin = 'https://shop.example'; location.href = 'https://shop.example/forged'; location.origin");
  // The page asks for the registration itself, twice, then uses the bridge.
  frame.page.eval("document.dispatchEvent(new CustomEvent('vitrine:register', { detail: 'https://bank.example' }))");
  frame.page.eval("document.dispatchEvent(new CustomEvent('vitrine:register'))");
  frame.vitrine.on('x', () => {});
  assert.strictEqual(frame.isolated.posts.length, 1);
  const [, , origin, url] = frame.isolated.posts[0].message.split('\n');
  assert.strictEqual(origin, 'null');
  assert.strictEqual(url, 'https://shop.example/index.html');
});

test('the document says when it goes, and registers the same token again when it comes back', () => {
  const frame = new Frame({ origin: 'https://shop.example' });
  frame.vitrine.on('x', () => {});
  const token = frame.token;
  frame.hide(true);
  assert.strictEqual(frame.isolated.posts[1].message, token + '\ngone');
  frame.show();
  assert.strictEqual(frame.isolated.posts[2].message, token + '\nmain\nhttps://shop.example\nhttps://shop.example/index.html');
  frame.hide(false);
  assert.strictEqual(frame.isolated.posts[3].message, token + '\ngone');
  assert.strictEqual(frame.isolated.posts.length, 4);
});

test('a page listener that stops pagehide cannot keep the token alive', () => {
  const frame = new Frame({ origin: 'https://shop.example', order: 'sdk-first' });
  frame.vitrine.on('x', () => {});
  frame.page.eval("addEventListener('pagehide', function (e) { e.stopImmediatePropagation(); }, true)");
  frame.hide(false);
  assert.strictEqual(frame.isolated.posts[1].message, frame.token + '\ngone');
});

test('each frame draws its own token', () => {
  const tokens = new Set(Array.from({ length: 20 }, () => new Frame().token));
  assert.strictEqual(tokens.size, 20);
});

for (const order of ['registrar-first', 'sdk-first']) {
  test('the SDK gets the token whichever script runs first (' + order + ')', async () => {
    const frame = new Frame({ order, respond: (post) => post.message });
    assert.strictEqual(await frame.vitrine.invoke('ping', 'x'), frame.token + 'sx');
  });
}

test('the token is taken once; a page\'s later vitrine:token event changes nothing', async () => {
  const frame = new Frame({ respond: (post) => post.message });
  frame.page.eval("document.dispatchEvent(new CustomEvent('vitrine:token', { detail: 'forged' }))");
  assert.strictEqual(await frame.vitrine.invoke('ping', 'x'), frame.token + 'sx');
});

test('no vitrine-frame handler: no registration, no token, yet events still arrive', () => {
  const frame = new Frame({ registrar: false });
  assert.deepStrictEqual(frame.isolated.posts, []);
  const seen = [];
  frame.vitrine.on('tick', (payload) => seen.push(payload));
  frame.emit('tick', '1');
  assert.deepStrictEqual(seen, [1]);
});

test('the registrar\'s globals stay in its world', () => {
  const frame = new Frame();
  assert.strictEqual(frame.page.eval('typeof vitrineEvent'), 'undefined');
  assert.strictEqual(frame.isolated.eval('typeof vitrineEvent'), 'function');
  assert.strictEqual(frame.isolated.eval('typeof vitrine'), 'undefined');
});

test('native events reach vitrine.on listeners of that name, payload parsed', () => {
  const frame = new Frame();
  const seen = [];
  frame.vitrine.on('cart-changed', (payload) => seen.push(['first', payload]));
  frame.vitrine.on('cart-changed', (payload) => seen.push(['second', payload]));
  frame.vitrine.on('other', (payload) => seen.push(['other', payload]));
  frame.emit('cart-changed', '{"items":3,"note":"line\\nbreak \'quoted\'"}');
  assert.deepStrictEqual(JSON.parse(JSON.stringify(seen)), [
    ['first', { items: 3, note: "line\nbreak 'quoted'" }],
    ['second', { items: 3, note: "line\nbreak 'quoted'" }],
  ]);
});

test('a name with a newline, and a payload that is not JSON', () => {
  const frame = new Frame();
  const seen = [];
  frame.vitrine.on('a', (payload) => seen.push(payload));
  frame.emit('a', 'not json');
  frame.emit('a\nb', '1');
  assert.deepStrictEqual(seen, []);
  // Details that are not `name \n JSON` strings, dispatched by the page itself.
  frame.page.eval("document.dispatchEvent(new CustomEvent('vitrine:event', { detail: 42 }))");
  frame.page.eval("document.dispatchEvent(new CustomEvent('vitrine:event', { detail: 'a' }))");
  assert.deepStrictEqual(seen, []);
});

test('off and the function on returns both remove a listener', () => {
  const frame = new Frame();
  const seen = [];
  const listener = (payload) => seen.push(payload);
  const remove = frame.vitrine.on('n', listener);
  frame.emit('n', '1');
  remove();
  frame.emit('n', '2');
  frame.vitrine.on('n', listener);
  frame.emit('n', '3');
  frame.vitrine.off('n', listener);
  frame.emit('n', '4');
  frame.vitrine.off('never-added', listener);
  assert.deepStrictEqual(seen, [1, 3]);
});

test('a throwing listener does not stop the others; its error is rethrown later', () => {
  const frame = new Frame();
  const seen = [];
  frame.vitrine.on('n', () => { throw new Error('listener bug'); });
  frame.vitrine.on('n', (payload) => seen.push(payload));
  frame.emit('n', '"x"');
  assert.deepStrictEqual(seen, ['x']);
  assert.deepStrictEqual(frame.thrown.map((error) => error.message), ['listener bug']);
});

test('on needs a function', () => {
  const frame = new Frame();
  assert.throws(() => frame.vitrine.on('n', 'not a function'), {
    name: 'TypeError', message: 'vitrine.on: listener must be a function',
  });
});
