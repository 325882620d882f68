'use strict';
// Exact values both ways: object members in order (JSON text, parsed in the page) and
// byte buffers as base64 text (`{x}`), on the shared handler, on a channel, in batches.
const test = require('node:test');
const assert = require('node:assert');
const { Frame, settle, warm } = require('./support/fake-webkit.js');

/** Answers every post as `ping` does: the payload's own reply form. */
function echo(post) {
  const message = post.raw;
  if (typeof message === 'string' && message.length > 33 && message[32] === 'j') return { j: message.slice(33) };
  if (typeof message === 'string' && message.length > 32 && message[32] === 's') return message.slice(33);
  if (message && typeof message.b === 'object') return message.b;
  return message; // {t, v} and {t, x} carry their own reply form, as do channel posts
}

test('an object comes back with its members in order at every depth', async () => {
  const frame = new Frame({ respond: echo });
  const value = { s: 'x', n: 1, a: [1, { z: 1, b: 2, m: { y: 0, c: null, 10: 'ten', a: true } }], zz: -0.5 };
  const answer = await frame.vitrine.invoke('ping', value);
  assert.strictEqual(JSON.stringify(answer), JSON.stringify(value));
  assert.deepStrictEqual(Object.keys(answer), ['s', 'n', 'a', 'zz']);
  assert.deepStrictEqual(Object.keys(answer.a[1].m), ['10', 'y', 'c', 'a']);
});

test('strings inside JSON keep NUL, lone surrogates and astral characters', async () => {
  const frame = new Frame({ respond: echo });
  const value = { text: 'a\0b \ud800 lone \udfff 😀 \u2028' };
  const answer = await frame.vitrine.invoke('ping', value);
  assert.strictEqual(answer.text, value.text);
});

test('a Uint8Array goes as {t, x: base64} and a reply {x} resolves to its bytes', async () => {
  const frame = new Frame({ respond: echo });
  const bytes = Uint8Array.from({ length: 300 }, (_, i) => (i * 37) & 255);
  const answer = await frame.vitrine.invoke('ping', bytes);
  const [post] = frame.page.posts;
  assert.strictEqual(post.message.t, frame.token);
  assert.strictEqual(post.message.x, Buffer.from(bytes).toString('base64'));
  assert.strictEqual(Object.prototype.toString.call(answer), '[object Uint8Array]');
  assert.deepStrictEqual(Array.from(answer), Array.from(bytes));
});

test('an ArrayBuffer and a view of part of one travel as their bytes', async () => {
  const frame = new Frame({ respond: echo });
  const buffer = Uint8Array.from([0, 1, 2, 250, 251, 252, 253]).buffer;
  assert.deepStrictEqual(Array.from(await frame.vitrine.invoke('ping', buffer)), [0, 1, 2, 250, 251, 252, 253]);
  const view = new DataView(buffer, 2, 3);
  assert.deepStrictEqual(Array.from(await frame.vitrine.invoke('ping', view)), [2, 250, 251]);
  assert.deepStrictEqual(Array.from(await frame.vitrine.invoke('ping', new Uint8Array(0))), []);
});

test('on a channel and in a batch: JSON as {j}, bytes as {x}, each answer decoded', async () => {
  const frame = new Frame();
  await warm(frame);
  frame.page.register('ping#' + frame.token + '+');
  const first = frame.vitrine.invoke('ping', new Uint8Array([1, 2]));
  const second = frame.vitrine.invoke('ping', { b: 1, a: 2 });
  await settle();
  const [bytesPost, jsonPost] = frame.page.take();
  assert.deepStrictEqual(bytesPost.message, { x: 'AQI=' });
  assert.deepStrictEqual(jsonPost.message, { j: '{"b":1,"a":2}' });
  const waiting = [frame.vitrine.invoke('ping', new Uint8Array([9])), frame.vitrine.invoke('ping', { z: 0, y: 1 })];
  bytesPost.resolve(bytesPost.raw);
  assert.deepStrictEqual(Array.from(await first), [1, 2]);
  await settle();
  const [batch] = frame.page.take();
  assert.deepStrictEqual(batch.message, { b: [{ x: 'CQ==' }, { j: '{"z":0,"y":1}' }] });
  batch.resolve(batch.raw.b);
  const [bytes, object] = await Promise.all(waiting);
  assert.deepStrictEqual(Array.from(bytes), [9]);
  assert.deepStrictEqual(Object.keys(object), ['z', 'y']);
  jsonPost.resolve(jsonPost.raw);
  assert.deepStrictEqual(Object.keys(await second), ['b', 'a']);
});

test('a reply that is not valid JSON text, or of no known form, rejects clearly', async () => {
  const replies = [{ j: '{"a":' }, { neither: 1 }];
  const frame = new Frame();
  const calls = replies.map(() => frame.vitrine.invoke('ping', {}));
  const posts = frame.page.take();
  assert.deepStrictEqual(posts.map((post) => post.message), [frame.token + 'j{}', frame.token + 'j{}']);
  posts.forEach((post, i) => post.resolve(replies[i]));
  await assert.rejects(calls[0], { message: "vitrine: the strategy's answer is not valid JSON" });
  await assert.rejects(calls[1], { message: 'vitrine: malformed reply' });
});
