// The on-screen keyboard's page side (Sources/VitrineGTK/Keyboard/OnScreenKeyboard.swift).
// Injected at document start into the top frame only, in Vitrine's isolated script world:
// page scripts can neither post as it nor replace `vitrineKeyboardPress`, yet it sees the
// page's DOM and its events reach the page's listeners.
//
// It reports on `vitrine-keyboard` when an editable field gets the focus ("focus:text" or
// "focus:numeric") and when the focus leaves editable fields ("blur"), and types what the
// native keys ask through `vitrineKeyboardPress(action, text)`, evaluated by native code.
// Fields inside iframes are not seen (the script runs in the top frame only).
(function () {
  'use strict';
  var HANDLER = VITRINE_PROTOCOL.keyboardHandler;
  var TEXT_TYPES = ['text', 'search', 'email', 'url', 'password', 'number', 'tel'];
  var NUMERIC_TYPES = ['number', 'tel'];
  var NUMERIC_MODES = ['numeric', 'decimal', 'tel'];

  /** 'text', 'numeric' or null (not a field the keyboard types into). */
  function kindOf(element) {
    if (!element || element.nodeType !== 1) return null;
    if (element.disabled || element.readOnly) return null;
    var tag = String(element.tagName || '').toLowerCase();
    var mode = String((element.getAttribute && element.getAttribute('inputmode')) || '').toLowerCase();
    if (mode === 'none') return null;
    var numericMode = NUMERIC_MODES.indexOf(mode) >= 0;
    if (tag === 'textarea') return numericMode ? 'numeric' : 'text';
    if (tag === 'input') {
      var type = String((element.getAttribute && element.getAttribute('type')) || 'text').toLowerCase();
      if (TEXT_TYPES.indexOf(type) < 0) return null;
      return numericMode || NUMERIC_TYPES.indexOf(type) >= 0 ? 'numeric' : 'text';
    }
    if (element.isContentEditable) return numericMode ? 'numeric' : 'text';
    return null;
  }

  function post(message) {
    var handlers = window.webkit && window.webkit.messageHandlers;
    if (handlers && handlers[HANDLER]) handlers[HANDLER].postMessage(message);
  }

  var shownFor = null;

  function reveal(element) {
    if (element && typeof element.scrollIntoView === 'function') element.scrollIntoView({ block: 'center', inline: 'nearest' });
  }

  function show(element) {
    shownFor = element;
    post('focus:' + kindOf(element));
    reveal(element);
  }

  document.addEventListener('focusin', function (event) {
    if (kindOf(event.target)) {
      show(event.target);
    } else if (shownFor) {
      shownFor = null;
      post('blur');
    }
  }, true);

  document.addEventListener('focusout', function (event) {
    if (event.target !== shownFor) return;
    // Focus moving to another field: its focusin reports it, without a hide in between.
    if (kindOf(event.relatedTarget)) return;
    shownFor = null;
    post('blur');
  }, true);

  // A tap on the focused field after "Hide keyboard" brings the keyboard back (no focusin).
  document.addEventListener('pointerdown', function (event) {
    var target = event.target;
    var editable = target && target.closest ? target.closest('input, textarea, [contenteditable]') : target;
    if (editable && editable === document.activeElement && kindOf(editable)) show(editable);
  }, true);

  // The view shrinks when the keyboard slides up: keep the field in sight.
  window.addEventListener('resize', function () {
    if (shownFor && shownFor === document.activeElement) reveal(shownFor);
  });

  /** The native `value` setter of the field's class (React's value tracker sits on the instance). */
  function setNativeValue(element, value) {
    var prototype = Object.getPrototypeOf(element);
    while (prototype) {
      var descriptor = Object.getOwnPropertyDescriptor(prototype, 'value');
      if (descriptor && descriptor.set) { descriptor.set.call(element, value); return; }
      prototype = Object.getPrototypeOf(prototype);
    }
    element.value = value;
  }

  function inputEvent(inputType, data) {
    var init = { bubbles: true, cancelable: false, inputType: inputType, data: data };
    return typeof InputEvent === 'function' ? new InputEvent('input', init) : new Event('input', init);
  }

  /** Types through the editor (undo, selection, `beforeinput`/`input` as for typing); when the
   *  editor does not take the command, sets the value natively and fires `input` itself. A
   *  page that cancels `beforeinput` (or a full `maxlength`) refuses the text: it stays out. */
  function edit(element, command, text, fallback) {
    var before = 'value' in element ? element.value : element.textContent;
    var done = false;
    try { done = document.execCommand(command, false, text); } catch (error) { done = false; }
    var after = 'value' in element ? element.value : element.textContent;
    if (done) return after !== before ? 'typed' : 'refused';
    if (!('value' in element)) return 'refused';
    var value = fallback(String(element.value));
    if (value === element.value) return 'unchanged';
    setNativeValue(element, value);
    element.dispatchEvent(inputEvent(command === 'delete' ? 'deleteContentBackward' : 'insertText',
      command === 'delete' ? null : text));
    return 'set';
  }

  function editableFields() {
    var all = document.querySelectorAll('input, textarea, [contenteditable]');
    var fields = [];
    for (var i = 0; i < all.length; i++) {
      var field = all[i];
      var hidden = typeof field.getClientRects === 'function' && field.getClientRects().length === 0;
      if (kindOf(field) && field.tabIndex >= 0 && !hidden) fields.push(field);
    }
    return fields;
  }

  function nextField(element) {
    var fields = editableFields();
    if (fields.length === 0) return 'none';
    var next = fields[(fields.indexOf(element) + 1) % fields.length];
    next.focus();
    return 'focused';
  }

  function enter(element) {
    var tag = String(element.tagName || '').toLowerCase();
    if (tag === 'textarea' || (tag !== 'input' && element.isContentEditable)) {
      // A textarea's editor takes a typed newline; a contenteditable one a line break.
      return tag === 'textarea'
        ? edit(element, 'insertText', '\n', function (value) { return value + '\n'; })
        : edit(element, 'insertLineBreak', null, function (value) { return value + '\n'; });
    }
    var init = { key: 'Enter', code: 'Enter', keyCode: 13, which: 13, bubbles: true, cancelable: true };
    var proceed = element.dispatchEvent(new KeyboardEvent('keydown', init));
    element.dispatchEvent(new KeyboardEvent('keyup', init));
    var form = element.form;
    if (!proceed || !form) return proceed ? 'no-form' : 'prevented';
    if (typeof form.requestSubmit === 'function') form.requestSubmit(); else form.submit();
    return 'submitted';
  }

  /** Performs one key's action on the focused field; returns what happened (for logs and tests). */
  window[VITRINE_PROTOCOL.keyboardPressFunction] = function (action, text) {
    var element = document.activeElement;
    if (!kindOf(element)) return 'no-field';
    switch (action) {
      case 'insert':
        return edit(element, 'insertText', String(text), function (value) { return value + String(text); });
      case 'delete':
        return edit(element, 'delete', null, function (value) { return value.slice(0, -1); });
      case 'enter':
        return enter(element);
      case 'next':
        return nextField(element);
      default:
        return 'unknown-action';
    }
  };
})();
