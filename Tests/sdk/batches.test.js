'use strict';
// Batches: on a channel that takes them (`NAME#TOKEN+`) the SDK keeps CHANNEL_POSTS posts
// unanswered; short calls made meanwhile wait and go together, `{b: [call, …]}`, when one
// is answered. The reply is the calls' values in order (the posted array itself when each
// answer is the call's own payload), or `{v: values, e: {index: message}}` (BridgeBatchReply).
const test = require('node:test');
const assert = require('node:assert');
const { Frame, plain, settle, warm, closedError, PROTOCOL } = require('./support/fake-webkit.js');

const BATCH_LIMIT = PROTOCOL.batchLimit;

/** A frame with a batching channel to `ping` and two calls on it, unanswered. */
async function busyChannel() {
  const frame = new Frame();
  await warm(frame);
  frame.channel = 'ping#' + frame.token + '+';
  frame.page.register(frame.channel);
  frame.first = frame.vitrine.invoke('ping', 'first');
  frame.second = frame.vitrine.invoke('ping', 'second');
  frame.inFlight = frame.page.take();
  assert.deepStrictEqual(frame.inFlight.map((post) => [post.handler, post.message]),
    [[frame.channel, 'first'], [frame.channel, 'second']]);
  return frame;
}

/** Answers the first post in flight, and returns the batch that follows it. */
async function releaseBatch(frame) {
  frame.inFlight[0].resolve('first');
  assert.strictEqual(await frame.first, 'first');
  const posts = frame.page.take();
  assert.strictEqual(posts.length, 1);
  assert.strictEqual(posts[0].handler, frame.channel);
  return posts[0];
}

test('calls made while two posts are unanswered wait, then go as one batch', async () => {
  const frame = await busyChannel();
  const waiting = [frame.vitrine.invoke('ping', 'a'), frame.vitrine.invoke('ping', { n: 1 }), frame.vitrine.invoke('ping')];
  await settle();
  assert.deepStrictEqual(frame.page.posts, [], 'nothing posted until one is answered');
  const batch = await releaseBatch(frame);
  assert.deepStrictEqual(batch.message, { b: ['a', { j: '{"n":1}' }, { j: 'null' }] });
  batch.resolve(['A', { j: '{"one":1}' }, null]);
  assert.deepStrictEqual(plain(await Promise.all(waiting)), ['A', { one: 1 }, null]);
  frame.inFlight[1].resolve('second');
  assert.strictEqual(await frame.second, 'second');
});

test('a batch answered with the posted array resolves each call with its payload', async () => {
  const frame = await busyChannel();
  const waiting = ['x', 'y', 'z'].map((text) => frame.vitrine.invoke('ping', text));
  const batch = await releaseBatch(frame);
  batch.resolve(batch.raw.b);
  assert.deepStrictEqual(await Promise.all(waiting), ['x', 'y', 'z']);
});

test('a batch answered with {v, e} rejects exactly the calls named in e', async () => {
  const frame = await busyChannel();
  const waiting = ['ok', 'bad', 'ok too'].map((text) => frame.vitrine.invoke('ping', text));
  const batch = await releaseBatch(frame);
  batch.resolve({ v: ['OK', null, 'OK TOO'], e: { 1: 'refused' } });
  const results = await Promise.allSettled(waiting);
  assert.deepStrictEqual(results.map((result) => result.status), ['fulfilled', 'rejected', 'fulfilled']);
  assert.strictEqual(results[0].value, 'OK');
  assert.strictEqual(results[1].reason.message, 'refused');
  assert.strictEqual(results[2].value, 'OK TOO');
});

test('a call of a batch answered with {e, c} rejects with the code', async () => {
  const frame = await busyChannel();
  const waiting = ['ok', 'bad'].map((text) => frame.vitrine.invoke('ping', text));
  const batch = await releaseBatch(frame);
  batch.resolve(['OK', { e: 'ping: closed', c: 'ShopError.closed' }]);
  const results = await Promise.allSettled(waiting);
  assert.strictEqual(results[0].value, 'OK');
  assert.strictEqual(results[1].reason.message, 'ping: closed');
  assert.strictEqual(results[1].reason.code, 'ShopError.closed');
});

for (const [label, reply] of [
  ['a string', 'garbage'], ['null', null], ['a number', 3], ['{} (no v)', {}], ['{v: not an array}', { v: 'x' }],
]) {
  test('a malformed batch reply (' + label + ') rejects every call of the batch', async () => {
    const frame = await busyChannel();
    const waiting = ['a', 'b'].map((text) => frame.vitrine.invoke('ping', text));
    const batch = await releaseBatch(frame);
    batch.resolve(reply);
    for (const call of waiting) await assert.rejects(call, { message: 'vitrine: malformed batch reply' });
  });
}

