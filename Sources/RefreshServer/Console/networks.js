// The networks view: GET /v1/networks as a filterable, sortable table; with an admin key, an editor
// for a network's settings (PUT /admin/networks/{id}), its aliases (POST /admin/networks/{id}/aliases) and one
// location of it at a time (POST /admin/locations, PATCH and DELETE /admin/locations/{id}).

import { h, clear, showStatus, fmtInt, fmtMeters } from './dom.js';
import { loadNetworks, serverSearchOn, putJSON, postJSON, patchJSON, deleteJSON } from './api.js';
import { canDo, onTokenChange } from './token.js';

const ROW_LIMIT = 500;

// optional: shown only when the server's summaries carry the key.
const COLUMNS = [
  { key: 'id', label: 'Id' },
  { key: 'name', label: 'Name' },
  { key: 'category', label: 'Category' },
  { key: 'location_count', label: 'Locations', numeric: true, format: fmtInt },
  { key: 'is_large_area', label: 'Large area', format: (v) => (v ? 'yes' : 'no') },
  { key: 'default_radius_meters', label: 'Default radius', numeric: true, optional: true, format: (v) => (v == null ? '—' : fmtMeters(v)) },
  { key: 'aliases', label: 'Aliases', optional: true, format: (v) => (Array.isArray(v) && v.length ? v.join(', ') : '—') },
];

function compare(a, b) {
  const missing = (v) => v === undefined || v === null || (Array.isArray(v) && v.length === 0);
  if (missing(a) || missing(b)) return missing(a) - missing(b);
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  if (typeof a === 'boolean') return Number(a) - Number(b);
  return String(a).localeCompare(String(b), 'en', { numeric: true, sensitivity: 'base' });
}

export function createNetworksView({ onChanged }) {
  const filter = document.getElementById('network-filter');
  const count = document.getElementById('network-count');
  const status = document.getElementById('network-status');
  const table = document.getElementById('network-table');
  const reload = document.getElementById('network-reload');
  const editor = createEditor({ onSaved: () => { load(true); onChanged(); } });

  let networks = [];
  let sort = { key: 'id', dir: 1 };

  const columns = () => COLUMNS.filter((c) => !c.optional || networks.some((n) => c.key in n));

  function renderHead() {
    const cells = columns().map((c) => {
      const active = sort.key === c.key;
      return h('th', { scope: 'col', class: c.numeric ? 'num' : '', 'aria-sort': active ? (sort.dir > 0 ? 'ascending' : 'descending') : 'none' },
        h('button', { type: 'button', class: 'sort', dataset: { key: c.key },
                      onclick: () => { sort = { key: c.key, dir: active ? -sort.dir : 1 }; render(); } },
          c.label, h('span', { class: 'sort-mark', 'aria-hidden': 'true', text: active ? (sort.dir > 0 ? ' ▲' : ' ▼') : '' })));
    });
    if (canDo('import')) cells.push(h('th', { scope: 'col', text: 'Admin' }));
    clear(table.tHead).append(h('tr', {}, cells));
  }

  function visible() {
    const q = filter.value.trim().toLowerCase();
    const rows = (searchHits ?? networks).filter((n) => !q || [n.id, n.name, n.category, ...(n.aliases || [])]
      .some((v) => typeof v === 'string' && v.toLowerCase().includes(q)));
    rows.sort((a, b) => sort.dir * compare(a[sort.key], b[sort.key]) || compare(a.id, b.id));
    return rows;
  }

  function renderBody() {
    const rows = visible();
    const cols = columns();
    const admin = canDo('import');
    const shown = rows.slice(0, ROW_LIMIT);
    clear(table.tBodies[0]).append(...shown.map((n) => {
      const cells = cols.map((c) => h('td', { class: c.numeric ? 'num' : '', text: c.format ? c.format(n[c.key]) : (n[c.key] ?? '—') }));
      if (admin) cells.push(h('td', {}, h('button', { type: 'button', text: 'Edit', 'aria-label': `Edit ${n.name || n.id}`, onclick: () => editor.open(n) })));
      return h('tr', { dataset: { networkId: n.id } }, cells);
    }));
    table.dataset.total = String(networks.length);
    table.dataset.shown = String(shown.length);
    count.textContent = rows.length > ROW_LIMIT
      ? `${fmtInt(rows.length)} match, showing the first ${fmtInt(ROW_LIMIT)}: refine the filter`
      : networks.more
        ? `${fmtInt(rows.length)} shown; the store has more networks than one page: search to find the others`
        : `${fmtInt(rows.length)} of ${fmtInt(networks.length)} networks`;
  }

  function render() {
    renderHead();
    renderBody();
  }

  async function load(force = false) {
    table.dataset.state = 'loading';
    try {
      networks = await loadNetworks({ force });
      showStatus(status, null);
      table.dataset.state = 'loaded';
    } catch (error) {
      networks = [];
      showStatus(status, error);
      table.dataset.state = 'error';
    }
    render();
  }

  // More networks than the first page: a search asks the server instead of filtering the page.
  let searchHits = null;
  serverSearchOn(filter, {
    list: () => networks,
    onHits: (found) => { searchHits = found; renderBody(); },
    onError: (error) => showStatus(status, error),
  });
  reload.addEventListener('click', () => load(true));
  onTokenChange(render);

  return {
    show() { load(); },       // the shared list: a fetch only after a change elsewhere
    hide() {},
  };
}

