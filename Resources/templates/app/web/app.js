// @ts-check
/// <reference path="vitrine.d.ts" />
/// <reference path="strategies.d.ts" />
// Calls the `greet` strategy in Sources/__NAME__/main.swift and shows its answer.

const form = /** @type {HTMLFormElement} */ (document.getElementById('greet'));
const input = /** @type {HTMLInputElement} */ (document.getElementById('name'));
const answer = /** @type {HTMLOutputElement} */ (document.getElementById('answer'));

async function greet() {
  try {
    const reply = await vitrine.invoke('greet', { name: input.value });
    answer.textContent = reply.message + ' (' + reply.letters + ' letters)';
    document.title = reply.message;
  } catch (error) {
    // A Swift error thrown by the strategy: its description and code (GreetError.emptyName).
    const { message, code } = /** @type {Error & {code?: string}} */ (error);
    answer.textContent = 'Swift said no: ' + message + ' [' + code + ']';
  }
}

form.addEventListener('submit', (event) => {
  event.preventDefault();
  greet();
});
greet();
