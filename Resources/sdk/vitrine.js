// Vitrine's page SDK: `window.vitrine` and the WKWebView form
// `window.webkit.messageHandlers.NAME.postMessage(x)`, typed by vitrine.d.ts beside it.
//
// Injected as it is, at document start, into the page's (main) world of every frame
// (ScriptBridge.pageSDK, read once per process where ResourceLocator finds sdk/); it is
// a plain script, not a module, after capabilities.js and payload.js (what a call carries
// and how a reply reads back), in the same script. The frame registrar (frame-registrar.js)
// runs in an isolated world and hands this script the frame's token. ScriptBridge.swift
// documents the protocol with native code.
//
// The constants it shares with Swift come from VITRINE_PROTOCOL, which the loader declares
// in the block around the injected files: Resources/sdk/protocol.json, the file Swift's
// constants are generated from (docs/bridge-protocol.md). Tests: `make test-js`
// (Tests/sdk/, Node's test runner, which wraps the files the same way).
(function () {
  'use strict';
  // What a call carries and how a reply reads back (payload.js, which runs just before this
  // file): without it, no SDK.
  var makeCodec = window.vitrinePayload;
  delete window.vitrinePayload;
  if (window.vitrine || typeof makeCodec !== 'function') return;
  var codec = makeCodec();
  var SHORT_STRING = VITRINE_PROTOCOL.shortString;
  var wellFormed = typeof String.prototype.isWellFormed === 'function'
    ? function (text) { return text.isWellFormed(); }
    : function (text) { return !/[\ud800-\udfff]/.test(text); };
  // WebKit's handlers for this world, before the SDK's proxy takes their place.
  var native = window.webkit && window.webkit.messageHandlers;
  var token = null;
  var listeners = new Map();
  var handlerCache = new Map();
  // This frame's channels (`NAME#TOKEN`, see BridgeChannel) once found, and the calls
  // per name until then: native code opens one after CHANNEL_AFTER accepted calls.
  var CHANNEL_AFTER = VITRINE_PROTOCOL.channelAfter;
  // A channel carries at most CHANNEL_POSTS unanswered posts; small calls made
  // meanwhile wait, and go together (BATCH_LIMIT at most) as soon as one post is
  // answered. A large one (over SHORT_STRING characters) goes at once: batching it
  // would only make one big copy out of several.
  var CHANNEL_POSTS = VITRINE_PROTOCOL.channelPosts;
  var BATCH_LIMIT = VITRINE_PROTOCOL.batchLimit;
  // A channel's ports besides its own name (the string port): JSON text and base64 text
  // posted there as bare strings, answered the same way (BridgePort).
  var JSON_PORT = VITRINE_PROTOCOL.jsonPort;
  var BYTES_PORT = VITRINE_PROTOCOL.bytesPort;
  var callsWithoutChannel = new Map();
  var channels = new Map();
  var isArray = Array.isArray, hasOwn = Function.prototype.call.bind(Object.prototype.hasOwnProperty);
  var NAMESPACE_HOLD = typeof Symbol === 'function' ? Symbol('webkit namespace') : '_webkit';

  // The registrar answers 'vitrine:hello' if it ran first, or announces the token
  // itself when it runs after this script; either way before any page script.
  function takeToken(event) {
    if (typeof event.detail !== 'string') return;
    token = event.detail;
    document.removeEventListener('vitrine:token', takeToken);
  }
  document.addEventListener('vitrine:token', takeToken);
  document.dispatchEvent(new CustomEvent('vitrine:hello'));

  // The registrar registers the token when the bridge is first used (a call or a
  // listener), before that use's message: one message stream, so native code reads the
  // registration first.
  var registered = false;
  function useBridge() {
    if (registered || token === null) return;
    registered = true;
    document.dispatchEvent(new CustomEvent('vitrine:register'));
  }

  // Back from the back/forward cache: the registrar registered the token again, but the
  // channels native code opened for it closed when the document was hidden.
  window.addEventListener('pageshow', function (event) {
    if (!event.persisted) return;
    channels.clear();
    callsWithoutChannel.clear();
  });

  function channelFor(name, handler) {
    var channel = channels.get(name);
    if (channel !== undefined || !native) return channel;
    var calls = (callsWithoutChannel.get(name) || 0) + 1;
    callsWithoutChannel.set(name, calls);
    if (calls <= CHANNEL_AFTER) return undefined;
    // `+`: the channel takes batches (the strategy answers at once).
    var batches = true, base = name + '#' + token + '+', port = native[base];
    if (!port) { batches = false; base = name + '#' + token; port = native[base]; }
    // None if this frame may not call it, or WebKit has not applied the registration yet.
    if (!isPort(port)) return undefined;
    // Native code registers the JSON and bytes ports before the string port.
    var json = native[base + JSON_PORT], bytes = native[base + BYTES_PORT];
    channel = { name: name, port: port, json: isPort(json) ? json : null, bytes: isPort(bytes) ? bytes : null,
                batches: batches, shared: handler, unanswered: 0, waiting: [] };
    channels.set(name, channel);
    callsWithoutChannel.delete(name);
    return channel;
  }

  function isPort(port) {
    return !!port && typeof port.postMessage === 'function';
  }

  document.addEventListener('vitrine:event', function (event) {
    var text = event.detail;
    var newline = typeof text === 'string' ? text.indexOf('\n') : -1;
    if (newline < 0) return;
    var set = listeners.get(text.slice(0, newline));
    if (!set || set.size === 0) return;
    var payload;
    try { payload = JSON.parse(text.slice(newline + 1)); } catch (error) { return; }
    set.forEach(function (listener) {
      try { listener(payload); } catch (error) { setTimeout(function () { throw error; }); }
    });
  });

  function invoke(name, payload) {
    try {
      name = String(name);
      if (!name) return Promise.reject(new TypeError('vitrine.invoke: invalid handler name'));
      var handler = handlerCache.get(name);
      if (handler === undefined) {
        handler = native ? native[name] : undefined;
        if (!handler || typeof handler.postMessage !== 'function') {
          return Promise.reject(new Error("no strategy for message '" + name + "'"));
        }
        handlerCache.set(name, handler); // WebKit's handler objects live as long as the page
      }
      if (token === null) return Promise.reject(new Error('vitrine: no bridge in this frame'));
      useBridge();
      var channel = channelFor(name, handler);
      var call = codec.encode(payload, channel !== undefined && channel.json !== null);
      return channel ? postOnChannel(channel, call) : postShared(handler, call);
    } catch (error) {
      return Promise.reject(error);
    }
  }

  // The shared handler's forms, with the frame's token.
  function postShared(handler, call) {
    return handler.postMessage(sharedMessage(call)).then(function (reply) { return codec.decodeReply(reply); });
  }

  function sharedMessage(call) {
    if (call.kind === 'j') return token + 'j' + (call.hoisted ? codec.wholeJSON(call.hoisted) : call.text);
    if (call.kind === 'x') return { t: token, x: call.text };
    // Inside the request string only what survives native code's UTF-8 C string as it
    // is: no NUL, no lone surrogate.
    var text = call.text;
    return text.length <= SHORT_STRING && text.indexOf('\0') < 0 && wellFormed(text)
      ? token + 's' + text : { t: token, v: text };
  }

  // What a call posts on a channel's string port: a string payload as it is, JSON as
  // `{j: text}`, bytes as `{x: base64}` (the reply forms too: `ping` sends the post back as
  // it is). A batch's calls go in these forms.
  function channelMessage(call) {
    return call.kind === 's' ? call.text : call.kind === 'j' ? { j: call.text } : { x: call.text };
  }

  // Where a call goes on its channel, and what it posts there: JSON and bytes as bare
  // strings on their own ports (hoisted JSON as [text, string, …]), whose replies come back
  // in the same form; else on the string port.
  function channelPost(channel, call) {
    if (call.kind === 'j' && channel.json !== null) return { port: channel.json, kind: 'j', message: call.hoisted || call.text };
    if (call.kind === 'x' && channel.bytes !== null) return { port: channel.bytes, kind: 'x', message: call.text };
    return { port: channel.port, kind: 's', message: channelMessage(call) };
  }

  // On the frame's channel: posted at once while fewer than CHANNEL_POSTS posts are
  // unanswered, when it is large, or when the channel takes no batches; else it waits
  // for the next batch. Once native code has closed the channel (the bridge forgot this
  // frame), WebKit refuses posts there; the shared handler then says why.
  function postOnChannel(channel, call) {
    if (channel.batches && channel.unanswered >= CHANNEL_POSTS && call.size <= SHORT_STRING) {
      return new Promise(function (resolve, reject) {
        channel.waiting.push({ call: call, resolve: resolve, reject: reject });
      });
    }
    channel.unanswered++;
    var post = channelPost(channel, call);
    return post.port.postMessage(post.message).then(function (reply) {
      answered(channel, null);
      return codec.decodeReply(reply, post.kind);
    }, function (error) {
      answered(channel, error);
      if (!isClosed(error)) throw error;
      return postShared(channel.shared, call);
    });
  }

  function isClosed(error) {
    return error instanceof DOMException && error.name === 'InvalidAccessError';
  }

  // A post on the channel was answered (or refused, `error`): the calls that waited
  // meanwhile go now, together, or to the shared handler if the channel is closed.
  function answered(channel, error) {
    channel.unanswered--;
    if (error !== null && isClosed(error) && channels.get(channel.name) === channel) channels.delete(channel.name);
    if (channel.waiting.length === 0) return;
    if (channels.get(channel.name) !== channel) {
      var stranded = channel.waiting;
      channel.waiting = [];
      stranded.forEach(function (call) { resend(channel, call); });
      return;
    }
    postBatch(channel);
  }

  // One post `{b: [call, …]}`, answered with the calls' values in order, or
  // `{v: values, e: {index: message}}` when some were rejected (BridgeBatchReply).
  function postBatch(channel) {
    var calls = channel.waiting.length > BATCH_LIMIT ? channel.waiting.splice(0, BATCH_LIMIT) : channel.waiting;
    if (calls === channel.waiting) channel.waiting = [];
    var messages = new Array(calls.length);
    for (var i = 0; i < calls.length; i++) {
      messages[i] = channelMessage(calls[i].call);
    }
    channel.unanswered++;
    var posted;
    try { posted = channel.port.postMessage({ b: messages }); } catch (error) { posted = Promise.reject(error); }
    posted.then(function (reply) {
      answered(channel, null);
      var values = isArray(reply) ? reply : reply && reply.v;
      var errors = isArray(reply) ? null : reply && reply.e;
      for (var i = 0; i < calls.length; i++) {
        if (errors && hasOwn(errors, i)) calls[i].reject(new Error(String(errors[i])));
        else if (isArray(values)) settleDecoded(calls[i], values[i]);
        else calls[i].reject(new Error('vitrine: malformed batch reply'));
      }
    }, function (error) {
      answered(channel, error);
      calls.forEach(function (call) {
        if (isClosed(error)) resend(channel, call);
        else call.reject(error);
      });
    });
  }

  function settleDecoded(waiting, reply) {
    var value;
    try { value = codec.decodeReply(reply); } catch (error) { waiting.reject(error); return; }
    waiting.resolve(value);
  }

  // A waiting call whose channel closed goes to the shared handler, which says why.
  function resend(channel, waiting) {
    try { waiting.resolve(postShared(channel.shared, waiting.call)); } catch (error) { waiting.reject(error); }
  }

  function on(name, listener) {
    if (typeof listener !== 'function') throw new TypeError('vitrine.on: listener must be a function');
    useBridge();
    name = String(name);
    if (!listeners.has(name)) listeners.set(name, new Set());
    listeners.get(name).add(listener);
    return function () { off(name, listener); };
  }

  function off(name, listener) {
    var set = listeners.get(String(name));
    if (set) set.delete(listener);
  }

  var posters = new Map();
  var handlers = new Proxy({}, {
    get: function (target, name) {
      if (typeof name !== 'string') return undefined;
      var poster = posters.get(name);
      if (!poster) {
        poster = Object.freeze({ postMessage: function (body) { return invoke(name, body); } });
        posters.set(name, poster);
      }
      return poster;
    }
  });

  var namespace = window.webkit;
  if (!namespace) {
    namespace = {};
    Object.defineProperty(window, 'webkit', { value: namespace, enumerable: false });
  }
  // An own property shadows WebKit's `messageHandlers` getter, so the WKWebView form
  // goes through `invoke` and carries the frame's token.
  Object.defineProperty(namespace, 'messageHandlers', { value: handlers, enumerable: true });
  var api = { invoke: invoke, on: on, off: off, version: '1' };
  // The capabilities' namespaces (capabilities.js, which runs just before this file).
  var capabilities = window.vitrineCapabilities;
  if (typeof capabilities === 'function') {
    delete window.vitrineCapabilities;
    var spaces = capabilities(invoke, on, codec);
    Object.keys(spaces).forEach(function (name) { api[name] = Object.freeze(spaces[name]); });
  }
  // WebKit makes `window.webkit` when the page reads it and may collect it when nothing
  // else holds it; the next read then makes a new one, without the property above (seen
  // once a page had allocated a few MB: its posts reached native code without the SDK).
  // `window.vitrine` holds it, so it lives as long as the page.
  Object.defineProperty(api, NAMESPACE_HOLD, { value: namespace });
  Object.defineProperty(window, 'vitrine', { value: Object.freeze(api), enumerable: true });
})();
