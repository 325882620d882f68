import Vitrine

/// The JavaScript side of the native bridge: the page's SDK (main world) and the frame
/// registrar (an isolated script world), injected at document start into every frame.
///
/// Why a registrar: WebKitGTK tells a message handler nothing about the frame that posted,
/// and any frame — a cross-origin iframe included — can reach the handlers of the page's
/// world. So each frame's isolated world (separate JS globals and prototypes that page
/// scripts cannot touch) draws a random token at document start and registers it with
/// native code together with `location.origin` and `location.href` as that world sees
/// them, which no page script can forge. It hands the token to the same frame's SDK
/// through DOM events on the frame's own document, before any page script runs. Each
/// request carries the token; native code looks up who registered it and checks that
/// origin against the strategy's allowed origins before any strategy runs.
///
/// A page that reads its own frame's token learns nothing it could not do anyway: the
/// token only ever stands for that frame's origin. Other frames' tokens live in their own
/// JS realms, out of reach across origins.
///
/// Channels: once a frame has made `BridgeChannel.openAfter` accepted calls to a strategy,
/// native code registers a handler `NAME#TOKEN` that only that frame knows, and the SDK,
/// which counts its calls too, finds it and posts there with the payload as it is (a
/// string) or `{j: JSON}`: no token to read.
///
/// Until then, requests go to the strategy's shared WebKit
/// handler, as in WKWebView, in the form that costs WebKit least to copy across processes:
/// `token + "s" + text` for a string of up to `shortString` characters, `{t: token, v: text}`
/// for a longer string (echoed back without any conversion), and `token + "j" + JSON` for
/// anything else, checked by `JSON.stringify` in the page (so a value JSON cannot carry
/// rejects there, with a TypeError). A reply is the strategy's value itself. A native
/// event is `name \n JSON payload`, dispatched into the page by the isolated world.
enum ScriptBridge {
    /// The isolated world holding the frame registrar.
    static let worldName = "vitrine"
    /// The registrar's handler, in the isolated world only: `token \n origin \n url`.
    static let frameHandlerName = "vitrine-frame"
    /// Strings up to this length travel inside the request string; longer ones as their own value.
    static let shortString = 1024

    /// Main world: `window.vitrine` and the WKWebView-style `window.webkit.messageHandlers`.
    static let pageSDK = #"""
    (function () {
      'use strict';
      if (window.vitrine) return;
      var SHORT_STRING = \#(shortString);
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
      var CHANNEL_AFTER = \#(BridgeChannel.openAfter);
      var callsWithoutChannel = new Map();
      var channels = new Map();

      // The registrar answers 'vitrine:hello' if it ran first, or announces the token
      // itself when it runs after this script; either way before any page script.
      function takeToken(event) {
        if (typeof event.detail !== 'string') return;
        token = event.detail;
        document.removeEventListener('vitrine:token', takeToken);
      }
      document.addEventListener('vitrine:token', takeToken);
      document.dispatchEvent(new CustomEvent('vitrine:hello'));

      function channelFor(name) {
        var channel = channels.get(name);
        if (channel !== undefined || !native) return channel;
        var calls = (callsWithoutChannel.get(name) || 0) + 1;
        callsWithoutChannel.set(name, calls);
        if (calls <= CHANNEL_AFTER) return undefined;
        channel = native[name + '#' + token];
        // None if this frame may not call it, or WebKit has not applied the registration yet.
        if (!channel || typeof channel.postMessage !== 'function') return undefined;
        channels.set(name, channel);
        callsWithoutChannel.delete(name);
        return channel;
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
          var channel = channelFor(name);
          if (typeof payload === 'string') {
            return channel ? postOnChannel(name, channel, handler, payload) : postShared(handler, payload);
          }
          var body;
          try { body = payload === undefined ? 'null' : JSON.stringify(payload); }
          catch (error) { return Promise.reject(new TypeError('vitrine.invoke: payload is not JSON-serialisable: ' + error.message)); }
          if (body === undefined) return Promise.reject(new TypeError('vitrine.invoke: payload is not JSON-serialisable'));
          return channel ? postOnChannel(name, channel, handler, payload, body) : postShared(handler, payload, body);
        } catch (error) {
          return Promise.reject(error);
        }
      }

      // The shared handler's forms, with the frame's token: a string payload (`body`
      // undefined) or JSON text.
      function postShared(handler, payload, body) {
        if (body !== undefined) return handler.postMessage(token + 'j' + body);
        // Inside the request string only what survives native code's UTF-8 C string as it
        // is: no NUL, no lone surrogate.
        return handler.postMessage(payload.length <= SHORT_STRING && payload.indexOf('\0') < 0 && wellFormed(payload)
          ? token + 's' + payload : { t: token, v: payload });
      }

      // On the frame's channel. Once native code has closed it (the bridge forgot this
      // frame), WebKit refuses the post; the shared handler then says why.
      function postOnChannel(name, channel, handler, payload, body) {
        return channel.postMessage(body === undefined ? payload : { j: body }).catch(function (error) {
          if (!(error instanceof DOMException && error.name === 'InvalidAccessError')) throw error;
          if (channels.get(name) === channel) channels.delete(name);
          return postShared(handler, payload, body);
        });
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

      Object.defineProperty(window, 'vitrine', {
        value: Object.freeze({ invoke: invoke, on: on, off: off, version: '1' }),
        enumerable: true
      });
      var namespace = window.webkit;
      if (!namespace) {
        namespace = {};
        Object.defineProperty(window, 'webkit', { value: namespace, enumerable: false });
      }
      // An own property shadows WebKit's `messageHandlers` getter, so the WKWebView form
      // goes through `invoke` and carries the frame's token.
      Object.defineProperty(namespace, 'messageHandlers', { value: handlers, enumerable: true });
    })();
    """#

    /// Isolated world: registers this frame's token with its true origin and URL, and
    /// hands the token to the frame's SDK.
    static let frameRegistrar = #"""
    (function () {
      'use strict';
      var registrar = window.webkit && window.webkit.messageHandlers['\#(frameHandlerName)'];
      if (!registrar) return;
      var bytes = crypto.getRandomValues(new Uint8Array(16)), token = '';
      for (var i = 0; i < bytes.length; i++) token += (bytes[i] + 256).toString(16).slice(1);
      registrar.postMessage(token + '\n' + location.origin + '\n' + location.href);
      function give() { document.dispatchEvent(new CustomEvent('vitrine:token', { detail: token })); }
      document.addEventListener('vitrine:hello', function hello() {
        document.removeEventListener('vitrine:hello', hello);
        give();
      });
      give();
    })();
    """#

    /// Isolated world: delivers a native event to the page's `vitrine.on` listeners.
    static func eventDispatch(name: String, payloadJSON: String) -> String {
        let detail = JSONValue.string(name + "\n" + payloadJSON).jsonText
        return "document.dispatchEvent(new CustomEvent('vitrine:event', { detail: \(detail) }));"
    }
}
