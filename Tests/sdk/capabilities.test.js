'use strict';
// The capabilities' namespaces (capabilities.js): what each call posts to its strategy,
// the namespaces' members against vitrine.d.ts, the PNG bytes' encoding, window events,
// and that nothing of the hand-over is left for page scripts.
const test = require('node:test');
const assert = require('node:assert');
const fs = require('node:fs');
const path = require('node:path');
const { Frame, plain, SDK_DIR } = require('./support/fake-webkit.js');

const CAPABILITIES = ['storage', 'clipboard', 'window', 'notification', 'dialog', 'shell', 'menu', 'print', 'app', 'shortcuts', 'tray', 'power', 'sidecars', 'update'];

/** The member names of interface `name` in vitrine.d.ts. */
function declaredMembers(name) {
  const types = fs.readFileSync(path.join(SDK_DIR, 'vitrine.d.ts'), 'utf8');
  const body = types.match(new RegExp('interface ' + name + ' \\{([\\s\\S]*?)\\n\\}'))[1];
  return Array.from(new Set(Array.from(body.matchAll(/^ {2}(?:readonly )?(\w+)[<(:?]/gm), (match) => match[1]))).sort();
}

/** The JSON body of each post, answered with `true`. */
async function bodies(frame, calls) {
  const results = [];
  for (const call of calls) {
    const promise = call(frame.vitrine);
    const posts = frame.page.take();
    assert.strictEqual(posts.length, 1);
    const [post] = posts;
    assert.ok(post.message.startsWith(frame.token + 'j'), 'a JSON request with the frame token');
    results.push({ handler: post.handler, body: JSON.parse(post.message.slice(frame.token.length + 1)) });
    post.resolve(true);
    await promise;
  }
  return results;
}

test('each namespace has the members vitrine.d.ts declares, frozen', () => {
  const frame = new Frame({ handlers: CAPABILITIES });
  const interfaces = { storage: 'VitrineStorage', clipboard: 'VitrineClipboard', window: 'VitrineWindow', notification: 'VitrineNotification', dialog: 'VitrineDialog', shell: 'VitrineShell', menu: 'VitrineMenu', print: 'VitrinePrint', app: 'VitrineApp', shortcuts: 'VitrineShortcuts', tray: 'VitrineTray', power: 'VitrinePower', sidecars: 'VitrineSidecars', update: 'VitrineUpdate' };
  for (const name of CAPABILITIES) {
    assert.deepStrictEqual(Object.keys(frame.vitrine[name]).sort(), declaredMembers(interfaces[name]), name);
    assert.ok(Object.isFrozen(frame.vitrine[name]), name + ' is frozen');
  }
  assert.strictEqual(frame.page.eval('typeof window.vitrineCapabilities'), 'undefined', 'the hand-over function is gone');
});

test('storage calls post {action, key, value} to the storage strategy', async () => {
  const frame = new Frame({ handlers: CAPABILITIES });
  const posted = await bodies(frame, [
    (v) => v.storage.set('cart', { items: [1, 2] }),
    (v) => v.storage.set('nothing'),
    (v) => v.storage.get('cart'),
    (v) => v.storage.remove('cart'),
    (v) => v.storage.keys(),
    (v) => v.storage.clear(),
  ]);
  assert.deepStrictEqual(posted, [
    { handler: 'storage', body: { action: 'set', key: 'cart', value: { items: [1, 2] } } },
    { handler: 'storage', body: { action: 'set', key: 'nothing', value: null } },
    { handler: 'storage', body: { action: 'get', key: 'cart' } },
    { handler: 'storage', body: { action: 'remove', key: 'cart' } },
    { handler: 'storage', body: { action: 'keys' } },
    { handler: 'storage', body: { action: 'clear' } },
  ]);
  await assert.rejects(frame.vitrine.storage.get(42), { name: 'TypeError' });
  assert.strictEqual(frame.page.take().length, 0, 'a bad key is refused without a post');
});

/** The bytes of a post that carried a byte buffer as its whole payload, answered with `true`. */
async function postedBytes(frame, call) {
  const promise = call(frame.vitrine);
  const posts = frame.page.take();
  assert.strictEqual(posts.length, 1);
  const [post] = posts;
  assert.strictEqual(post.message.t, frame.token, 'bytes with the frame token');
  post.resolve(true);
  await promise;
  return { handler: post.handler, bytes: Array.from(Buffer.from(post.message.x, 'base64')) };
}

test('a PNG image goes as the whole payload, its bytes; anything else is refused', async () => {
  const frame = new Frame({ handlers: CAPABILITIES });
  const cases = [[], [0x89], [0x89, 0x50], [0x89, 0x50, 0x4e], [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 255, 0]];
  for (const bytes of cases) {
    const typed = frame.page.eval('new Uint8Array(' + JSON.stringify(bytes) + ')');
    const posted = await postedBytes(frame, (v) => v.clipboard.writeImage(bytes.length % 2 ? typed : typed.buffer));
    assert.deepStrictEqual(posted, { handler: 'clipboard', bytes: bytes });
  }
  await assert.rejects(frame.vitrine.clipboard.writeImage('not bytes'), { name: 'TypeError' });
  await assert.rejects(frame.vitrine.clipboard.writeImage(frame.page.eval('new Uint16Array(2)')), { name: 'TypeError' });
  await assert.rejects(frame.vitrine.clipboard.writeImage({ length: 1, BYTES_PER_ELEMENT: 1, 0: 7 }), { name: 'TypeError' });
  assert.strictEqual(frame.page.take().length, 0);
  // A view of part of a buffer: only its own bytes.
  const part = frame.page.eval('new Uint8Array([1, 2, 3, 4, 5]).subarray(1, 3)');
  assert.deepStrictEqual(await postedBytes(frame, (v) => v.clipboard.writeImage(part)), { handler: 'clipboard', bytes: [2, 3] });
  const text = await bodies(frame, [(v) => v.clipboard.writeText('copied'), (v) => v.clipboard.readText()]);
  assert.deepStrictEqual(text.map((post) => post.body), [{ action: 'writeText', text: 'copied' }, { action: 'readText' }]);
});

test('window calls post their action; open sends only the options given', async () => {
  const frame = new Frame({ handlers: CAPABILITIES });
  const posted = await bodies(frame, [
    (v) => v.window.resize(640, 480),
    (v) => v.window.fullscreen(),
    (v) => v.window.keepAbove(false),
    (v) => v.window.open('second.html', { title: 'Two', width: 300 }),
    (v) => v.window.close(),
  ]);
  assert.deepStrictEqual(posted.map((post) => post.body), [
    { action: 'resize', width: 640, height: 480 },
    { action: 'fullscreen', on: true },
    { action: 'keepAbove', on: false },
    { action: 'open', url: 'second.html', title: 'Two', width: 300 },
    { action: 'close' },
  ]);
  assert.ok(posted.every((post) => post.handler === 'window'));
});

test('a notification posts its title, body, id and actions; clicks and buttons arrive as events', async () => {
  const frame = new Frame({ handlers: CAPABILITIES });
  const posted = await bodies(frame, [
    (v) => v.notification.show({ title: 'Shipped', body: 'Order 7' }),
    (v) => v.notification.show({ title: 'Again', id: 'order-7' }),
    (v) => v.notification.show({ title: 'Track?', id: 'order-7', actions: [{ id: 'track', label: 'Track' }] }),
  ]);
  assert.deepStrictEqual(posted, [
    { handler: 'notification', body: { action: 'show', title: 'Shipped', body: 'Order 7' } },
    { handler: 'notification', body: { action: 'show', title: 'Again', id: 'order-7' } },
    { handler: 'notification', body: { action: 'show', title: 'Track?', id: 'order-7', actions: [{ id: 'track', label: 'Track' }] } },
  ]);
  const clicks = [], actions = [];
  frame.vitrine.notification.on('clicked', (payload) => clicks.push(plain(payload)));
  frame.vitrine.notification.on('action', (payload) => actions.push(plain(payload)));
  frame.emit('notification:clicked', '{"id":"order-7"}');
  frame.emit('notification:action', '{"id":"order-7","action":"track"}');
  assert.deepStrictEqual(clicks, [{ id: 'order-7' }]);
  assert.deepStrictEqual(actions, [{ id: 'order-7', action: 'track' }]);
});

test('dialogs post their options; saved bytes go as base64 and read bytes come back', async () => {
  const frame = new Frame({ handlers: CAPABILITIES });
  const posted = await bodies(frame, [
    (v) => v.dialog.open({ title: 'Pick', multiple: true }),
    (v) => v.dialog.open({ folder: true, directory: '/tmp' }),
    (v) => v.dialog.save({ name: 'a.txt', text: 'hello' }),
    (v) => v.dialog.save({ name: 'a.bin', bytes: frame.page.eval('new Uint8Array([0, 1, 254, 255])') }),
    (v) => v.dialog.confirm('Delete?', 'It cannot be undone'),
    (v) => v.shell.open('https://example.org/'),
    (v) => v.shell.openFile('/home/me/a.txt'),
  ]);
  assert.deepStrictEqual(posted.map((post) => post.body), [
    { action: 'open', title: 'Pick', multiple: true },
    { action: 'open', directory: '/tmp', folder: true },
    { action: 'save', name: 'a.txt', text: 'hello' },
    { action: 'save', name: 'a.bin', base64: 'AAH+/w==' },
    { action: 'confirm', title: 'Delete?', message: 'It cannot be undone' },
    { action: 'open', url: 'https://example.org/' },
    { action: 'openFile', path: '/home/me/a.txt' },
  ]);
  for (const bytes of [[], [7], [0, 1, 254, 255], [1, 2, 3, 4, 5]]) {
    const read = frame.vitrine.dialog.readBytes('/chosen');
    const [post] = frame.page.take();
    assert.deepStrictEqual(JSON.parse(post.message.slice(frame.token.length + 1)), { action: 'read', path: '/chosen', as: 'bytes' });
    post.resolve({ x: Buffer.from(bytes).toString('base64') }); // a bytes reply
    assert.deepStrictEqual(Array.from(await read), bytes);
  }
});

test('autostart posts {action, on}; anything but a boolean is refused without a post; deep links arrive as deep-link', async () => {
  const frame = new Frame({ handlers: CAPABILITIES });
  const posted = await bodies(frame, [(v) => v.app.setAutostart(true), (v) => v.app.setAutostart(false), (v) => v.app.autostart()]);
  assert.deepStrictEqual(posted, [
    { handler: 'app', body: { action: 'setAutostart', on: true } },
    { handler: 'app', body: { action: 'setAutostart', on: false } },
    { handler: 'app', body: { action: 'autostart' } },
  ]);
  for (const bad of ['true', 1, null, undefined, {}]) {
    await assert.rejects(frame.vitrine.app.setAutostart(bad), { name: 'TypeError' });
  }
  assert.strictEqual(frame.page.take().length, 0);
  const links = [];
  frame.vitrine.app.on('deep-link', (payload) => links.push(plain(payload)));
  frame.emit('deep-link', '{"url":"myapp://open?id=3","scheme":"myapp","host":"open","path":"","query":"id=3"}');
  assert.deepStrictEqual(links, [{ url: 'myapp://open?id=3', scheme: 'myapp', host: 'open', path: '', query: 'id=3' }]);
});

test('shortcuts post {action, accelerator, id}; a press arrives as shortcut; non-strings are refused without a post', async () => {
  const frame = new Frame({ handlers: CAPABILITIES });
  const posted = await bodies(frame, [(v) => v.shortcuts.register('Ctrl+Alt+K', 'search'), (v) => v.shortcuts.unregister('search')]);
  assert.deepStrictEqual(posted, [
    { handler: 'shortcuts', body: { action: 'register', accelerator: 'Ctrl+Alt+K', id: 'search' } },
    { handler: 'shortcuts', body: { action: 'unregister', id: 'search' } },
  ]);
  for (const call of [(v) => v.shortcuts.register('Ctrl+K'), (v) => v.shortcuts.register(75, 'k'), (v) => v.shortcuts.unregister({})]) {
    await assert.rejects(call(frame.vitrine), { name: 'TypeError' });
  }
  assert.strictEqual(frame.page.take().length, 0);
  const pressed = [];
  frame.vitrine.shortcuts.on('shortcut', (payload) => pressed.push(plain(payload)));
  frame.emit('shortcut', '{"id":"search","accelerator":"Ctrl+Alt+K"}');
  assert.deepStrictEqual(pressed, [{ id: 'search', accelerator: 'Ctrl+Alt+K' }]);
});

test('window events arrive as window:NAME native events', () => {
  const frame = new Frame({ handlers: CAPABILITIES });
  const heard = [];
  const off = frame.vitrine.window.on('resize', (payload) => heard.push(plain(payload)));
  frame.vitrine.window.on('closed', (payload) => heard.push(plain(payload)));
  frame.emit('window:resize', '{"width":800,"height":600}');
  frame.emit('window:closed', '{"id":2}');
  off();
  frame.emit('window:resize', '{"width":1,"height":1}');
  assert.deepStrictEqual(heard, [{ width: 800, height: 600 }, { id: 2 }]);
});

test('a refusal from native code rejects the call with its message', async () => {
  const refusal = 'capability "clipboard" is not granted to https://x.example — add it to [capabilities] in the config';
  const frame = new Frame({ handlers: CAPABILITIES, respond: () => { throw new Error(refusal); } });
  await assert.rejects(frame.vitrine.clipboard.readText(), { message: refusal });
});

test('menus post their items as given; a choice arrives as menu:activated; items that are not an array are refused', async () => {
  const frame = new Frame({ handlers: CAPABILITIES });
  const items = [{ label: 'File', items: [{ id: 'open', label: 'Open', accelerator: 'Ctrl+O' }, '-', { id: 'wrap', label: 'Wrap', checked: true }] }];
  const posted = await bodies(frame, [
    (v) => v.menu.set(items),
    (v) => v.menu.setContext([{ id: 'copy', label: 'Copy', enabled: false }]),
    (v) => v.menu.clear(),
  ]);
  assert.deepStrictEqual(posted, [
    { handler: 'menu', body: { action: 'set', items: items } },
    { handler: 'menu', body: { action: 'setContext', items: [{ id: 'copy', label: 'Copy', enabled: false }] } },
    { handler: 'menu', body: { action: 'clear' } },
  ]);
  for (const bad of [undefined, 'File', { label: 'File' }]) {
    await assert.rejects(frame.vitrine.menu.set(bad), { name: 'TypeError', message: 'vitrine.menu.set: the items are an array' });
    await assert.rejects(frame.vitrine.menu.setContext(bad), { name: 'TypeError', message: 'vitrine.menu.setContext: the items are an array' });
  }
  assert.strictEqual(frame.page.take().length, 0, 'a refused call posts nothing');
  const chosen = [];
  frame.vitrine.menu.on('activated', (payload) => chosen.push(plain(payload)));
  frame.emit('menu:activated', '{"id":"wrap","menu":"bar","checked":false}');
  assert.deepStrictEqual(chosen, [{ id: 'wrap', menu: 'bar', checked: false }]);
});

test('print() asks for the dialog; print.toPDF posts only the options given and decodes the PDF bytes', async () => {
  const frame = new Frame({ handlers: CAPABILITIES });
  assert.strictEqual(typeof frame.vitrine.print, 'function');
  const dialog = frame.vitrine.print();
  let [post] = frame.page.take();
  assert.strictEqual(post.handler, 'print');
  assert.deepStrictEqual(JSON.parse(post.message.slice(frame.token.length + 1)), { action: 'dialog' });
  post.resolve(false);
  assert.strictEqual(await dialog, false);
  const pdf = frame.vitrine.print.toPDF({ pageSize: 'a4', landscape: true });
  [post] = frame.page.take();
  assert.deepStrictEqual(JSON.parse(post.message.slice(frame.token.length + 1)), { action: 'pdf', pageSize: 'a4', landscape: true });
  post.resolve({ x: Buffer.from('%PDF-1.5').toString('base64') }); // a bytes reply
  const document = await pdf;
  assert.ok(document instanceof Uint8Array || Object.prototype.toString.call(document) === '[object Uint8Array]');
  assert.strictEqual(Buffer.from(document).toString(), '%PDF-1.5');
});

test('the tray posts {action, icon, tooltip, items}; its events arrive as tray:activated and tray:click; bad options are refused without a post', async () => {
  const frame = new Frame({ handlers: CAPABILITIES });
  const items = [{ id: 'open', label: 'Open' }, '-', { label: 'More', items: [{ id: 'quit', label: 'Quit' }] }];
  const posted = await bodies(frame, [
    (v) => v.tray.set({ icon: 'icons/tray.png', tooltip: 'Mail', items: items }),
    (v) => v.tray.set({ icon: 'mail-unread' }),
    (v) => v.tray.clear(),
  ]);
  assert.deepStrictEqual(posted, [
    { handler: 'tray', body: { action: 'set', icon: 'icons/tray.png', tooltip: 'Mail', items: items } },
    { handler: 'tray', body: { action: 'set', icon: 'mail-unread' } },
    { handler: 'tray', body: { action: 'clear' } },
  ]);
  for (const bad of [undefined, {}, { icon: 7 }, 'icon.png']) {
    await assert.rejects(frame.vitrine.tray.set(bad), { name: 'TypeError', message: 'vitrine.tray.set: {icon, tooltip?, items?}, icon a string' });
  }
  await assert.rejects(frame.vitrine.tray.set({ icon: 'x', items: {} }), { name: 'TypeError', message: 'vitrine.tray.set: the items are an array' });
  assert.strictEqual(frame.page.take().length, 0, 'nothing posted for bad options');
  const heard = [];
  frame.vitrine.tray.on('activated', (payload) => heard.push(['activated', plain(payload)]));
  frame.vitrine.tray.on('click', (payload) => heard.push(['click', plain(payload)]));
  frame.emit('tray:activated', '{"id":"open"}');
  frame.emit('tray:click', '{}');
  frame.emit('menu:activated', '{"id":"not-the-tray","menu":"bar"}');
  assert.deepStrictEqual(heard, [['activated', { id: 'open' }], ['click', {}]]);
});

test('update posts {action} and hears available and progress', async () => {
  const frame = new Frame({ handlers: CAPABILITIES });
  const posted = await bodies(frame, [(v) => v.update.check(), (v) => v.update.install()]);
  assert.deepStrictEqual(posted, [
    { handler: 'update', body: { action: 'check' } },
    { handler: 'update', body: { action: 'install' } },
  ]);
  const heard = [];
  frame.vitrine.update.on('available', (payload) => heard.push(['available', plain(payload)]));
  const stop = frame.vitrine.update.on('progress', (payload) => heard.push(['progress', plain(payload)]));
  frame.emit('update:available', '{"version":"1.1.0","notes":"Faster"}');
  frame.emit('update:progress', '{"received":10,"total":20}');
  frame.vitrine.update.on('rolled-back', (payload) => heard.push(['rolled-back', plain(payload)]));
  frame.emit('update:rolled-back', '{"reason":"1.2.0: the new version exited (status 3) before its page loaded"}');
  frame.emit('tray:click', '{}');
  stop();
  frame.emit('update:progress', '{"received":20,"total":20}');
  assert.deepStrictEqual(heard, [['available', { version: '1.1.0', notes: 'Faster' }], ['progress', { received: 10, total: 20 }],
    ['rolled-back', { reason: '1.2.0: the new version exited (status 3) before its page loaded' }]]);
});

test('power posts {action, reason}; a reason that is not a string is refused without a post', async () => {
  const frame = new Frame({ handlers: CAPABILITIES });
  const posted = await bodies(frame, [
    (v) => v.power.keepAwake('Playing the video'),
    (v) => v.power.keepAwake(),
    (v) => v.power.allowSleep(),
  ]);
  assert.deepStrictEqual(posted, [
    { handler: 'power', body: { action: 'keepAwake', reason: 'Playing the video' } },
    { handler: 'power', body: { action: 'keepAwake' } },
    { handler: 'power', body: { action: 'allowSleep' } },
  ]);
  for (const bad of [null, 7, { toString: () => 'x' }, ['a']]) {
    await assert.rejects(frame.vitrine.power.keepAwake(bad), { name: 'TypeError', message: 'vitrine.power.keepAwake: a reason is a string' });
  }
  assert.strictEqual(frame.page.take().length, 0, 'nothing posted for a bad reason');
});

test('sidecars.get posts {action, name}; a name that is not a string is refused without a post; events are heard', async () => {
  const frame = new Frame({ handlers: CAPABILITIES });
  const posted = await bodies(frame, [(v) => v.sidecars.get('api')]);
  assert.deepStrictEqual(posted, [{ handler: 'sidecars', body: { action: 'get', name: 'api' } }]);
  for (const bad of [undefined, null, 7, { toString: () => 'api' }]) {
    await assert.rejects(frame.vitrine.sidecars.get(bad), { name: 'TypeError', message: 'vitrine.sidecars.get: a name is a string' });
  }
  assert.strictEqual(frame.page.take().length, 0, 'nothing posted for a bad name');
  const heard = [];
  frame.vitrine.sidecars.on('ready', (payload) => heard.push(['ready', plain(payload)]));
  frame.vitrine.sidecars.on('exited', (payload) => heard.push(['exited', plain(payload)]));
  frame.emit('sidecars:ready', '{"name":"api","port":40123}');
  frame.emit('sidecars:exited', '{"name":"api","state":"restarting","signal":9}');
  frame.emit('tray:click', '{}');
  assert.deepStrictEqual(heard, [['ready', { name: 'api', port: 40123 }], ['exited', { name: 'api', state: 'restarting', signal: 9 }]]);
});
