'use strict';
// A playlist media item's page script (Resources/sdk/media-item.js): in WebKit's media
// document it fills the window without controls and reports the end; in any other
// document it does nothing, so no page can end a media item's turn.
const test = require('node:test');
const assert = require('node:assert');
const fs = require('node:fs');
const path = require('node:path');
const vm = require('node:vm');

const SDK_DIR = path.join(__dirname, '..', '..', 'Resources', 'sdk');
const PROTOCOL_TEXT = fs.readFileSync(path.join(SDK_DIR, 'protocol.json'), 'utf8');
const PROTOCOL = JSON.parse(PROTOCOL_TEXT);
const SOURCE = fs.readFileSync(path.join(SDK_DIR, 'media-item.js'), 'utf8');

class FakeMedia extends EventTarget {
  constructor(tagName) {
    super();
    this.tagName = tagName.toUpperCase();
    this.controls = true;
    this.attributes = { controls: '' };
    this.style = {};
    this.currentTime = 12;
    this.plays = 0;
  }
  removeAttribute(name) { delete this.attributes[name]; }
  play() { this.plays += 1; return Promise.resolve(); }
}

/** A top frame whose document is of `contentType` and holds `element` ('video', 'audio' or none). */
function frame(contentType, element) {
  const media = element ? new FakeMedia(element) : null;
  const posts = [];
  const document = {
    contentType,
    body: { style: {} },
    querySelector: (selector) => (selector === 'video, audio' ? media : null),
  };
  const window = { webkit: { messageHandlers: { [PROTOCOL.mediaHandler]: { postMessage: (text) => posts.push(text) } } } };
  const context = vm.createContext({ window, document });
  // As SDKFile.script injects it: the protocol's constants around the file, in one block.
  vm.runInContext('{\nconst VITRINE_PROTOCOL = ' + PROTOCOL_TEXT + ';\n' + SOURCE + '\n}\n', context);
  return { media, posts, window, document };
}

test('a video file fills the window on black, without controls', () => {
  const { media, document } = frame('video/webm', 'video');
  assert.strictEqual(media.controls, false);
  assert.ok(!('controls' in media.attributes));
  assert.strictEqual(media.style.width, '100vw');
  assert.strictEqual(media.style.height, '100vh');
  assert.strictEqual(media.style.objectFit, 'contain');
  assert.strictEqual(document.body.style.background, 'black');
});

test('its end is reported once per end, on the media handler', () => {
  const { media, posts } = frame('video/mp4', 'video');
  assert.deepStrictEqual(posts, []);
  media.dispatchEvent(new Event('ended'));
  assert.deepStrictEqual(posts, ['ended']);
  media.dispatchEvent(new Event('timeupdate'));
  assert.deepStrictEqual(posts, ['ended']);
});

test('the replay function starts the media again from its beginning', () => {
  const { media, window } = frame('audio/ogg', 'audio');
  assert.strictEqual(typeof window[PROTOCOL.mediaReplayFunction], 'function');
  window[PROTOCOL.mediaReplayFunction]();
  assert.strictEqual(media.currentTime, 0);
  assert.strictEqual(media.plays, 1);
});

test('an HTML page, even with a video that ends, reports nothing and gets no replay function', () => {
  for (const type of ['text/html', 'application/xhtml+xml', 'image/svg+xml', '']) {
    const { media, posts, window } = frame(type, 'video');
    media.dispatchEvent(new Event('ended'));
    assert.deepStrictEqual(posts, [], type);
    assert.strictEqual(media.controls, true, type);
    assert.strictEqual(window[PROTOCOL.mediaReplayFunction], undefined, type);
  }
});

test('a media document without a media element does nothing', () => {
  const { posts, window } = frame('video/webm', null);
  assert.deepStrictEqual(posts, []);
  assert.strictEqual(window[PROTOCOL.mediaReplayFunction], undefined);
});