/** The edit dialog of index.html: settings form and alias form. */
function createEditor({ onSaved }) {
  const dialog = document.getElementById('network-dialog');
  const title = document.getElementById('network-dialog-title');
  const form = document.getElementById('network-form');
  const aliasForm = document.getElementById('alias-form');
  const aliasList = document.getElementById('network-aliases');
  const radiusNote = document.getElementById('network-radius-note');
  const status = document.getElementById('network-dialog-status');
  let current = null;

  function renderAliases(aliases) {
    clear(aliasList).append(...(aliases.length ? aliases.map((a) => h('li', { text: a })) : [h('li', { class: 'muted', text: 'none' })]));
  }

  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    const f = form.elements;
    if (!f.name.value.trim()) { showStatus(status, new Error('Name: required')); f.name.focus(); return; }
    if (!f.default_radius_meters.checkValidity()) { showStatus(status, new Error(`Default radius: ${f.default_radius_meters.validationMessage}`)); return; }
    const body = { name: f.name.value.trim(), is_large_area: f.is_large_area.checked };
    if (f.category.value.trim()) body.category = f.category.value.trim();
    if (f.default_radius_meters.value !== '') body.default_radius_meters = Number(f.default_radius_meters.value);
    try {
      const saved = await putJSON(`admin/networks/${encodeURIComponent(current.id)}`, body, { admin: true });
      showStatus(status, `Saved ${saved?.id ?? current.id}. The server rebuilds its index in the background.`, 'ok');
      onSaved();
    } catch (error) {
      showStatus(status, error);
    }
  });

  aliasForm.addEventListener('submit', async (e) => {
    e.preventDefault();
    const input = aliasForm.elements.alias;
    const alias = input.value.trim();
    if (!alias) { showStatus(status, new Error('Alias: required')); input.focus(); return; }
    try {
      const created = await postJSON(`admin/networks/${encodeURIComponent(current.id)}/aliases`, { alias }, { admin: true });
      current.aliases = [...(current.aliases || []), created?.alias ?? alias];
      renderAliases(current.aliases);
      input.value = '';
      showStatus(status, `Alias “${created?.alias ?? alias}” added.`, 'ok');
      onSaved();
    } catch (error) {
      showStatus(status, error);
    }
  });

  const locationForm = document.getElementById('location-form');
  locationForm.addEventListener('submit', async (e) => {
    e.preventDefault();
    const f = locationForm.elements;
    const action = e.submitter?.name ?? 'add';
    const id = f.id.value.trim();
    if (action !== 'add' && !id) { showStatus(status, new Error('Id within the network: required to change or delete')); f.id.focus(); return; }
    // The fields filled in; a number field left empty is not sent.
    const body = {};
    for (const key of ['name', 'address']) if (f[key].value.trim()) body[key] = f[key].value.trim();
    for (const key of ['latitude', 'longitude']) if (f[key].value !== '') body[key] = Number(f[key].value);
    const path = `admin/locations/${encodeURIComponent(`loc_${current.id}_${id}`)}`;
    try {
      if (action === 'delete') {
        await deleteJSON(path, { admin: true });
        showStatus(status, `Deleted ${id}: the server no longer serves it.`, 'ok');
      } else {
        const saved = action === 'add'
          ? await postJSON('admin/locations', { ...body, network: current.id, ...(id ? { id } : {}) }, { admin: true })
          : await patchJSON(path, body, { admin: true });
        const warnings = (saved?.warnings ?? []).map((w) => ` Warning: ${w.message}`).join('');
        showStatus(status, `${saved?.outcome ?? 'saved'}: ${saved?.location?.id ?? id}, served from now on.${warnings}`, 'ok');
      }
      onSaved();
    } catch (error) {
      showStatus(status, error);
    }
  });

  document.getElementById('network-dialog-close').addEventListener('click', () => dialog.close());

  return {
    open(network) {
      current = { ...network };
      title.textContent = `Edit network ${network.id}`;
      const f = form.elements;
      f.name.value = network.name || '';
      f.category.value = network.category || '';
      f.is_large_area.checked = Boolean(network.is_large_area);
      f.default_radius_meters.value = network.default_radius_meters ?? '';
      radiusNote.hidden = 'default_radius_meters' in network;
      aliasForm.elements.alias.value = '';
      locationForm.reset();
      // An import key edits locations; the network's own settings and aliases need an admin key.
      for (const f of [form, aliasForm]) for (const element of f.elements) element.disabled = !canDo('admin');
      document.getElementById('network-role-note').hidden = canDo('admin');
      renderAliases(network.aliases || []);
      showStatus(status, null);
      dialog.showModal();
      (canDo('admin') ? f.name : locationForm.elements.id).focus();
    },
  };
}
