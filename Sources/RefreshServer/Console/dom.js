// DOM building and formatting helpers. Server data only ever reaches the page through textContent,
// attribute values or form values set here: never through innerHTML.

const SVG_NS = 'http://www.w3.org/2000/svg';

function apply(el, props, children) {
  for (const [key, value] of Object.entries(props || {})) {
    if (value === undefined || value === null || value === false) continue;
    if (key === 'class') el.setAttribute('class', value);
    else if (key === 'text') el.textContent = String(value);
    else if (key === 'dataset') Object.assign(el.dataset, value);
    else if (key.startsWith('on') && typeof value === 'function') el.addEventListener(key.slice(2).toLowerCase(), value);
    else if (!(el instanceof SVGElement) && key in el && !key.includes('-')) el[key] = value;
    else el.setAttribute(key, value === true ? '' : String(value));
  }
  for (const child of children.flat()) {
    if (child === undefined || child === null || child === false) continue;
    el.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return el;
}

/** An HTML element: h('td', {class: 'num', text: 3}) or h('p', {}, 'text', h('b', {}, 'bold')). */
export function h(tag, props, ...children) {
  return apply(document.createElement(tag), props, children);
}

/** An SVG element; attributes are always set as attributes. */
export function s(tag, props, ...children) {
  return apply(document.createElementNS(SVG_NS, tag), props, children);
}

export function clear(el) {
  el.replaceChildren();
  return el;
}

const integer = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });

export function fmtInt(n) {
  return typeof n === 'number' && Number.isFinite(n) ? integer.format(n) : '—';
}

export function fmtNumber(n, digits = 2) {
  if (typeof n !== 'number' || !Number.isFinite(n)) return '—';
  return n.toLocaleString('en-US', { maximumFractionDigits: digits });
}

export function fmtMeters(m) {
  if (typeof m !== 'number' || !Number.isFinite(m)) return '—';
  return m >= 10000 ? `${fmtNumber(m / 1000, 1)} km` : `${fmtNumber(m, m < 100 ? 1 : 0)} m`;
}

export function fmtBytes(b) {
  if (typeof b !== 'number' || !Number.isFinite(b)) return '—';
  const units = ['B', 'KB', 'MB', 'GB'];
  let i = 0;
  while (b >= 1000 && i < units.length - 1) { b /= 1000; i++; }
  return `${fmtNumber(b, i === 0 ? 0 : 1)} ${units[i]}`;
}

export function fmtTime(iso) {
  if (typeof iso !== 'string' || !iso) return '—';
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? iso : d.toLocaleString('en-GB', { dateStyle: 'medium', timeStyle: 'medium' });
}

/** Any JSON value as short display text (objects and arrays as compact JSON). */
export function fmtValue(v) {
  if (typeof v === 'number') return fmtNumber(v, 3);
  if (typeof v === 'boolean') return v ? 'yes' : 'no';
  if (v === null || v === undefined) return '—';
  if (typeof v === 'string') return v;
  return JSON.stringify(v);
}

/** A key/value list (<dl>) from [label, value] pairs; values may be nodes. */
export function kvList(pairs, cls = 'kv') {
  return h('dl', { class: cls }, pairs.flatMap(([k, v]) => [h('dt', { text: k }), h('dd', {}, v instanceof Node ? v : fmtValue(v))]));
}

/** Replaces a status container's content with an error (ApiError or Error) or a message. */
export function showStatus(container, what, kind = 'error') {
  clear(container);
  if (!what) return;
  if (what instanceof Error) {
    const code = what.code ? `${what.code}` : 'error';
    const status = what.status ? ` (HTTP ${what.status})` : '';
    container.append(h('div', { class: 'alert error', role: 'alert' },
      h('strong', { text: code + status }), ': ', what.message || 'unknown error'));
  } else {
    container.append(h('div', { class: `alert ${kind}`, role: kind === 'error' ? 'alert' : 'status', text: what }));
  }
}

/** A stable colour per network id (hue from a string hash). */
export function networkColor(id) {
  let hash = 2166136261;
  for (let i = 0; i < id.length; i++) hash = Math.imul(hash ^ id.charCodeAt(i), 16777619);
  const hue = ((hash >>> 0) % 360);
  return `hsl(${hue} 70% 40%)`;
}
