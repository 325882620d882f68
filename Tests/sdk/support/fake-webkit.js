'use strict';
// A fake WebKit frame for the SDK's tests: the shipped files of Resources/sdk/ run as they
// are, each in its own `vm` context (a script world) with a fake `window`, as WebKit runs
// them at document start. Both worlds of a frame share its `document` (an EventTarget)
// and `location`, as in WebKit; each has its own `window.webkit.messageHandlers`, whose
// handlers record every post and let the test answer it (resolve or reject), or answer
// by themselves through `world.respond`.
//
// Values crossing from a context are copied through JSON (`plain`) before tests compare
// them: objects made in another realm have other prototypes, which deepStrictEqual sees.

const fs = require('node:fs');
const path = require('node:path');
const vm = require('node:vm');
const { webcrypto } = require('node:crypto');

const SDK_DIR = path.join(__dirname, '..', '..', '..', 'Resources', 'sdk');
const PAGE_SDK = 'vitrine.js';
const REGISTRAR = 'frame-registrar.js';
const CAPABILITIES = 'capabilities.js';
const PAYLOAD = 'payload.js';

// Global in Node 19 and later; Debian 12's Node 18 has Event but not CustomEvent.
const CustomEvent = globalThis.CustomEvent || class CustomEvent extends Event {
  constructor(type, init) {
    super(type, init);
    this.detail = init && init.detail !== undefined ? init.detail : null;
  }
};

// The constants the SDK shares with Swift: the file Swift's are generated from at build
// time. The loader (SDKFile.script) declares it around the injected files; so does `run`.
const PROTOCOL_TEXT = fs.readFileSync(path.join(SDK_DIR, 'protocol.json'), 'utf8');
const PROTOCOL = JSON.parse(PROTOCOL_TEXT);

const sources = new Map();
function source(file) {
  if (!sources.has(file)) sources.set(file, fs.readFileSync(path.join(SDK_DIR, file), 'utf8'));
  return sources.get(file);
}

/** A file as SDKFile.script injects it: in a block that declares VITRINE_PROTOCOL first. */
function injected(file, protocolText = PROTOCOL_TEXT) {
  return '{\nconst VITRINE_PROTOCOL = ' + protocolText.replace(/\n$/, '') + ';\n' + source(file) + '\n}\n';
}

/** A JSON copy of a value from a context (undefined stays undefined). */
function plain(value) {
  return value === undefined ? undefined : JSON.parse(JSON.stringify(value));
}

/** What WebKit's promise rejects with once a handler is unregistered. */
function closedError() {
  return new DOMException('handler closed', 'InvalidAccessError');
}

/** Lets promise reactions and queued answers run. */
function settle() {
  return new Promise((resolve) => setImmediate(resolve));
}

/** Calls to a strategy before native code opens the frame's channel to it (ChannelPolicy). */
const CHANNEL_AFTER = PROTOCOL.channelAfter;

/** Makes the calls that earn a channel to `name`, answered at once on the shared handler. */
async function warm(frame, name = 'ping') {
  for (let i = 0; i < CHANNEL_AFTER; i++) {
    const call = frame.vitrine.invoke(name, 'warm ' + i);
    frame.page.take().forEach((post) => post.resolve(post.message));
    await call;
  }
}

/** One WebKit handler object (`window.webkit.messageHandlers.NAME`). */
class FakeHandler {
  constructor(world, name) {
    this.world = world;
    this.name = name;
    this.open = true;
  }

  postMessage(message) {
    let post;
    const promise = new Promise((resolve, reject) => {
      post = { handler: this.name, message: plain(message), raw: message, resolve, reject };
    });
    if (!this.open) {
      this.world.refused.push(post);
      post.reject(closedError());
      return promise;
    }
    this.world.posts.push(post);
    const respond = this.world.respond;
    if (respond) {
      setImmediate(() => {
        let value;
        try { value = respond(post); } catch (error) { post.reject(error); return; }
        post.resolve(value);
      });
    }
    return promise;
  }
}

/** One script world of a frame: a `vm` context whose global is its `window`. */
class World {
  constructor(frame) {
    this.frame = frame;
    this.posts = [];
    this.refused = [];
    this.respond = null;
    this.handlers = Object.create(null);
    const handlers = this.handlers;
    // As in WebKit, `messageHandlers` is a getter of the namespace's prototype.
    const webkit = Object.create({ get messageHandlers() { return handlers; } });
    this.window = vm.createContext({
      webkit, document: frame.document, location: frame.location, crypto: webcrypto, btoa, atob,
      CustomEvent, DOMException, console, setTimeout: frame.setTimeout,
      // As in WebKit, both worlds see the frame's one window's events and its true origin.
      origin: frame.selfOrigin,
      addEventListener: frame.windowEvents.addEventListener.bind(frame.windowEvents),
      removeEventListener: frame.windowEvents.removeEventListener.bind(frame.windowEvents),
    });
    vm.runInContext('globalThis.window = globalThis; globalThis.self = globalThis;', this.window);
    this.window.top = frame.isMainFrame ? this.window : frame.parentWindow;
  }

