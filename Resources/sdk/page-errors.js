// Crash and error reports: the page's uncaught exceptions (`error`) and unhandled promise
// rejections (`unhandledrejection`) go to the `page-error` strategy, which keeps them in the
// app's reports file. Injected at document start, after the SDK, in every frame; only the
// app's own origins are heard (the bridge refuses the others).
// The first MAX_REPORTS distinct errors of a document (by message, source and line) are
// sent, each bounded in length: a page that throws in a loop costs a handful of messages.
// Vitrine applies the same rule again: the page cannot widen it.
(function () {
  'use strict';
  if (!window.vitrine || typeof window.vitrine.invoke !== 'function') return;
  var invoke = window.vitrine.invoke;
  var MAX_REPORTS = 10;
  var TEXT_LIMIT = 1024;
  var STACK_LIMIT = 4096;
  var seen = Object.create(null);
  var sent = 0;

  /** @param {unknown} value @param {number} limit @returns {string} */
  function bounded(value, limit) {
    var text;
    try { text = String(value); } catch (error) { text = '(unprintable)'; }
    return text.length > limit ? text.slice(0, limit) : text;
  }

  /**
   * @param {VitrineStrategies['page-error']['payload']['kind']} kind
   * @param {unknown} message @param {string | undefined} source
   * @param {unknown} line @param {unknown} column @param {unknown} stack
   */
  function send(kind, message, source, line, column, stack) {
    if (sent >= MAX_REPORTS) return;
    // Typed by vitrine.d.ts from the Swift strategy's request (Tests/sdk/types.test.js).
    /** @type {VitrineStrategies['page-error']['payload']} */
    var report = {
      kind: kind,
      message: bounded(message, TEXT_LIMIT),
      source: bounded(source || location.href, TEXT_LIMIT),
      line: Math.max(0, Math.floor(Number(line) || 0)),
      column: Math.max(0, Math.floor(Number(column) || 0)),
    };
    if (stack) report.stack = bounded(stack, STACK_LIMIT);
    var key = report.line + '\u0000' + report.source + '\u0000' + report.message;
    if (seen[key]) return;
    seen[key] = true;
    sent += 1;
    try {
      invoke('page-error', report).catch(function () {});
    } catch (error) { /* one report lost; the page goes on */ }
  }

  // A stack frame's place: `fn@url:line:col` (JavaScriptCore) or `at fn (url:line:col)` (V8).
  /** @param {unknown} stack @returns {{source: string, line: number | string, column: number | string}} */
  function place(stack) {
    var lines = String(stack || '').split('\n');
    for (var i = 0; i < lines.length; i++) {
      var match = /(\S+?):(\d+):(\d+)\)?\s*$/.exec(lines[i]);
      if (match) return { source: match[1].replace(/^.*[@(]/, ''), line: match[2], column: match[3] };
    }
    return { source: location.href, line: 0, column: 0 };
  }

  window.addEventListener('error', function (event) {
    // A resource that failed to load also fires `error` (not an exception): no message.
    if (!event || event.message === undefined) return;
    var error = event.error;
    send('error', event.message, event.filename, event.lineno, event.colno, error && error.stack);
  });
  window.addEventListener('unhandledrejection', function (event) {
    var reason = event ? event.reason : undefined;
    var stack = reason && reason.stack;
    var where = place(stack);
    var message = reason && reason.message !== undefined ? reason.message : reason;
    send('unhandledrejection', message, where.source, where.line, where.column, stack);
  });
})();