test('errors named in a reply without values still reject; the others are malformed', async () => {
  const frame = await busyChannel();
  const waiting = ['a', 'b'].map((text) => frame.vitrine.invoke('ping', text));
  const batch = await releaseBatch(frame);
  batch.resolve({ e: { 0: 'no' } });
  await assert.rejects(waiting[0], { message: 'no' });
  await assert.rejects(waiting[1], { message: 'vitrine: malformed batch reply' });
});

test('a long call goes at once even when two posts are unanswered', async () => {
  const frame = await busyChannel();
  const long = 'L'.repeat(1025);
  const short = frame.vitrine.invoke('ping', 'short');
  const large = frame.vitrine.invoke('ping', long);
  const posts = frame.page.take();
  assert.deepStrictEqual(posts.map((post) => post.message), [long]);
  posts[0].resolve('large');
  assert.strictEqual(await large, 'large');
  // Its answer released the short call that waited.
  const [batch] = frame.page.take();
  assert.deepStrictEqual(batch.message, { b: ['short'] });
  batch.resolve(['S']);
  assert.strictEqual(await short, 'S');
});

test('a batch carries at most 1024 calls; the rest go with the next answer', async () => {
  const frame = await busyChannel();
  const waiting = [];
  for (let i = 0; i < BATCH_LIMIT + 6; i++) waiting.push(frame.vitrine.invoke('ping', 'c' + i));
  const batch = await releaseBatch(frame);
  assert.strictEqual(batch.message.b.length, BATCH_LIMIT);
  assert.strictEqual(batch.message.b[BATCH_LIMIT - 1], 'c' + (BATCH_LIMIT - 1));
  frame.inFlight[1].resolve('second');
  await frame.second;
  const [rest] = frame.page.take();
  assert.deepStrictEqual(rest.message, { b: ['c1024', 'c1025', 'c1026', 'c1027', 'c1028', 'c1029'] });
  batch.resolve(batch.raw.b);
  rest.resolve(rest.raw.b);
  const values = await Promise.all(waiting);
  assert.deepStrictEqual(values, waiting.map((_, i) => 'c' + i));
});

test('a batch refused with another error rejects each of its calls with it', async () => {
  const frame = await busyChannel();
  const waiting = ['a', 'b'].map((text) => frame.vitrine.invoke('ping', text));
  const batch = await releaseBatch(frame);
  batch.reject(new Error('vitrine: this frame may not call ping'));
  for (const call of waiting) await assert.rejects(call, { message: 'vitrine: this frame may not call ping' });
});

test('a batch on a closed channel: each call is resent on the shared handler', async () => {
  const frame = await busyChannel();
  const waiting = ['a', { n: 2 }].map((payload) => frame.vitrine.invoke('ping', payload));
  frame.page.unregister(frame.channel);
  frame.inFlight[0].resolve('first');
  await frame.first;
  await settle();
  assert.deepStrictEqual(frame.page.refused.map((post) => post.message), [{ b: ['a', { j: '{"n":2}' }] }]);
  const resent = frame.page.take();
  assert.deepStrictEqual(resent.map((post) => [post.handler, post.message]),
    [['ping', frame.token + 'sa'], ['ping', frame.token + 'j{"n":2}']]);
  resent[0].resolve('A');
  resent[1].reject(new Error('forgotten frame'));
  assert.strictEqual(await waiting[0], 'A');
  await assert.rejects(waiting[1], { message: 'forgotten frame' });
});

test('calls waiting when their channel closes go to the shared handler, each once', async () => {
  const frame = await busyChannel();
  const waiting = ['a', 'b', 'c'].map((text) => frame.vitrine.invoke('ping', text));
  // Native code closed the channel: WebKit refuses the posts in flight.
  frame.inFlight[0].reject(closedError());
  frame.inFlight[1].reject(closedError());
  await settle();
  const resent = frame.page.take();
  assert.deepStrictEqual(resent.map((post) => post.handler), ['ping', 'ping', 'ping', 'ping', 'ping']);
  assert.deepStrictEqual(resent.map((post) => post.message).sort(),
    ['a', 'b', 'c', 'first', 'second'].map((text) => frame.token + 's' + text).sort());
  resent.forEach((post) => post.resolve(post.message.slice(frame.token.length + 1)));
  assert.deepStrictEqual(await Promise.all([frame.first, frame.second, ...waiting]), ['first', 'second', 'a', 'b', 'c']);
});

test('a port whose postMessage throws: the batch rejects, nothing hangs', async () => {
  const frame = await busyChannel();
  const waiting = ['a', 'b'].map((text) => frame.vitrine.invoke('ping', text));
  frame.page.handlers[frame.channel].postMessage = () => { throw new TypeError('cannot post'); };
  frame.inFlight[0].resolve('first');
  await frame.first;
  for (const call of waiting) await assert.rejects(call, { name: 'TypeError', message: 'cannot post' });
});