  /** Registers handler `name` in this world, as native code does. */
  register(name) {
    this.handlers[name] = new FakeHandler(this, name);
    return this.handlers[name];
  }

  /** Unregisters handler `name`: later posts on its object reject (InvalidAccessError). */
  unregister(name) {
    this.handlers[name].open = false;
    delete this.handlers[name];
  }

  /** Runs a file of Resources/sdk/ here, as WebKit injects it. */
  run(file) {
    // The block's first two lines come before the file's: line numbers in errors are off by 2.
    vm.runInContext(injected(file, this.frame.protocolText), this.window, { filename: path.join(SDK_DIR, file) });
  }

  /** Runs code of the test's in this world (as a page script would, in the page's world). */
  eval(code) {
    return vm.runInContext(code, this.window);
  }

  /** Posts not yet answered by the test, and forgets them. */
  take() {
    const posts = this.posts;
    this.posts = [];
    return posts;
  }
}

/**
 * A frame with the page's world (`page`) and the registrar's isolated world (`isolated`).
 * Options: origin, href, handlers (registered in the page's world), registrar (false: the
 * isolated world has no `vitrine-frame` handler), order ('registrar-first' or 'sdk-first'),
 * respond (the page world's automatic answers), protocol (constants in place of protocol.json's).
 */
class Frame {
  constructor(options = {}) {
    const origin = options.origin || 'app://main';
    this.protocolText = options.protocol ? JSON.stringify(Object.assign({}, PROTOCOL, options.protocol)) : PROTOCOL_TEXT;
    this.document = new EventTarget();
    this.windowEvents = new EventTarget();
    // `self.origin`: the URL's origin unless the frame is sandboxed (then 'null').
    this.selfOrigin = options.selfOrigin || origin;
    this.isMainFrame = options.mainFrame !== false;
    this.parentWindow = {};
    this.location = { origin, href: options.href || origin + '/index.html' };
    // The SDK rethrows a listener's error from a timer: recorded here instead.
    this.thrown = [];
    this.setTimeout = (callback) => {
      try { callback(); } catch (error) { this.thrown.push(error); }
    };
    // The token as the registrar hands it to the SDK (the first `vitrine:token`).
    this.document.addEventListener('vitrine:token', (event) => {
      if (this.handedToken === undefined && typeof event.detail === 'string') this.handedToken = event.detail;
    });
    this.page = new World(this);
    this.isolated = new World(this);
    if (options.registrar !== false) this.isolated.register('vitrine-frame');
    for (const name of options.handlers || ['ping']) this.page.register(name);
    if (options.respond) this.page.respond = options.respond;
    // As ScriptBridge.pageSDK: the capabilities' file, the payloads' codec, then the SDK.
    const runPage = () => { this.page.run(CAPABILITIES); this.page.run(PAYLOAD); this.page.run(PAGE_SDK); };
    if (options.order === 'sdk-first') {
      runPage();
      this.isolated.run(REGISTRAR);
    } else {
      this.isolated.run(REGISTRAR);
      runPage();
    }
  }

  /** The document goes into the back/forward cache (`persisted`) or away for good. */
  hide(persisted = false) {
    this.windowEvents.dispatchEvent(Object.assign(new Event('pagehide'), { persisted }));
  }

  /** The document comes back from the back/forward cache. */
  show() {
    this.windowEvents.dispatchEvent(Object.assign(new Event('pageshow'), { persisted: true }));
  }

  /** The token the registrar handed to the SDK (and registers, `token \n main|frame \n
   * origin \n url`, when the bridge is first used), or undefined. */
  get token() {
    const registration = this.isolated.posts[0];
    return registration ? registration.message.split('\n')[0] : this.handedToken;
  }

  /** `window.vitrine` of the page's world. */
  get vitrine() {
    return this.page.window.vitrine;
  }

  /** A native event, as WebContainer.emit delivers it (ScriptBridge.eventDispatch). */
  emit(name, payloadJSON) {
    const args = JSON.stringify(name) + ', ' + JSON.stringify(payloadJSON);
    this.isolated.eval("typeof vitrineEvent === 'function' && vitrineEvent(" + args + ');');
  }
}

module.exports = {
  Frame, World, FakeHandler, plain, settle, warm, closedError, source, injected, PROTOCOL, CHANNEL_AFTER, SDK_DIR, PAGE_SDK, REGISTRAR, CAPABILITIES, PAYLOAD,
};
