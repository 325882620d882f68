// The demo form: counts the input events each field receives, keeps one input "controlled"
// the way React does (its state changes only through input events and is written back),
// and on submit blurs the field, which hides the on-screen keyboard. What it saw is shown
// on the page and, as JSON, in the document title (tests read it through AT-SPI).
(function () {
  'use strict';
  var form = document.getElementById('order');
  var report = document.getElementById('report');
  var seen = { inputs: {}, submitted: 0, state: '' };

  function show() {
    seen.name = document.getElementById('name').value;
    seen.controlled = document.getElementById('controlled').value;
    seen.quantity = document.getElementById('quantity').value;
    seen.notes = document.getElementById('notes').value;
    var text = JSON.stringify(seen);
    report.textContent = text;
    document.title = text;
  }

  form.addEventListener('input', function (event) {
    seen.inputs[event.target.id] = (seen.inputs[event.target.id] || 0) + 1;
    show();
  });

  // React's value tracker: the instance's own `value` property records what the framework
  // wrote; an input event whose native value differs from it is a change of state, which is
  // rendered back into the field.
  var controlled = document.getElementById('controlled');
  var native = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value');
  var tracked = '';
  Object.defineProperty(controlled, 'value', {
    configurable: true,
    get: function () { return native.get.call(this); },
    set: function (text) { tracked = String(text); native.set.call(this, text); },
  });
  controlled.addEventListener('input', function () {
    var current = native.get.call(controlled);
    if (current === tracked) return;
    seen.state = current;
    controlled.value = seen.state;
    show();
  });

  form.addEventListener('submit', function (event) {
    event.preventDefault();
    seen.submitted++;
    if (document.activeElement) document.activeElement.blur();
    show();
  });

  show();
})();
