// Vitrine's frame registrar: registers this document's token with its true origin
// (`self.origin`, "null" for a sandboxed frame, whatever its URL) and URL, says when the
// document goes (the token dies with it), hands the token to the frame's SDK (vitrine.js),
// and delivers native events to it.
//
// The origin and URL are read at document start, before any page script runs; they are
// sent when the SDK first uses the bridge (its `vitrine:register` event, dispatched before
// its first call or listener). A document that never uses the bridge sends no message, so
// the program never starts a JavaScript engine to read one (2.7 MiB of its memory).
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
  // `token \n main|frame \n origin \n url` (FrameRegistration in Swift), as the document
  // starts. Listeners added here, at document start, run before any the page adds.
  var registration = token + '\n' + (window.top === window ? 'main' : 'frame') + '\n' + self.origin + '\n' + location.href;
  var registered = false;
  function register() { registrar.postMessage(registration); }
  // A page may dispatch it too: it can only register what was read above.
  document.addEventListener('vitrine:register', function () {
    if (registered) return;
    registered = true;
    register();
  });
  // Capturing, and added first: no page listener can stop it before it runs.
  window.addEventListener('pagehide', function () { if (registered) registrar.postMessage(token + '\ngone'); }, true);
  window.addEventListener('pageshow', function (event) { if (event.persisted && registered) register(); }, true);
  function give() { document.dispatchEvent(new CustomEvent('vitrine:token', { detail: token })); }
  document.addEventListener('vitrine:hello', function hello() {
    document.removeEventListener('vitrine:hello', hello);
    give();
  });
  give();
})();
