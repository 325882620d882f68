// @ts-check
/// <reference path="../../../Resources/sdk/vitrine.d.ts" />
/// <reference path="../../../Resources/templates/app/web/strategies.d.ts" />
// Calls that must NOT type-check (types.test.js expects tsc to report each line marked).

async function misuse() {
  await vitrine.invoke('greet', { name: 42 }); // expect-error: a number for a string
  await vitrine.invoke('greet'); // expect-error: the payload is required
  const reply = await vitrine.invoke('greet', { name: 'Ada' });
  /** @type {number} */
  const wrong = reply.message; // expect-error: the result's message is a string
  await vitrine.invoke('page', { action: 'fly' }); // expect-error: no such action
  await vitrine.invoke('storage', { action: 'set', key: 1, value: 2 }); // expect-error: a key is a string
  await vitrine.app.setAutostart('yes'); // expect-error: autostart is on or off
  vitrine.app.on('deep-link', (link) => link.id); // expect-error: a deep link has no id
  await vitrine.shortcuts.register('Ctrl+Alt+K'); // expect-error: the id is required
  await vitrine.tray.set({ tooltip: 'no icon' }); // expect-error: the icon is required
  vitrine.tray.on('activated', (item) => item.label); // expect-error: an activation carries its id only
  // The capabilities' requests, as vitrine-types writes them from the Swift enums.
  await vitrine.invoke('clipboard', { action: 'writeText', text: 5 }); // expect-error: the text is a string
  await vitrine.invoke('clipboard', { action: 'writeImage', png: 'iVBORw==' }); // expect-error: an image is its bytes, posted whole
  await vitrine.invoke('window', { action: 'resize', width: 640 }); // expect-error: the height is required
  await vitrine.invoke('dialog', { action: 'read', path: '/x', as: 'hex' }); // expect-error: text, bytes or base64
  await vitrine.invoke('print', { action: 'fax' }); // expect-error: no such action
  return wrong;
}
misuse();
