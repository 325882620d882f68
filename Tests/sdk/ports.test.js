'use strict';
// A channel's JSON and bytes ports (`NAME#TOKEN.j`, `NAME#TOKEN.x`, see BridgePort):
// JSON text and base64 go there as bare strings and come back the same way; long strings
// inside a small object go beside its JSON text ([text, string, …]), not in it.
const test = require('node:test');
const assert = require('node:assert');
const { Frame, World, plain, settle, warm } = require('./support/fake-webkit.js');

const HOIST_MIN = 4096;

/** A frame whose channel to `ping` has its three ports; every post answered as `ping` does. */
async function portedFrame(options = {}) {
  const frame = new Frame();
  await warm(frame);
  const base = 'ping#' + frame.token + (options.batches === false ? '' : '+');
  frame.ports = { s: base, j: base + '.j', x: base + '.x' };
  for (const name of [frame.ports.j, frame.ports.x, frame.ports.s]) frame.page.register(name);
  frame.page.respond = (post) => post.raw;
  return frame;
}

/** Calls `ping` with `value` and returns [the post, the answer]. */
async function roundTrip(frame, value) {
  const answer = await frame.vitrine.invoke('ping', value);
  const post = frame.page.take().at(-1);
  return [post, answer];
}

test('JSON goes bare on the .j port, bytes bare on .x, strings on the channel itself', async () => {
  const frame = await portedFrame();
  const [jsonPost, object] = await roundTrip(frame, { b: 1, a: [2, { z: 0, y: null }] });
  assert.deepStrictEqual([jsonPost.handler, jsonPost.raw], [frame.ports.j, '{"b":1,"a":[2,{"z":0,"y":null}]}']);
  assert.strictEqual(JSON.stringify(object), '{"b":1,"a":[2,{"z":0,"y":null}]}');
  const [bytesPost, bytes] = await roundTrip(frame, Uint8Array.from([0, 1, 254, 255]));
  assert.deepStrictEqual([bytesPost.handler, bytesPost.raw], [frame.ports.x, 'AAH+/w==']);
  assert.strictEqual(Object.prototype.toString.call(bytes), '[object Uint8Array]');
  assert.deepStrictEqual(Array.from(bytes), [0, 1, 254, 255]);
  const [stringPost, string] = await roundTrip(frame, 'as it is');
  assert.deepStrictEqual([stringPost.handler, stringPost.raw, string], [frame.ports.s, 'as it is', 'as it is']);
});

test('a reply on a port is read in that port\'s form; the object forms still hold', async () => {
  const frame = await portedFrame();
  const replies = new Map([
    ['json text', '{"k":[1,"two"]}'], ['json object', { x: 'AQI=' }], ['error', { e: 'no', c: 'Picky.no' }],
    ['bytes as json', { j: '"text"' }], ['not json', '{"a":'],
  ]);
  frame.page.respond = (post) => replies.get(JSON.parse(post.raw).case) ?? replies.get(post.raw);
  assert.deepStrictEqual(plain(await frame.vitrine.invoke('ping', { case: 'json text' })), { k: [1, 'two'] });
  assert.deepStrictEqual(Array.from(await frame.vitrine.invoke('ping', { case: 'json object' })), [1, 2]);
  await assert.rejects(frame.vitrine.invoke('ping', { case: 'error' }), { message: 'no', code: 'Picky.no' });
  await assert.rejects(frame.vitrine.invoke('ping', { case: 'not json' }), { message: "vitrine: the strategy's answer is not valid JSON" });
  frame.page.respond = () => ({ j: '"text"' });
  assert.strictEqual(await frame.vitrine.invoke('ping', new Uint8Array([7])), 'text');
});

test('long strings in a small object go beside its JSON text, members in order', async () => {
  const frame = await portedFrame();
  const long = 'x'.repeat(HOIST_MIN - 1) + '"\\\u2028';
  const value = { s: long, n: 1, nested: { z: long + 'z', short: 'short', list: [long, 2] }, last: true };
  const [post, answer] = await roundTrip(frame, value);
  assert.strictEqual(post.handler, frame.ports.j);
  assert.ok(Array.isArray(post.raw));
  assert.deepStrictEqual(Array.from(post.raw).slice(1), [long, long + 'z', long]);
  assert.strictEqual(post.raw[0], '{"s":"\uffff1","n":1,"nested":{"z":"\uffff2","short":"short","list":["\uffff3",2]},"last":true}');
  assert.strictEqual(JSON.stringify(answer), JSON.stringify(value));
  assert.deepStrictEqual(Object.keys(answer.nested), ['z', 'short', 'list']);
});

test('a string starting with the mark is lifted too; a key starting with it stays a key', async () => {
  const frame = await portedFrame();
  const value = { '\uffff1': '\uffff1', s: 'y'.repeat(HOIST_MIN), arr: ['\uffff', '\uffffx'] };
  const [post, answer] = await roundTrip(frame, value);
  assert.deepStrictEqual(Array.from(post.raw).slice(1), ['\uffff1', 'y'.repeat(HOIST_MIN), '\uffff', '\uffffx']);
  assert.strictEqual(JSON.stringify(answer), JSON.stringify(value));
  assert.deepStrictEqual(Object.keys(answer), ['\uffff1', 's', 'arr']);
});

