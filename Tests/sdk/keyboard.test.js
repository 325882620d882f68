'use strict';
// The on-screen keyboard's page script (Resources/sdk/keyboard.js): what it reports on
// focus and blur, and how each key's action reaches the focused field as real input.
const test = require('node:test');
const assert = require('node:assert');
const { keyboardFrame, field, controlledInput } = require('./support/fake-dom.js');

test('text fields, textarea and contenteditable report focus:text; number, tel and inputmode=numeric the numeric pad', () => {
  const frame = keyboardFrame();
  const { dom } = frame;
  const cases = [
    [field(dom, 'input', { type: 'text' }), 'focus:text'],
    [field(dom, 'input', {}), 'focus:text'],
    [field(dom, 'input', { type: 'search' }), 'focus:text'],
    [field(dom, 'input', { type: 'email' }), 'focus:text'],
    [field(dom, 'input', { type: 'url' }), 'focus:text'],
    [field(dom, 'input', { type: 'password' }), 'focus:text'],
    [field(dom, 'textarea'), 'focus:text'],
    [field(dom, 'div', { contenteditable: '' }), 'focus:text'],
    [field(dom, 'input', { type: 'number' }), 'focus:numeric'],
    [field(dom, 'input', { type: 'tel' }), 'focus:numeric'],
    [field(dom, 'input', { type: 'text', inputmode: 'numeric' }), 'focus:numeric'],
  ];
  for (const [element, expected] of cases) {
    element.focus();
    assert.deepStrictEqual(frame.reports(), [expected], element.tagName + ' ' + JSON.stringify(element.attributes));
  }
});

test('moving between fields reports only the new focus; leaving them reports blur once', () => {
  const frame = keyboardFrame();
  const name = field(frame.dom, 'input', { type: 'text' });
  const age = field(frame.dom, 'input', { type: 'number' });
  const button = field(frame.dom, 'button');
  const checkbox = field(frame.dom, 'input', { type: 'checkbox' });
  name.focus();
  age.focus();
  assert.deepStrictEqual(frame.reports(), ['focus:text', 'focus:numeric']);
  button.focus();
  assert.deepStrictEqual(frame.reports(), ['blur']);
  checkbox.focus();
  name.focus();
  name.blur();
  assert.deepStrictEqual(frame.reports(), ['focus:text', 'blur']);
});

test('disabled, read-only and inputmode=none fields bring no keyboard', () => {
  const frame = keyboardFrame();
  const disabled = field(frame.dom, 'input', { type: 'text' });
  disabled.disabled = true;
  const readOnly = field(frame.dom, 'textarea');
  readOnly.readOnly = true;
  const none = field(frame.dom, 'input', { inputmode: 'none' });
  for (const element of [disabled, readOnly, none]) element.focus();
  assert.deepStrictEqual(frame.reports(), []);
});

test('the focused field is scrolled into view on focus and again when the view shrinks', () => {
  const frame = keyboardFrame();
  const name = field(frame.dom, 'input', { type: 'text' });
  name.focus();
  assert.strictEqual(name.scrolls, 1);
  for (const listener of frame.windowListeners.resize) listener({});
  assert.strictEqual(name.scrolls, 2);
});

test('a tap on the still-focused field after hiding shows the keyboard again', () => {
  const frame = keyboardFrame();
  const name = field(frame.dom, 'input', { type: 'text' });
  name.focus();
  frame.reports();
  frame.dom.tap(name);
  assert.deepStrictEqual(frame.reports(), ['focus:text']);
  frame.dom.tap(field(frame.dom, 'input', { type: 'text' }));
  assert.deepStrictEqual(frame.reports(), [], 'a tap on a field without focus waits for its focusin');
});

