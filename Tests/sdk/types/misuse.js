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
  return wrong;
}
misuse();