test('plain JSON text when nothing is long, the payload has many members or many values, or its own toJSON', async () => {
  const frame = await portedFrame();
  const long = 'w'.repeat(HOIST_MIN);
  const wide = Object.fromEntries(Array.from({ length: 65 }, (_, i) => ['k' + i, i === 0 ? long : i]));
  const deep = { long, rows: Array.from({ length: 1100 }, (_, i) => i) };
  const cases = [
    { a: 'short', b: ['x'.repeat(HOIST_MIN)] },    // the long string is not a member of its own
    wide,
    deep,
    { toJSON() { return { s: long }; } },
    [1, 2, 3],
  ];
  for (const value of cases) {
    const [post, answer] = await roundTrip(frame, value);
    assert.strictEqual(typeof post.raw, 'string', 'plain text for ' + JSON.stringify(value).slice(0, 40));
    assert.strictEqual(post.raw, JSON.stringify(value));
    assert.strictEqual(JSON.stringify(answer), JSON.stringify(value));
  }
});

test('JSON.stringify\'s own rules hold for a hoisted payload: toJSON, undefined, NaN, Date, cycles', async () => {
  const frame = await portedFrame();
  const long = 'v'.repeat(HOIST_MIN + 10);
  const date = new Date(0);
  const value = { long, when: date, gone: undefined, f() {}, nan: NaN, inf: -Infinity, z: -0, arr: [undefined, long],
                  boxed: Object('b'.repeat(HOIST_MIN)), viaToJSON: { toJSON() { return long; } } };
  const [post, answer] = await roundTrip(frame, value);
  assert.ok(Array.isArray(post.raw));
  assert.strictEqual(JSON.stringify(answer), JSON.stringify(value));
  const cycle = { long };
  cycle.self = cycle;
  await assert.rejects(frame.vitrine.invoke('ping', cycle), { name: 'TypeError' });
});

test('random small payloads with long strings come back as JSON.stringify sees them', async () => {
  const frame = await portedFrame();
  let seed = 7;
  const random = (n) => { seed = (seed * 1103515245 + 12345) & 0x7fffffff; return seed % n; };
  const pieces = ['a', '\0', '\ud800', '\udc00', '😀', '"', '\\', '\n', '\uffff', 'é'];
  const text = (length) => Array.from({ length }, () => pieces[random(pieces.length)]).join('');
  const make = (depth) => {
    switch (depth > 2 ? random(4) : random(7)) {
      case 0: return random(2) ? text(HOIST_MIN + random(50)) : text(random(8));
      case 1: return random(1000) - 500 + random(10) / 8;
      case 2: return random(2) === 0;
      case 3: return null;
      case 4: return Array.from({ length: random(4) }, () => make(depth + 1));
      default: return Object.fromEntries(Array.from({ length: random(4) }, () => [text(random(3)), make(depth + 1)]));
    }
  };
  for (let i = 0; i < 60; i++) {
    const value = { first: text(HOIST_MIN), ...(make(0) || {}), tail: make(1) };
    const answer = await frame.vitrine.invoke('ping', value);
    assert.strictEqual(JSON.stringify(answer), JSON.stringify(value), 'payload ' + i);
  }
});

test('a hoisted call resent on the shared handler goes as whole JSON text', async () => {
  const frame = await portedFrame();
  await roundTrip(frame, 'finds the channel');
  frame.page.respond = null;
  for (const port of Object.values(frame.ports)) frame.page.unregister(port);
  const long = 'q'.repeat(HOIST_MIN);
  const call = frame.vitrine.invoke('ping', { s: long, m: '\uffff', n: 1 });
  await settle();
  const [refused] = frame.page.refused;
  assert.strictEqual(refused.handler, frame.ports.j);
  const [resent] = frame.page.take();
  assert.deepStrictEqual([resent.handler, resent.raw], ['ping', frame.token + 'j' + JSON.stringify({ s: long, m: '\uffff', n: 1 })]);
  resent.resolve({ j: '"shared"' });
  assert.strictEqual(await call, 'shared');
});

test('a hoisted reply naming a string it does not carry rejects clearly', async () => {
  const frame = await portedFrame();
  frame.page.respond = () => ['{"s":"\uffff4"}', 'only one'];
  await assert.rejects(frame.vitrine.invoke('ping', { s: 'z'.repeat(HOIST_MIN) }), { message: 'vitrine: malformed reply' });
});

test('without the ports (an older channel) JSON and bytes go on the channel as objects', async () => {
  const frame = new Frame({ respond: (post) => post.raw });
  await warm(frame);
  frame.page.register('ping#' + frame.token);
  const [post, answer] = await roundTrip(frame, { s: 'p'.repeat(HOIST_MIN), n: 1 });
  assert.deepStrictEqual(post.message, { j: JSON.stringify({ s: 'p'.repeat(HOIST_MIN), n: 1 }) });
  assert.deepStrictEqual(Object.keys(answer), ['s', 'n']);
});

test('the payloads\' codec is taken by the SDK before any page script, and without it there is no SDK', () => {
  const frame = new Frame();
  assert.strictEqual(frame.page.eval("typeof window.vitrinePayload + ' ' + ('vitrinePayload' in window)"), 'undefined false');
  assert.strictEqual(typeof frame.vitrine.invoke, 'function');

  // A world of its own where payload.js did not run (a missing or refused file).
  const world = new World(new Frame());
  world.register('ping');
  world.run('capabilities.js');
  world.run('vitrine.js');
  assert.strictEqual(world.eval('typeof window.vitrine'), 'undefined', 'fails closed: no half SDK');
});
