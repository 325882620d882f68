'use strict';
// Channels: after CHANNEL_AFTER calls to a strategy the SDK looks for the frame's own
// handler `NAME#TOKEN` (`+` after it: the channel takes batches) and posts there with the
// payload as it is; once native code closes it, calls go to the shared handler again.
const test = require('node:test');
const assert = require('node:assert');
const { Frame, plain, settle, warm, CHANNEL_AFTER } = require('./support/fake-webkit.js');

test('after 16 calls the SDK posts on NAME#TOKEN, the payload as it is', async () => {
  const frame = new Frame();
  await warm(frame);
  frame.page.register('ping#' + frame.token);
  const string = frame.vitrine.invoke('ping', 'as it is');
  const object = frame.vitrine.invoke('ping', { n: 1 });
  const posts = frame.page.take();
  assert.deepStrictEqual(posts.map((post) => [post.handler, post.message]), [
    ['ping#' + frame.token, 'as it is'],
    ['ping#' + frame.token, { j: '{"n":1}' }],
  ]);
  posts[0].resolve('one');
  posts[1].resolve({ j: '{"two":2}' });
  assert.strictEqual(await string, 'one');
  assert.deepStrictEqual(plain(await object), { two: 2 });
});

test('no channel before the 17th call, and none while native code has not opened one', async () => {
  const frame = new Frame({ respond: () => null });
  frame.page.register('ping#' + frame.token + '+');
  for (let i = 0; i < CHANNEL_AFTER; i++) await frame.vitrine.invoke('ping', 'x');
  assert.ok(frame.page.posts.every((post) => post.handler === 'ping'));
  await frame.vitrine.invoke('ping', 'x');
  assert.strictEqual(frame.page.posts.at(-1).handler, 'ping#' + frame.token + '+');

  // Another strategy whose channel is not there yet keeps the shared handler, and finds
  // the channel on the first call after it opened.
  const other = new Frame({ respond: () => null });
  for (let i = 0; i < CHANNEL_AFTER + 3; i++) await other.vitrine.invoke('ping', 'x');
  assert.ok(other.page.posts.every((post) => post.handler === 'ping'));
  other.page.register('ping#' + other.token);
  await other.vitrine.invoke('ping', 'x');
  assert.strictEqual(other.page.posts.at(-1).handler, 'ping#' + other.token);
});

test('calls are counted per strategy', async () => {
  const frame = new Frame({ handlers: ['ping', 'user'], respond: () => null });
  await warm(frame, 'ping');
  frame.page.register('user#' + frame.token);
  await frame.vitrine.invoke('user', 'x');
  assert.strictEqual(frame.page.posts.at(-1).handler, 'user');
});

test('a closed channel: the call is resent on the shared handler, and the channel forgotten', async () => {
  const frame = new Frame();
  await warm(frame);
  const channelName = 'ping#' + frame.token;
  frame.page.register(channelName);
  await Promise.all([frame.vitrine.invoke('ping', 'open'), settle().then(() => frame.page.take()[0].resolve('ok'))]);
  frame.page.unregister(channelName);

  const call = frame.vitrine.invoke('ping', { after: 'close' });
  await settle();
  assert.deepStrictEqual(frame.page.refused.map((post) => post.message), [{ j: '{"after":"close"}' }]);
  const [resent] = frame.page.take();
  assert.deepStrictEqual([resent.handler, resent.message], ['ping', frame.token + 'j{"after":"close"}']);
  resent.reject(new Error('vitrine: this frame may not call ping'));
  await assert.rejects(call, { message: 'vitrine: this frame may not call ping' });

  // The next call goes to the shared handler at once.
  const next = frame.vitrine.invoke('ping', 'next');
  const [post] = frame.page.take();
  assert.deepStrictEqual([post.handler, post.message], ['ping', frame.token + 'snext']);
  post.resolve('shared');
  assert.strictEqual(await next, 'shared');
  assert.strictEqual(frame.page.refused.length, 1);
});

test('a strategy\'s error on a channel rejects that call only; the channel stays', async () => {
  const frame = new Frame();
  await warm(frame);
  frame.page.register('ping#' + frame.token);
  const failing = frame.vitrine.invoke('ping', 'a');
  frame.page.take()[0].reject(new Error('no'));
  await assert.rejects(failing, { message: 'no' });
  const next = frame.vitrine.invoke('ping', 'b');
  const [post] = frame.page.take();
  assert.strictEqual(post.handler, 'ping#' + frame.token);
  post.resolve('b');
  assert.strictEqual(await next, 'b');
});

test('a channel without "+" takes no batches: every call is posted at once', async () => {
  const frame = new Frame();
  await warm(frame);
  frame.page.register('ping#' + frame.token);
  const calls = [1, 2, 3, 4, 5].map((n) => frame.vitrine.invoke('ping', 'c' + n));
  const posts = frame.page.take();
  assert.deepStrictEqual(posts.map((post) => post.message), ['c1', 'c2', 'c3', 'c4', 'c5']);
  posts.forEach((post) => post.resolve(post.message));
  assert.deepStrictEqual(await Promise.all(calls), ['c1', 'c2', 'c3', 'c4', 'c5']);
});

test('back from the back/forward cache, the SDK forgets its closed channels and earns them again', async () => {
  const frame = new Frame({ respond: () => null });
  await warm(frame);
  frame.page.register('ping#' + frame.token);
  await frame.vitrine.invoke('ping', 'x');
  assert.strictEqual(frame.page.posts.at(-1).handler, 'ping#' + frame.token);
  // Native code closed the channel when the document was hidden (its token died with it).
  frame.hide(true);
  frame.page.unregister('ping#' + frame.token);
  frame.show();
  await frame.vitrine.invoke('ping', 'y');
  assert.strictEqual(frame.page.posts.at(-1).handler, 'ping', 'the shared handler, not the closed channel');
  assert.strictEqual(frame.page.refused.length, 0);
});