for (const editor of ['editor', 'refuse']) {
  test('typed text and backspace reach the field with input events (execCommand ' + editor + ')', () => {
    const frame = keyboardFrame();
    frame.dom.editor = editor;
    const name = field(frame.dom, 'input', { type: 'text' });
    name.focus();
    assert.strictEqual(frame.press('insert', 'H'), editor === 'editor' ? 'typed' : 'set');
    frame.press('insert', 'i');
    frame.press('insert', '!');
    frame.press('delete');
    assert.strictEqual(name.value, 'Hi');
    assert.strictEqual(name.inputEvents.length, 4);
    assert.strictEqual(name.inputEvents[3], 'deleteContentBackward');
  });

  test('a React-style controlled input takes the typed text into its state (execCommand ' + editor + ')', () => {
    const frame = keyboardFrame();
    frame.dom.editor = editor;
    const { input, component } = controlledInput(frame.dom);
    input.focus();
    for (const letter of 'abc') frame.press('insert', letter);
    frame.press('delete');
    assert.strictEqual(component.state, 'ab');
    assert.strictEqual(input.value, 'ab');
    assert.strictEqual(component.renders, 4);
  });
}

test('enter: a newline in a textarea, a line break in contenteditable, a submit in a form field unless keydown is cancelled', () => {
  const frame = keyboardFrame();
  const notes = field(frame.dom, 'textarea');
  notes.focus();
  frame.press('insert', 'a');
  frame.press('enter');
  assert.strictEqual(notes.value, 'a\n');

  const editable = field(frame.dom, 'div', { contenteditable: '' });
  editable.focus();
  frame.press('enter');
  assert.strictEqual(editable.textContent, '\n');

  const submits = [];
  const name = field(frame.dom, 'input', { type: 'text' });
  name.form = { requestSubmit: () => submits.push('requestSubmit') };
  name.focus();
  assert.strictEqual(frame.press('enter'), 'submitted');
  assert.deepStrictEqual(submits, ['requestSubmit']);
  name.addEventListener('keydown', (event) => event.preventDefault());
  assert.strictEqual(frame.press('enter'), 'prevented');
  assert.deepStrictEqual(submits, ['requestSubmit']);
});

test('next moves to the following editable field, skipping others, and wraps around', () => {
  const frame = keyboardFrame();
  const first = field(frame.dom, 'input', { type: 'text' });
  field(frame.dom, 'button');
  const second = field(frame.dom, 'input', { type: 'number' });
  const skipped = field(frame.dom, 'input', { type: 'text' });
  skipped.tabIndex = -1;
  first.focus();
  frame.press('next');
  assert.strictEqual(frame.dom.activeElement, second);
  frame.press('next');
  assert.strictEqual(frame.dom.activeElement, first);
  assert.deepStrictEqual(frame.reports(), ['focus:text', 'focus:numeric', 'focus:text']);
});

test('with no editable field focused, keys do nothing', () => {
  const frame = keyboardFrame();
  const button = field(frame.dom, 'button');
  button.focus();
  assert.strictEqual(frame.press('insert', 'x'), 'no-field');
  assert.strictEqual(frame.press('bogus'), 'no-field');
  const name = field(frame.dom, 'input', { type: 'text' });
  name.focus();
  assert.strictEqual(frame.press('bogus'), 'unknown-action');
  assert.strictEqual(name.value, '');
});

test('the keyboard script posts nothing in the page world and exposes no function there', () => {
  const frame = keyboardFrame();
  field(frame.dom, 'input', { type: 'text' }).focus();
  assert.strictEqual(frame.page.posts.filter((post) => post.handler === 'vitrine-keyboard').length, 0);
  assert.strictEqual(frame.page.eval('typeof vitrineKeyboardPress'), 'undefined');
});

test('text the page refuses (beforeinput cancelled: the editor changes nothing) stays out', () => {
  const frame = keyboardFrame();
  const name = field(frame.dom, 'input', { type: 'text' });
  name.focus();
  frame.dom.execCommand = () => true; // the editor ran the command, the page cancelled it
  assert.strictEqual(frame.press('insert', 'x'), 'refused');
  assert.strictEqual(name.value, '');
  assert.deepStrictEqual(name.inputEvents, []);
});
