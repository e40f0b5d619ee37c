// The tokens this tab sends: the admin key (for /admin/*) and, when the server asks for one (--client-jwt), the app's
// access token (for /v1/*). Both are asked for in a dialog and kept in this tab's sessionStorage only (never
// localStorage, never in a URL, never logged). The admin key's role comes from the server (GET /admin/whoami), so the
// views show what that role may do: read sees, import also imports and edits locations, admin also changes networks.
// Other modules read them through adminToken(), appToken() and canDo(), and listen with onTokenChange().

const KEY = 'oncue.console.adminToken';
const APP_KEY = 'oncue.console.appToken';
const ROLES = ['read', 'import', 'admin'];
const listeners = new Set();
let role = '';

function read(key) {
  try { return sessionStorage.getItem(key) || ''; } catch { return ''; }
}

function write(key, value) {
  try {
    if (value) sessionStorage.setItem(key, value);
    else sessionStorage.removeItem(key);
  } catch { /* storage disabled: the token lives until the dialog is closed */ }
}

export function adminToken() { return read(KEY); }
export function appToken() { return read(APP_KEY); }

export function hasToken() {
  return adminToken() !== '';
}

/** The admin key's role as the server said it: '' until it has answered (or without a key). */
export function currentRole() { return role; }

/** Whether the key set may do what `needed` (read, import or admin) may. */
export function canDo(needed) {
  return role !== '' && ROLES.indexOf(role) >= ROLES.indexOf(needed);
}

export function onTokenChange(listener) {
  listeners.add(listener);
}

function notify() {
  for (const listener of listeners) listener(hasToken());
}

/** Asks the server which role the key has; views are told again once it answered. */
async function learnRole() {
  role = '';
  const token = adminToken();
  if (!token) { notify(); return; }
  notify();
  try {
    const response = await fetch(new URL('../admin/whoami', import.meta.url), {
      headers: { Accept: 'application/json', Authorization: `Bearer ${token}` }, cache: 'no-store', credentials: 'same-origin',
    });
    const body = response.ok ? await response.json() : null;
    role = ROLES.includes(body?.role) ? body.role : '';
  } catch { role = ''; }
  if (token === adminToken()) notify();
}

function store(value) {
  write(KEY, value);
  learnRole();
}

export function forgetToken() {
  store('');
}

/** Wires the dialog of index.html and returns a function that opens it. */
export function setUpTokenDialog() {
  const dialog = document.getElementById('token-dialog');
  const form = document.getElementById('token-form');
  const input = document.getElementById('token-input');
  const appInput = document.getElementById('app-token-input');
  const state = document.getElementById('token-state');
  const forget = document.getElementById('token-forget');

  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const action = event.submitter ? event.submitter.value : 'save';
    if (action === 'save') {
      if (appInput.value.trim()) write(APP_KEY, appInput.value.trim());
      if (input.value.trim()) store(input.value.trim());
      else notify();
    }
    if (action === 'forget') { write(APP_KEY, ''); forgetToken(); }
    dialog.close();
  });
  dialog.addEventListener('close', () => { input.value = ''; appInput.value = ''; });

  learnRole();
  return function open() {
    const set = hasToken();
    const parts = [set ? `An admin key is set for this tab${role ? ` (role ${role})` : ''}. Enter another to replace it.`
                       : 'No admin key is set: the console is read-only.'];
    if (appToken()) parts.push('An app access token is set.');
    state.textContent = parts.join(' ');
    forget.disabled = !set && !appToken();
    input.value = '';
    appInput.value = '';
    dialog.showModal();
    input.focus();
  };
}
