// `vitrine dev` only: the page's errors (uncaught, unhandled rejections, console.error)
// go to the `dev-console` strategy, which prints them in the terminal with file and line.
// Why a script: WebKitGTK 4.1's view has no console-message signal.
(function () {
  'use strict';
  if (!window.vitrine || typeof window.vitrine.invoke !== 'function') return;
  var invoke = window.vitrine.invoke;
  var originalError = console.error;

  function send(kind, message, source, line, column) {
    try {
      invoke('dev-console', {
        kind: kind, message: String(message), source: String(source || location.href),
        line: Number(line) || 0, column: Number(column) || 0,
      }).catch(function () {});
    } catch (error) { /* the terminal misses one line; the page goes on */ }
  }

  // A stack frame's place: `at fn (url:line:col)` (V8) or `fn@url:line:col` (JavaScriptCore).
  function place(frame) {
    var match = /(\S+?):(\d+):(\d+)\)?\s*$/.exec(frame);
    return match ? { source: match[1].replace(/^.*[@(]/, ''), line: match[2], column: match[3] } : null;
  }
  // This script's own source, as its frames name it (nothing for an unnamed user script).
  var own = (place(String(new Error().stack).split('\n')[0]) || place(String(new Error().stack).split('\n')[1]) || {}).source;

  // The first frame after the stack's first line that is not this script's: the caller.
  // (JavaScriptCore's first line is the current function, V8's the message.)
  function callerPlace(stack) {
    var lines = String(stack || '').split('\n');
    for (var i = 1; i < lines.length; i++) {
      var found = place(lines[i]);
      if (found && found.source !== own) return found;
    }
    return { source: location.href, line: 0, column: 0 };
  }

  window.addEventListener('error', function (event) {
    send('error', event.message, event.filename, event.lineno, event.colno);
  });
  window.addEventListener('unhandledrejection', function (event) {
    var reason = event.reason;
    var place = callerPlace(reason && reason.stack ? 'Error\n' + reason.stack : '');
    send('unhandledrejection', reason && reason.message !== undefined ? reason.message : reason,
      place.source, place.line, place.column);
  });
  console.error = function () {
    var place = callerPlace(new Error().stack);
    send('console.error', Array.prototype.map.call(arguments, String).join(' '), place.source, place.line, place.column);
    return originalError.apply(console, arguments);
  };
})();
