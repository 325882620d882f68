// Vitrine's frame registrar: registers this document's token with its true origin
// (`self.origin`, "null" for a sandboxed frame, whatever its URL) and URL, says when the
// document goes (the token dies with it), hands the token to the frame's SDK (vitrine.js),
// and delivers native events to it.
//
// Injected as it is, at document start, into every frame's isolated script world
// "vitrine" (ScriptBridge.frameRegistrar, read once per process where ResourceLocator finds
// sdk/), where page scripts cannot reach its globals, prototypes or handler.
// A plain script, not a module. ScriptBridge.swift explains why the bridge needs it.
//
// The handler's name and the event function's are Swift's too: VITRINE_PROTOCOL, from
// protocol.json (docs/bridge-protocol.md).
// Tests: `make test-js`.
(function () {
  'use strict';
  var FRAME_HANDLER = VITRINE_PROTOCOL.frameHandler;

  // A native event (WebContainer.emit evaluates `vitrineEvent(name, payloadJSON)` in this
  // world, ScriptBridge.eventDispatch) goes to the SDK's `vitrine.on` listeners as
  // `name \n JSON payload`. Only this world sees its globals.
  window[VITRINE_PROTOCOL.eventFunction] = function (name, payloadJSON) {
    document.dispatchEvent(new CustomEvent('vitrine:event', { detail: name + '\n' + payloadJSON }));
  };

  var registrar = window.webkit && window.webkit.messageHandlers[FRAME_HANDLER];
  if (!registrar) return;
  var bytes = crypto.getRandomValues(new Uint8Array(16)), token = '';
  for (var i = 0; i < bytes.length; i++) token += (bytes[i] + 256).toString(16).slice(1);
  // `token \n main|frame \n origin \n url` (FrameRegistration in Swift). Listeners added
  // here, at document start, run before any the page adds.
  function register() {
    registrar.postMessage(token + '\n' + (window.top === window ? 'main' : 'frame') + '\n' + self.origin + '\n' + location.href);
  }
  register();
  // Capturing, and added first: no page listener can stop it before it runs.
  window.addEventListener('pagehide', function () { registrar.postMessage(token + '\ngone'); }, true);
  window.addEventListener('pageshow', function (event) { if (event.persisted) register(); }, true);
  function give() { document.dispatchEvent(new CustomEvent('vitrine:token', { detail: token })); }
  document.addEventListener('vitrine:hello', function hello() {
    document.removeEventListener('vitrine:hello', hello);
    give();
  });
  give();
})();
