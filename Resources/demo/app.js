// The demo's buttons post script messages; each postMessage returns a Promise that the
// native strategy resolves (or rejects with a message).
(function () {
  const output = document.getElementById('output');
  const show = (label, value) => { output.textContent = label + '\n' + JSON.stringify(value, null, 2); };
  const post = (name, body) => window.webkit.messageHandlers[name].postMessage(body);

  const on = (id, handler) => document.getElementById(id).addEventListener('click', () => {
    handler().catch((error) => show('rejected:', String(error && error.message || error)));
  });

  on('who', async () => show('user answered:', await post('user', {})));
  on('title', async () => show('page answered:', await post('page', { action: 'setTitle', title: 'Title set from the page at ' + new Date().toLocaleTimeString() })));
  on('reload', async () => show('page answered:', await post('page', { action: 'reload' })));
  on('close', async () => show('page answered:', await post('page', { action: 'close' })));
})();
