// Vitrine's page SDK: `window.vitrine` and the WKWebView form
// `window.webkit.messageHandlers.NAME.postMessage(x)`, typed by vitrine.d.ts beside it.
//
// Injected as it is, at document start, into the page's (main) world of every frame
// (ScriptBridge.pageSDK, read once per process where ResourceLocator finds sdk/); it is
// a plain script, not a module. The frame registrar (frame-registrar.js) runs in an
// isolated world and hands this script the frame's token. ScriptBridge.swift documents
// the protocol with native code.
//
// The constants below are Swift's too: the loader refuses this file unless each of their
// lines reads exactly as Swift expects (SDKFile.requiredLines), so a change here or
// there cannot go unnoticed. Tests: `make test-js` (Tests/sdk/, Node's test runner).
(function () {
  'use strict';
  if (window.vitrine) return;
  var SHORT_STRING = 1024;
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
  var CHANNEL_AFTER = 16;
  // A channel carries at most CHANNEL_POSTS unanswered posts; small calls made
  // meanwhile wait, and go together (BATCH_LIMIT at most) as soon as one post is
  // answered. A large one (over SHORT_STRING characters) goes at once: batching it
  // would only make one big copy out of several.
  var CHANNEL_POSTS = 2;
  var BATCH_LIMIT = 1024;
  // A channel's ports besides its own name (the string port): JSON text and base64 text
  // posted there as bare strings, answered the same way (BridgeChannel.Port).
  var JSON_PORT = '.j';
  var BYTES_PORT = '.x';
  // Strings at least HOIST_MIN characters long inside a payload with at most HOIST_MEMBERS
  // members of its own travel beside its JSON text, not in it: JSON.stringify and JSON.parse
  // would copy and scan them twice more. Their places in the text read HOIST_MARK + index.
  var HOIST_MIN = 4096;
  var HOIST_MEMBERS = 64, HOIST_NODES = 1024;
  var HOIST_MARK = '\uffff';
  var callsWithoutChannel = new Map();
  var channels = new Map();
  var isArray = Array.isArray, hasOwn = Function.prototype.call.bind(Object.prototype.hasOwnProperty);
  var parseJSON = JSON.parse, stringifyJSON = JSON.stringify;
  var NAMESPACE_HOLD = typeof Symbol === 'function' ? Symbol('webkit namespace') : '_webkit';

  // Bytes travel as base64 text: WebKitGTK carries a Uint8Array in a message as an object
  // with a key per byte. The engine's own codec when it has one (WebKitGTK 2.50 does).
  var toBase64 = typeof Uint8Array.prototype.toBase64 === 'function'
    ? Function.prototype.call.bind(Uint8Array.prototype.toBase64)
    : function (bytes) {
      var text = '';
      for (var i = 0; i < bytes.length; i += 0x8000) text += String.fromCharCode.apply(null, bytes.subarray(i, i + 0x8000));
      return btoa(text);
    };
  var fromBase64 = typeof Uint8Array.fromBase64 === 'function'
    ? Uint8Array.fromBase64.bind(Uint8Array)
    : function (base64) {
      var text = atob(base64), bytes = new Uint8Array(text.length);
      for (var i = 0; i < text.length; i++) bytes[i] = text.charCodeAt(i);
      return bytes;
    };
  var tagOf = Function.prototype.call.bind(Object.prototype.toString);
  // A Uint8Array as it is; any other view or an ArrayBuffer as a Uint8Array over its
  // bytes (by tag, not instanceof: a buffer from another frame's realm counts too).
  function asBytes(payload) {
    if (payload === null || typeof payload !== 'object') return null;
    if (ArrayBuffer.isView(payload)) {
      return tagOf(payload) === '[object Uint8Array]' ? payload
        : new Uint8Array(payload.buffer, payload.byteOffset, payload.byteLength);
    }
    var tag = tagOf(payload);
    return tag === '[object ArrayBuffer]' || tag === '[object SharedArrayBuffer]' ? new Uint8Array(payload) : null;
  }

  // What a call carries (`kind`, `text`, `size`): 's' a string payload as it is, 'j' JSON
  // text, 'x' a byte buffer's base64 text. `hoisted` (with 'j', when `mayHoist`): the long
  // strings the text names by place (see `hoist`). Throws a TypeError for what JSON cannot carry.
  function encode(payload, mayHoist) {
    if (typeof payload === 'string') return { kind: 's', text: payload, size: payload.length };
    var bytes = asBytes(payload);
    if (bytes !== null) {
      var base64 = toBase64(bytes);
      return { kind: 'x', text: base64, size: base64.length };
    }
    var body;
    try {
      var hoisted = mayHoist ? hoist(payload) : null;
      if (hoisted !== null) return { kind: 'j', text: hoisted[0], hoisted: hoisted, size: Infinity };
      body = payload === undefined ? 'null' : stringifyJSON(payload);
    } catch (error) {
      throw new TypeError('vitrine.invoke: payload is not JSON-serialisable: ' + error.message);
    }
    if (body === undefined) throw new TypeError('vitrine.invoke: payload is not JSON-serialisable');
    return { kind: 'j', text: body, size: body.length };
  }

  // [JSON text, string, …] when an object or array with at most HOIST_MEMBERS members of its
  // own holds a string of HOIST_MIN characters or more as one of them: every such string
  // (and any string starting with HOIST_MARK, so a mark always means a place) leaves the
  // text, which holds HOIST_MARK + its index in the array instead. Null when there is
  // nothing to lift, or the payload has more than HOIST_NODES values (the page's parse
  // would revive each of them). JSON.stringify's own rules apply: toJSON, replacer order.
  var TOO_MANY_NODES = {}, UNKNOWN_PLACE = {};
  function hoist(payload) {
    if (payload === null || typeof payload !== 'object' || typeof payload.toJSON === 'function') return null;
    var keys = isArray(payload) ? null : Object.keys(payload);
    var count = keys === null ? payload.length : keys.length;
    if (count > HOIST_MEMBERS) return null;
    for (var i = 0, long = false; i < count && !long; i++) {
      var member = keys === null ? payload[i] : payload[keys[i]];
      long = typeof member === 'string' && member.length >= HOIST_MIN;
    }
    if (!long) return null;
    var parts = [null], nodes = 0;
    try {
      parts[0] = stringifyJSON(payload, function (key, value) {
        if (++nodes > HOIST_NODES) throw TOO_MANY_NODES;
        return typeof value === 'string' && (value.length >= HOIST_MIN || value.charCodeAt(0) === 0xffff)
          ? HOIST_MARK + (parts.push(value) - 1) : value;
      });
    } catch (error) {
      if (error === TOO_MANY_NODES) return null;
      throw error;
    }
    return parts;
  }

  // The value of [JSON text, string, …] (`hoist`): each string of the text that starts with
  // HOIST_MARK is the lifted string its index names.
  function unhoist(parts) {
    return parseJSON(parts[0], function (key, value) {
      if (typeof value !== 'string' || value.charCodeAt(0) !== 0xffff) return value;
      var lifted = parts[+value.slice(1)];
      if (typeof lifted !== 'string') throw UNKNOWN_PLACE;
      return lifted;
    });
  }

  // A reply as native code sends it (BridgeReply.swift): a string in the form of the port
  // it came back on (`kind`: 's' the string itself, 'j' JSON text, 'x' base64 text),
  // [JSON text, string, …] on the JSON port (`hoist`), `{j: JSON text}` (parsed here, so
  // object members keep their order), `{x: base64}` (a Uint8Array) or `{e: message, c: code}`
  // (thrown as an Error with `code`).
  function decodeReply(reply, kind) {
    if (typeof reply === 'string' && kind !== undefined && kind !== 's') {
      return kind === 'j' ? parseReply(reply, parseJSON) : fromBase64(reply);
    }
    if (reply === null || typeof reply !== 'object') return reply;
    if (kind === 'j' && isArray(reply) && typeof reply[0] === 'string') return parseReply(reply, unhoist);
    if (typeof reply.j === 'string') return parseReply(reply.j, parseJSON);
    if (typeof reply.x === 'string') return fromBase64(reply.x);
    if (typeof reply.e === 'string') {
      // A strategy's Swift error: its description and `TypeName.caseName`.
      var error = new Error(reply.e);
      if (typeof reply.c === 'string') error.code = reply.c;
      throw error;
    }
    throw new Error('vitrine: malformed reply');
  }

  function parseReply(text, parse) {
    try { return parse(text); } catch (error) {
      throw new Error(error === UNKNOWN_PLACE ? 'vitrine: malformed reply' : "vitrine: the strategy's answer is not valid JSON");
    }
  }

  // The registrar answers 'vitrine:hello' if it ran first, or announces the token
  // itself when it runs after this script; either way before any page script.
  function takeToken(event) {
    if (typeof event.detail !== 'string') return;
    token = event.detail;
    document.removeEventListener('vitrine:token', takeToken);
  }
  document.addEventListener('vitrine:token', takeToken);
  document.dispatchEvent(new CustomEvent('vitrine:hello'));

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
      var channel = channelFor(name, handler);
      var call = encode(payload, channel !== undefined && channel.json !== null);
      return channel ? postOnChannel(channel, call) : postShared(handler, call);
    } catch (error) {
      return Promise.reject(error);
    }
  }

  // The shared handler's forms, with the frame's token.
  function postShared(handler, call) {
    return handler.postMessage(sharedMessage(call)).then(function (reply) { return decodeReply(reply); });
  }

  function sharedMessage(call) {
    if (call.kind === 'j') return token + 'j' + (call.hoisted ? stringifyJSON(unhoist(call.hoisted)) : call.text);
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
      return decodeReply(reply, post.kind);
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
    try { value = decodeReply(reply); } catch (error) { waiting.reject(error); return; }
    waiting.resolve(value);
  }

  // A waiting call whose channel closed goes to the shared handler, which says why.
  function resend(channel, waiting) {
    try { waiting.resolve(postShared(channel.shared, waiting.call)); } catch (error) { waiting.reject(error); }
  }

  function on(name, listener) {
    if (typeof listener !== 'function') throw new TypeError('vitrine.on: listener must be a function');
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
    var spaces = capabilities(invoke, on);
    Object.keys(spaces).forEach(function (name) { api[name] = Object.freeze(spaces[name]); });
  }
  // WebKit makes `window.webkit` when the page reads it and may collect it when nothing
  // else holds it; the next read then makes a new one, without the property above (seen
  // once a page had allocated a few MB: its posts reached native code without the SDK).
  // `window.vitrine` holds it, so it lives as long as the page.
  Object.defineProperty(api, NAMESPACE_HOLD, { value: namespace });
  Object.defineProperty(window, 'vitrine', { value: Object.freeze(api), enumerable: true });
})();
