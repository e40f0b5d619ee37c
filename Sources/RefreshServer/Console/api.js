// Requests to this server. Every URL is relative to the console's own location (/console/ → /),
// so nothing leaves the page's origin. Errors become ApiError with the server's {"error", "message"}.

import { adminToken, appToken } from './token.js';

const ROOT = new URL('../', import.meta.url);

export class ApiError extends Error {
  constructor(status, code, message, field) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.code = code;
    this.field = field;
  }
}

/** The URL of an API path ("v1/networks") with optional query parameters (undefined and '' are left out). */
export function apiURL(path, query = {}) {
  const url = new URL(path.replace(/^\/+/, ''), ROOT);
  for (const [key, value] of Object.entries(query)) {
    if (value !== undefined && value !== null && value !== '') url.searchParams.set(key, String(value));
  }
  return url;
}

function headers(admin, extra = {}) {
  const h = { Accept: 'application/json', ...extra };
  if (admin) {
    const token = adminToken();
    if (!token) throw new ApiError(0, 'no_token', 'Set the admin key first.');
    h.Authorization = `Bearer ${token}`;
  } else if (appToken()) {
    // A server started with --client-jwt answers /v1/* only with the app's access token.
    h.Authorization = `Bearer ${appToken()}`;
  }
  return h;
}

/** The parsed body of a response, or an ApiError for a non-2xx status. */
export function parseBody(status, text, statusText = '') {
  let data = null;
  let parsed = false;
  if (text) {
    try { data = JSON.parse(text); parsed = true; } catch { /* not JSON */ }
  }
  if (status >= 200 && status < 300) {
    if (text && !parsed) throw new ApiError(status, 'bad_response', 'The server answered with something that is not JSON.');
    return data;
  }
  if (data && typeof data === 'object' && typeof data.error === 'string') {
    throw new ApiError(status, data.error, typeof data.message === 'string' ? data.message : '', data.field);
  }
  const hint = status === 401 || status === 403 ? 'check the admin key (or the app access token)' : (statusText || 'request failed');
  throw new ApiError(status, `http_${status}`, hint);
}

async function request(method, path, { query, body, admin = false, signal } = {}) {
  const init = { method, headers: headers(admin, body === undefined ? {} : { 'Content-Type': 'application/json' }),
                 cache: 'no-store', credentials: 'same-origin', signal };
  if (body !== undefined) init.body = JSON.stringify(body);
  let response;
  try {
    response = await fetch(apiURL(path, query), init);
  } catch (error) {
    if (error.name === 'AbortError') throw error;
    throw new ApiError(0, 'network_error', 'The server could not be reached.');
  }
  return parseBody(response.status, await response.text(), response.statusText);
}

export const getJSON = (path, options) => request('GET', path, options);
export const postJSON = (path, body, options) => request('POST', path, { ...options, body });
export const putJSON = (path, body, options) => request('PUT', path, { ...options, body });
export const patchJSON = (path, body, options) => request('PATCH', path, { ...options, body });
export const deleteJSON = (path, options) => request('DELETE', path, options);

/**
 * POSTs a file as text/csv with XMLHttpRequest, so that the upload reports progress.
 * Resolves {status, body}: 202 with a job, or 200/201 with the result.
 */
export function uploadCSV(path, query, file, { onUploadProgress, preferAsync = true } = {}) {
  return new Promise((resolve, reject) => {
    let hdrs;
    try { hdrs = headers(true, { 'Content-Type': 'text/csv' }); } catch (error) { reject(error); return; }
    if (preferAsync) hdrs.Prefer = 'respond-async';
    const xhr = new XMLHttpRequest();
    xhr.open('POST', apiURL(path, query));
    for (const [name, value] of Object.entries(hdrs)) xhr.setRequestHeader(name, value);
    xhr.upload.addEventListener('progress', (event) => {
      if (onUploadProgress) onUploadProgress(event.loaded, event.lengthComputable ? event.total : file.size);
    });
    xhr.addEventListener('load', () => {
      try { resolve({ status: xhr.status, body: parseBody(xhr.status, xhr.responseText, xhr.statusText) }); }
      catch (error) { reject(error); }
    });
    xhr.addEventListener('error', () => reject(new ApiError(0, 'network_error', 'The upload failed: the server could not be reached or closed the connection.')));
    xhr.addEventListener('abort', () => reject(new ApiError(0, 'aborted', 'The upload was cancelled.')));
    xhr.send(file);
  });
}

let networksPromise = null;

/**
 * GET /v1/networks: its first page, shared by the views; force reloads it. A store with more networks than a page
 * sets `more` on the list, and the views then search on the server (searchNetworks) rather than in the page.
 */
export function loadNetworks({ force = false } = {}) {
  if (force || !networksPromise) {
    networksPromise = getJSON('v1/networks').then((data) => {
      const list = Array.isArray(data?.networks) ? data.networks : [];
      list.more = typeof data?.next_cursor === 'string';
      return list;
    });
    networksPromise.catch(() => { networksPromise = null; });
  }
  return networksPromise;
}

/**
 * Wires `input` for a store with more networks than the first page (`list().more`): typing asks the server
 * (debounced) and hands `onHits` the networks found, or null while the text is empty or the page holds everything;
 * `onError` gets a failed search. Returns nothing; the caller renders on every call of onHits.
 */
export function serverSearchOn(input, { list, onHits, onError = () => {} }) {
  let timer = null;
  input.addEventListener('input', () => {
    clearTimeout(timer);
    const q = input.value.trim();
    onHits(null);
    if (!list().more || !q) return;
    timer = setTimeout(() => {
      searchNetworks(q).then((found) => { if (input.value.trim() === q) onHits(found); }).catch(onError);
    }, 250);
  });
}

/** The networks whose id, name, category or an alias contains `q`, asked of the server (at most `limit`). */
export function searchNetworks(q, limit = 500) {
  return getJSON('v1/networks', { query: { q, limit } }).then((data) => (Array.isArray(data?.networks) ? data.networks : []));
}
