// The admin token: asked for in a dialog, kept in this tab's sessionStorage only (never localStorage,
// never in a URL, never logged). Other modules read it through adminToken() and listen with onTokenChange().

const KEY = 'oncue.console.adminToken';
const listeners = new Set();

export function adminToken() {
  try { return sessionStorage.getItem(KEY) || ''; } catch { return ''; }
}

export function hasToken() {
  return adminToken() !== '';
}

export function onTokenChange(listener) {
  listeners.add(listener);
}

function store(value) {
  try {
    if (value) sessionStorage.setItem(KEY, value);
    else sessionStorage.removeItem(KEY);
  } catch { /* storage disabled: the token lives until the dialog is closed */ }
  for (const listener of listeners) listener(hasToken());
}

export function forgetToken() {
  store('');
}

/** Wires the dialog of index.html and returns a function that opens it. */
export function setUpTokenDialog() {
  const dialog = document.getElementById('token-dialog');
  const form = document.getElementById('token-form');
  const input = document.getElementById('token-input');
  const state = document.getElementById('token-state');
  const forget = document.getElementById('token-forget');

  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const action = event.submitter ? event.submitter.value : 'save';
    if (action === 'save' && input.value.trim()) store(input.value.trim());
    if (action === 'forget') forgetToken();
    dialog.close();
  });
  dialog.addEventListener('close', () => { input.value = ''; });

  return function open() {
    const set = hasToken();
    state.textContent = set ? 'A token is set for this tab. Enter another to replace it.' : 'No token is set: the console is read-only.';
    forget.disabled = !set;
    input.value = '';
    dialog.showModal();
    input.focus();
  };
}
