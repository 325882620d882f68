'use strict';
// A few fake DOM elements for the on-screen keyboard's script (Resources/sdk/keyboard.js):
// fields that take the focus (focusin/focusout reach the document's capture listeners with
// the field as target), a document whose `execCommand` edits like WebKit's editor or
// refuses (as for some field types), and a React-style controlled input whose instance
// `value` property tracks what the framework set, so only real input changes its state.
const { Frame } = require('./fake-webkit.js');

/** An event whose target is the element, though dispatched on the document. */
class TargetedEvent extends Event {
  constructor(type, target, init = {}) {
    super(type, init);
    Object.defineProperty(this, 'target', { value: target });
    Object.assign(this, init);
  }
}
class FakeInputEvent extends Event {
  constructor(type, init = {}) { super(type, init); this.inputType = init.inputType; this.data = init.data; }
}
class FakeKeyboardEvent extends Event {
  constructor(type, init = {}) { super(type, init); this.key = init.key; }
}

class FakeElement extends EventTarget {
  constructor(document, tag, attributes = {}) {
    super();
    this.document = document;
    this.tagName = tag.toUpperCase();
    this.attributes = attributes;
    this.nodeType = 1;
    this.disabled = false;
    this.readOnly = false;
    this.tabIndex = 0;
    this.form = null;
    this.scrolls = 0;
    this.textContent = '';
    this.isContentEditable = 'contenteditable' in attributes;
    this.inputEvents = [];
    this.addEventListener('input', (event) => this.inputEvents.push(event.inputType));
    document.elements.push(this);
  }
  getAttribute(name) { return name in this.attributes ? this.attributes[name] : null; }
  closest() { return this; }
  getClientRects() { return [{}]; }
  scrollIntoView() { this.scrolls++; }
  focus() { this.document.moveFocus(this); }
  blur() { if (this.document.activeElement === this) this.document.moveFocus(null); }
}

/** `<input>` and `<textarea>`: `value` is an accessor of the class, like HTMLInputElement's. */
class FakeField extends FakeElement {
  get value() { return this.currentValue || ''; }
  set value(text) { this.currentValue = String(text); }
}

class FakeDocument extends EventTarget {
  constructor() {
    super();
    this.elements = [];
    this.body = null;
    this.activeElement = null;
    /** 'editor': execCommand edits as WebKit's editor does; 'refuse': it returns false. */
    this.editor = 'editor';
  }
  moveFocus(element) {
    const previous = this.activeElement;
    if (previous === element) return;
    if (previous) this.dispatchEvent(new TargetedEvent('focusout', previous, { relatedTarget: element }));
    this.activeElement = element;
    if (element) this.dispatchEvent(new TargetedEvent('focusin', element, { relatedTarget: previous }));
  }
  tap(element) { this.dispatchEvent(new TargetedEvent('pointerdown', element)); }
  querySelectorAll() { return this.elements.slice(); }
  execCommand(command, _ui, text) {
    const element = this.activeElement;
    if (this.editor !== 'editor' || !element) return false;
    const isField = 'value' in element;
    const read = () => (isField ? element.value : element.textContent);
    const write = (value) => { if (isField) Object.getOwnPropertyDescriptor(FakeField.prototype, 'value').set.call(element, value); else element.textContent = value; };
    if (command === 'insertText') write(read() + text);
    else if (command === 'insertLineBreak') write(read() + '\n');
    else if (command === 'delete') write(read().slice(0, -1));
    else return false;
    element.dispatchEvent(new FakeInputEvent('input', { bubbles: true, inputType: command === 'delete' ? 'deleteContentBackward' : command, data: text }));
    return true;
  }
}

/** A top frame with the keyboard script in the isolated world and its handler registered. */
function keyboardFrame() {
  const frame = new Frame();
  const document = new FakeDocument();
  for (const world of [frame.page, frame.isolated]) {
    world.window.document = document;
    Object.assign(world.window, { InputEvent: FakeInputEvent, KeyboardEvent: FakeKeyboardEvent, Event });
    world.window.addEventListener = (type, listener) => { (frame.windowListeners[type] ||= []).push(listener); };
  }
  frame.windowListeners = {};
  frame.isolated.register('vitrine-keyboard');
  frame.isolated.run('keyboard.js');
  frame.dom = document;
  frame.press = (action, text = '') => frame.isolated.window.vitrineKeyboardPress(action, text);
  frame.reports = () => frame.isolated.take().filter((post) => post.handler === 'vitrine-keyboard').map((post) => post.message);
  frame.isolated.take();
  return frame;
}

function field(document, tag, attributes = {}) {
  return tag === 'input' || tag === 'textarea' ? new FakeField(document, tag, attributes) : new FakeElement(document, tag, attributes);
}

/**
 * An input controlled as React controls one: the instance's own `value` property records
 * what the framework wrote (its value tracker); an `input` event whose native value differs
 * from the tracked one updates the state, which is written back (a re-render). A value set
 * through the instance property, as a naive `element.value = …` would, leaves the state as it was.
 */
function controlledInput(document) {
  const input = new FakeField(document, 'input', { type: 'text' });
  const native = Object.getOwnPropertyDescriptor(FakeField.prototype, 'value');
  const component = { state: '', renders: 0 };
  let tracked = '';
  Object.defineProperty(input, 'value', {
    configurable: true,
    get() { return native.get.call(this); },
    set(text) { tracked = String(text); native.set.call(this, text); },
  });
  input.addEventListener('input', () => {
    const current = native.get.call(input);
    if (current === tracked) return;
    component.state = current;
    component.renders++;
    input.value = component.state;
  });
  return { input, component };
}

module.exports = { keyboardFrame, field, controlledInput };
