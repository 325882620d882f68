import Vitrine

/// The JavaScript side of the native bridge: the page's SDK (main world) and the trusted
/// bridge (an isolated script world), injected at document start into every frame.
///
/// Why two worlds: WebKitGTK tells a message handler nothing about the frame that posted,
/// and any frame — a cross-origin iframe included — can reach handlers registered in the
/// page's world. So Vitrine registers its handlers only in the isolated world `vitrine`,
/// which page scripts cannot touch (separate JS globals and prototypes). The page's SDK
/// hands each request to that world through a DOM event on its own document; the bridge
/// stamps it with `location.origin` and `location.href` as its own world sees them, which
/// no page script can forge, and native code checks them against the strategy's allowed
/// origins before any strategy runs.
///
/// Wire format (strings only, so nothing is cloned across worlds and native code reads each
/// message with one conversion): a request is `id \n name \n JSON body`; what the bridge
/// posts is `origin \n url \n JSON body`; a reply is
/// `id \n 1|0 \n JSON value | error message`; a native event `name \n JSON payload`.
enum ScriptBridge {
    /// The isolated world holding the message handlers.
    static let worldName = "vitrine"

    /// Main world: `window.vitrine` and the WKWebView-style `window.webkit.messageHandlers`.
    static let pageSDK = #"""
    (function () {
      'use strict';
      if (window.vitrine) return;
      var pending = new Map();
      var listeners = new Map();
      var nextId = 1;

      function split(text, parts) {
        var fields = [], start = 0;
        for (var i = 0; i < parts - 1; i++) {
          var end = text.indexOf('\n', start);
          if (end < 0) return null;
          fields.push(text.slice(start, end));
          start = end + 1;
        }
        fields.push(text.slice(start));
        return fields;
      }

      document.addEventListener('vitrine:response', function (event) {
        var fields = typeof event.detail === 'string' ? split(event.detail, 3) : null;
        if (!fields) return;
        var entry = pending.get(Number(fields[0]));
        if (!entry) return;
        pending.delete(Number(fields[0]));
        if (fields[1] !== '1') { entry.reject(new Error(fields[2])); return; }
        try { entry.resolve(JSON.parse(fields[2])); }
        catch (error) { entry.reject(new Error('vitrine: malformed reply')); }
      });

      document.addEventListener('vitrine:event', function (event) {
        var fields = typeof event.detail === 'string' ? split(event.detail, 2) : null;
        if (!fields) return;
        var set = listeners.get(fields[0]);
        if (!set || set.size === 0) return;
        var payload;
        try { payload = JSON.parse(fields[1]); } catch (error) { return; }
        set.forEach(function (listener) {
          try { listener(payload); } catch (error) { setTimeout(function () { throw error; }); }
        });
      });

      function invoke(name, payload) {
        return new Promise(function (resolve, reject) {
          name = String(name);
          if (!name || name.indexOf('\n') >= 0) { reject(new TypeError('vitrine.invoke: invalid handler name')); return; }
          var body;
          try { body = JSON.stringify(payload === undefined ? null : payload); }
          catch (error) { reject(new TypeError('vitrine.invoke: payload is not JSON-serialisable: ' + error.message)); return; }
          if (body === undefined) { reject(new TypeError('vitrine.invoke: payload is not JSON-serialisable')); return; }
          var id = nextId++;
          pending.set(id, { resolve: resolve, reject: reject });
          document.dispatchEvent(new CustomEvent('vitrine:request', { detail: id + '\n' + name + '\n' + body }));
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

      var handlers = new Proxy({}, {
        get: function (target, name) {
          if (typeof name !== 'string') return undefined;
          return { postMessage: function (body) { return invoke(name, body); } };
        }
      });

      Object.defineProperty(window, 'vitrine', {
        value: Object.freeze({ invoke: invoke, on: on, off: off, version: '1' }),
        enumerable: true
      });
      if (!window.webkit) Object.defineProperty(window, 'webkit', { value: {}, enumerable: false });
      try { Object.defineProperty(window.webkit, 'messageHandlers', { value: handlers, enumerable: true }); }
      catch (error) { /* handlers registered in this world already exist: leave them */ }
    })();
    """#

    /// Isolated world: forwards requests to the handlers with the caller's true origin.
    static let isolatedBridge = #"""
    (function () {
      'use strict';
      var handlers = window.webkit && window.webkit.messageHandlers;
      function reply(id, ok, text) {
        document.dispatchEvent(new CustomEvent('vitrine:response', { detail: id + '\n' + (ok ? '1' : '0') + '\n' + text }));
      }
      document.addEventListener('vitrine:request', function (event) {
        var text = event.detail;
        if (typeof text !== 'string') return;
        var first = text.indexOf('\n'), second = text.indexOf('\n', first + 1);
        if (first < 0 || second < 0) return;
        var id = text.slice(0, first), name = text.slice(first + 1, second), body = text.slice(second + 1);
        var handler = handlers ? handlers[name] : undefined;
        if (!handler || typeof handler.postMessage !== 'function') {
          reply(id, false, "no strategy for message '" + name + "'");
          return;
        }
        handler.postMessage(location.origin + '\n' + location.href + '\n' + body)
          .then(function (value) { reply(id, true, String(value)); },
                function (error) { reply(id, false, String(error && error.message || error)); });
      });
    })();
    """#

    /// Isolated world: delivers a native event to the page's `vitrine.on` listeners.
    static func eventDispatch(name: String, payloadJSON: String) -> String {
        let detail = JSONValue.string(name + "\n" + payloadJSON).jsonText
        return "document.dispatchEvent(new CustomEvent('vitrine:event', { detail: \(detail) }));"
    }
}
