// What a call to the bridge carries and how a reply reads back: the page SDK's payloads
// (vitrine.js), typed by vitrine.d.ts. A string goes as it is, a byte buffer as base64
// text, anything else as the JSON text JSON.stringify makes, its long strings beside it on
// a channel's JSON port ([text, string, …]; HoistedJSONText.swift reads that form); a
// reply comes back in the forms BridgeReply.swift builds.
//
// Injected in the page's world between capabilities.js and vitrine.js, in the same script:
// it only leaves a function for vitrine.js, which takes it and deletes it before any page
// script runs. HOIST_MARK is Swift's too (VITRINE_PROTOCOL, from protocol.json). Tests:
// Tests/sdk/ports.test.js, exact.test.js.
(function () {
  'use strict';
  if (window.vitrine) return;
  // Strings at least HOIST_MIN characters long inside a payload with at most HOIST_MEMBERS
  // members of its own travel beside its JSON text, not in it: JSON.stringify and JSON.parse
  // would copy and scan them twice more. Their places in the text read HOIST_MARK + index.
  var HOIST_MIN = 4096;
  var HOIST_MEMBERS = 64, HOIST_NODES = 1024;
  var HOIST_MARK = VITRINE_PROTOCOL.hoistMark;
  var isArray = Array.isArray, parseJSON = JSON.parse, stringifyJSON = JSON.stringify;

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

  function payload() {
    return {
      encode: encode,
      decodeReply: decodeReply,
      // Base64 for the capabilities' binary fields: any byte buffer or view, and back.
      toBase64: function (buffer) { return toBase64(asBytes(buffer)); },
      fromBase64: fromBase64,
      // The whole JSON text of [text, string, …], for the shared handler (a call resent there).
      wholeJSON: function (parts) { return stringifyJSON(unhoist(parts)); }
    };
  }

  Object.defineProperty(window, 'vitrinePayload', { value: payload, configurable: true });
})();
