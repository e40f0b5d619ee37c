// The map's side panel: the card picker and options of a refresh request, and the list of regions the
// server answered with. It knows nothing about drawing; the map calls it and listens to its callbacks.

import { h, clear, showStatus, fmtInt, fmtMeters, fmtTime, kvList, networkColor } from './dom.js';
import { serverSearchOn } from './api.js';

const LIST_LIMIT = 60;

/**
 * callbacks: onSubmit() (refresh at the map centre), onSelect(regionId) (click in the list),
 * onHover(regionId | null).
 */
export function createRefreshPanel({ onSubmit, onSelect, onHover }) {
  const form = document.getElementById('refresh-form');
  const chips = document.getElementById('card-chips');
  const filter = document.getElementById('card-filter');
  const list = document.getElementById('card-list');
  const maxRegions = document.getElementById('max-regions');
  const accuracy = document.getElementById('accuracy');
  const minRadius = document.getElementById('min-radius');
  const localTime = document.getElementById('local-time');
  const includeOthers = document.getElementById('include-others');
  const reserve = document.getElementById('reserve-refresh');
  const result = document.getElementById('refresh-result');

  let networks = [];
  let byId = new Map();
  let inView = new Set();
  const selected = new Set();
  let loadError = null;

  const nameOf = (id) => byId.get(id)?.name || id;

  function renderChips() {
    clear(chips);
    if (selected.size === 0) {
      chips.append(h('span', { class: 'muted', text: 'No card: every network is "other".' }));
      return;
    }
    for (const id of selected) {
      chips.append(h('span', { class: 'chip', dataset: { networkId: id } },
        h('span', { class: 'swatch', 'aria-hidden': 'true', dataset: { color: id } }),
        nameOf(id),
        h('button', { type: 'button', class: 'chip-remove', 'aria-label': `Remove ${nameOf(id)}`, text: '×',
                      onclick: () => { selected.delete(id); render(); } })));
    }
    paintSwatches(chips);
  }

  function matches() {
    const q = filter.value.trim().toLowerCase();
    const hit = (n) => !q || n.id.toLowerCase().includes(q) || (n.name || '').toLowerCase().includes(q)
      || (n.category || '').toLowerCase().includes(q) || (n.aliases || []).some((a) => a.toLowerCase().includes(q));
    const found = (searchHits ?? networks).filter(hit);
    const rank = (n) => (n.id.toLowerCase() === q ? 0 : selected.has(n.id) ? 1 : inView.has(n.id) ? 2 : 3);
    found.sort((a, b) => rank(a) - rank(b) || (a.name || a.id).localeCompare(b.name || b.id));
    return found;
  }

  function renderList() {
    clear(list);
    if (loadError) { showStatus(list, loadError); return; }
    const found = matches();
    for (const n of found.slice(0, LIST_LIMIT)) {
      const id = `card-${n.id}`;
      list.append(h('div', { class: 'card-option' },
        h('input', { type: 'checkbox', id, checked: selected.has(n.id), dataset: { networkId: n.id },
                     onchange: (e) => { if (e.target.checked) selected.add(n.id); else selected.delete(n.id); render(); } }),
        h('label', { htmlFor: id },
          h('span', { class: 'swatch', 'aria-hidden': 'true', dataset: { color: n.id } }),
          h('span', { class: 'card-name', text: n.name || n.id }),
          h('span', { class: 'card-meta', text: [n.id, n.category, `${fmtInt(n.location_count)} loc.`, inView.has(n.id) ? 'in view' : '']
            .filter(Boolean).join(' · ') }))));
    }
    if (found.length > LIST_LIMIT) {
      list.append(h('p', { class: 'muted', text: `${fmtInt(found.length - LIST_LIMIT)} more: refine the search.` }));
    } else if (found.length === 0) {
      list.append(h('p', { class: 'muted', text: networks.length ? 'No network matches.' : 'Loading networks…' }));
    }
    paintSwatches(list);
  }

  function render() {
    renderChips();
    renderList();
  }

  // A store with more networks than the first page: the search goes to the server, and its answer is what the list
  // shows while the search text stands.
  let searchHits = null;
  serverSearchOn(filter, {
    list: () => networks,
    onHits: (found) => {
      searchHits = found;
      for (const n of found || []) byId.set(n.id, n);
      renderList();
    },
  });
  form.addEventListener('submit', (e) => { e.preventDefault(); onSubmit(); });

  /** The request fields from the form, or null (and a message) when a number is out of range. */
  function params() {
    for (const input of [maxRegions, accuracy]) {
      if (!input.checkValidity() || input.value === '') {
        showResultError(new Error(`${input.closest('label').firstChild.textContent.trim()}: ${input.validationMessage || 'required'}`));
        input.focus();
        return null;
      }
    }
    if (!minRadius.checkValidity()) {
      showResultError(new Error(`Min radius (m): ${minRadius.validationMessage}`));
      minRadius.focus();
      return null;
    }
    return {
      // Empty: the server's --min-radius-m applies.
      ...(minRadius.value === '' ? {} : { min_radius_meters: Number(minRadius.value) }),
      ...(localTime.value === '' ? {} : { local_time: rfc3339(localTime.value) }),
      accuracy: Number(accuracy.value),
      user_networks: [...selected],
      max_regions: Number(maxRegions.value),
      include_other_networks: includeOthers.checked,
      reserve_refresh_region: reserve.checked,
    };
  }

  /** `2026-11-28T19:00` (the input's wall clock) with seconds and this browser's UTC offset on that date. */
  function rfc3339(wall) {
    const minutes = -new Date(wall).getTimezoneOffset();
    const abs = Math.abs(minutes);
    const two = (n) => String(n).padStart(2, '0');
    return `${wall.slice(0, 16)}:00${minutes < 0 ? '-' : '+'}${two(Math.floor(abs / 60))}:${two(abs % 60)}`;
  }

  function showResultError(error) {
    result.dataset.state = 'error';
    showStatus(result, error);
  }

  function setBusy() {
    result.dataset.state = 'loading';
    clear(result).append(h('p', { class: 'muted', text: 'Asking the server…' }));
  }

  function showResult(response, request) {
    const regions = [...(response.regions || [])].sort((a, b) => a.priority - b.priority);
    clear(result);
    result.dataset.state = 'done';
    result.dataset.regionCount = String(regions.length);
    result.append(
      h('h2', { text: `${regions.length} region${regions.length === 1 ? '' : 's'}` }),
      kvList([
        ['Refresh after', fmtMeters(response.refresh_after_meters)],
        ['Coverage guaranteed', h('span', { class: response.coverage_guaranteed ? 'badge ok' : 'badge warn',
                                             text: response.coverage_guaranteed ? 'yes' : 'no' })],
        ['Cache TTL', `${fmtInt(response.cache_ttl_seconds)} s`],
        ['Server time', fmtTime(response.server_time)],
      ]));
    const items = regions.map((r) => {
      const merged = r.merged_location_ids?.length > 0;
      const meta = [r.kind === 'refresh' ? 'refresh region' : nameOf(r.network_id), fmtMeters(r.radius_meters),
                    merged ? `merged ×${r.merged_location_ids.length}` : ''].filter(Boolean).join(' · ');
      const button = h('button', { type: 'button', class: 'region-item', dataset: { regionId: r.id },
                                   onclick: () => onSelect(r.id),
                                   onmouseenter: () => onHover(r.id), onmouseleave: () => onHover(null),
                                   onfocus: () => onHover(r.id), onblur: () => onHover(null) },
        h('span', { class: `priority${r.kind === 'refresh' ? ' refresh' : ''}`, dataset: { color: r.kind === 'refresh' ? '' : r.network_id }, text: r.priority }),
        h('span', { class: 'region-text' }, h('span', { class: 'region-name', text: r.name }), h('span', { class: 'card-meta', text: meta })));
      return h('li', {}, button);
    });
    result.append(h('ol', { class: 'region-list' }, items));
    result.append(h('div', { class: 'legend', 'aria-label': 'Legend' },
      h('span', { class: 'legend-item' }, h('span', { class: 'key key-location' }), 'location region'),
      h('span', { class: 'legend-item' }, h('span', { class: 'key key-merged' }), 'merged near-duplicates'),
      h('span', { class: 'legend-item' }, h('span', { class: 'key key-refresh' }), 'refresh region'),
      h('span', { class: 'legend-item' }, h('span', { class: 'key key-distance' }), 'refresh distance'),
      h('span', { class: 'legend-item' }, h('span', { class: 'key key-point' }), 'the phone')));
    result.append(h('details', { class: 'request-json' },
      h('summary', { text: 'Request JSON' }),
      h('pre', { id: 'refresh-request', text: JSON.stringify(request, null, 1) })));
    paintSwatches(result);
  }

  function highlight(id) {
    for (const button of result.querySelectorAll('.region-item')) {
      const on = button.dataset.regionId === id;
      button.classList.toggle('highlight', on);
      if (on) button.scrollIntoView({ block: 'nearest' });
    }
  }

  return {
    setNetworks(list_, error = null) {
      networks = list_;
      byId = new Map(list_.map((n) => [n.id, n]));
      loadError = error;
      render();
    },
    setInView(ids) {
      const changed = ids.size !== inView.size || [...ids].some((id) => !inView.has(id));
      inView = ids;
      if (changed) renderList();
    },
    params, setBusy, showResult, showError: showResultError, highlight,
  };
}

/** Colours the swatches: a CSSOM property, as the page's CSP forbids style attributes. */
function paintSwatches(root) {
  for (const el of root.querySelectorAll('[data-color]')) {
    if (el.dataset.color) el.style.setProperty('--network-color', networkColor(el.dataset.color));
  }
}
