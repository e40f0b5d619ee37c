// The map view: the view state (centre and zoom, mirrored in #map/LAT/LON/ZOOM), pan and zoom by
// pointer, wheel and keyboard, store locations in view, and "try a refresh" where the user clicks.

import { h, clear, fmtInt, fmtMeters, fmtValue } from './dom.js';
import { getJSON, postJSON, loadNetworks } from './api.js';
import { clamp, project, unproject, worldSize, metersPerPixel, scaleLength } from './geo.js';
import { prepareWorld, drawBase, LocationsLayer, RegionsLayer, QueryLayer } from './map-layers.js';
import { createRefreshPanel } from './refresh-panel.js';

const MIN_ZOOM = 1;
const MAX_ZOOM = 20;
const LOCATION_ZOOM = 11;
const LOCATION_LIMIT = 2000;
const DEFAULT_VIEW = { lat: 30, lon: 0, zoom: 2 };

export function createMapView() {
  const root = document.getElementById('map');
  const canvas = root.querySelector('.map-base');
  const svg = root.querySelector('.map-overlay');
  const tooltip = root.querySelector('.map-tooltip');
  const notice = root.querySelector('.map-notice');
  const scaleBar = root.querySelector('.map-scale-bar');
  const scaleLabel = root.querySelector('.map-scale-label');
  const ctx = canvas.getContext('2d');

  const locationsLayer = new LocationsLayer(svg.querySelector('.layer-locations'));
  const regionsLayer = new RegionsLayer(svg.querySelector('.layer-regions'), svg.querySelector('.layer-labels'));
  const queryLayer = new QueryLayer(svg.querySelector('.layer-query'));

  // View: centre (cx, cy) on the unit square and a fractional zoom.
  let [cx, cy] = project(DEFAULT_VIEW.lat, DEFAULT_VIEW.lon);
  let zoom = DEFAULT_VIEW.zoom;
  let width = 0;
  let height = 0;
  let active = false;
  let world = null;
  let frameRequested = false;
  let networksById = new Map();
  let pinned = null;

  const panel = createRefreshPanel({
    onSubmit: () => { const [lat, lon] = unproject(cx, cy); refreshAt(lat, lon); },
    onSelect: (id) => { select(id, { reveal: true }); },
    onHover: (id) => { regionsLayer.highlight(id ?? pinned); },
  });

  /* ---------- view state ---------- */

  const frame = () => ({ cx, cy, ws: worldSize(zoom), w: width, h: height, zoom });

  function screenToUnit(px, py) {
    const ws = worldSize(zoom);
    return [cx + (px - width / 2) / ws, cy + (py - height / 2) / ws];
  }

  function setCentre(x, y) {
    cx = clamp(x, 0, 1);
    cy = clamp(y, 0, 1);
  }

  function zoomAround(px, py, newZoom) {
    newZoom = clamp(newZoom, MIN_ZOOM, MAX_ZOOM);
    const [ux, uy] = screenToUnit(px, py);
    const ws = worldSize(newZoom);
    zoom = newZoom;
    setCentre(ux - (px - width / 2) / ws, uy - (py - height / 2) / ws);
    schedule();
  }

  function panBy(dx, dy) {
    const ws = worldSize(zoom);
    setCentre(cx - dx / ws, cy - dy / ws);
    schedule();
  }

  function schedule() {
    if (frameRequested || !active) return;
    frameRequested = true;
    requestAnimationFrame(() => { frameRequested = false; draw(); });
  }

  function resize() {
    const rect = root.getBoundingClientRect();
    width = Math.max(1, Math.round(rect.width));
    height = Math.max(1, Math.round(rect.height));
    const dpr = window.devicePixelRatio || 1;
    canvas.width = Math.round(width * dpr);
    canvas.height = Math.round(height * dpr);
    svg.setAttribute('width', width);
    svg.setAttribute('height', height);
    svg.setAttribute('viewBox', `0 0 ${width} ${height}`);
  }

  function draw() {
    const f = frame();
    drawBase(ctx, world, f, window.devicePixelRatio || 1);
    locationsLayer.place(f);
    regionsLayer.place(f);
    queryLayer.place(f);

    const [lat, lon] = unproject(cx, cy);
    const mpp = metersPerPixel(lat, zoom);
    const scale = scaleLength(mpp, 120);
    scaleBar.style.width = `${scale.pixels.toFixed(1)}px`;
    scaleLabel.textContent = scale.label;

    Object.assign(svg.dataset, {
      centerLat: lat.toFixed(7), centerLon: lon.toFixed(7), zoom: String(zoom),
      metersPerPixel: mpp.toPrecision(8), world: world ? 'loaded' : 'loading',
    });
    writeHashSoon(lat, lon);
    loadLocationsSoon();
  }

  /* ---------- the URL ---------- */

  let hashTimer = 0;
  function writeHashSoon(lat, lon) {
    clearTimeout(hashTimer);
    hashTimer = setTimeout(() => {
      if (!active) return;
      const hash = `#map/${lat.toFixed(5)}/${lon.toFixed(5)}/${Number(zoom.toFixed(2))}`;
      if (location.hash !== hash) history.replaceState(null, '', hash);
    }, 150);
  }

  function applyParams(params) {
    const [lat, lon, z] = params.map(Number);
    if (params.length >= 3 && [lat, lon, z].every(Number.isFinite) && Math.abs(lat) <= 90 && Math.abs(lon) <= 180) {
      [cx, cy] = project(lat, lon);
      zoom = clamp(z, MIN_ZOOM, MAX_ZOOM);
    }
  }

  /* ---------- store locations in view ---------- */

  let locationTimer = 0;
  let locationAbort = null;
  let loaded = null;         // {bbox, truncated}
  let locationsUnavailable = null;

  function viewBBox(pad) {
    const [x0, y0] = screenToUnit(-pad * width, -pad * height);
    const [x1, y1] = screenToUnit((1 + pad) * width, (1 + pad) * height);
    const [north, west] = unproject(clamp(x0, 0, 1), clamp(y0, 0, 1));
    const [south, east] = unproject(clamp(x1, 0, 1), clamp(y1, 0, 1));
    return [west, south, east, north];
  }

  const inside = (inner, outer) => inner[0] >= outer[0] && inner[1] >= outer[1] && inner[2] <= outer[2] && inner[3] <= outer[3];

  function setNotice(text) {
    notice.hidden = !text;
    notice.textContent = text || '';
  }

  function loadLocationsSoon() {
    clearTimeout(locationTimer);
    if (zoom < LOCATION_ZOOM) {
      if (loaded) { locationsLayer.set([]); loaded = null; }
      if (locationAbort) { locationAbort.abort(); locationAbort = null; }
      svg.dataset.locations = 'hidden';
      setNotice(locationsUnavailable || `Zoom in past ${LOCATION_ZOOM} to see store locations.`);
      return;
    }
    if (locationsUnavailable) { setNotice(locationsUnavailable); return; }
    if (loaded && !loaded.truncated && inside(viewBBox(0), loaded.bbox)) return;
    locationTimer = setTimeout(loadLocations, 250);
  }

  async function loadLocations() {
    if (locationAbort) locationAbort.abort();
    const controller = new AbortController();
    locationAbort = controller;
    const bbox = viewBBox(0.25);
    svg.dataset.locations = 'loading';
    setNotice('Loading store locations…');
    try {
      const data = await getJSON('v1/locations', {
        query: { bbox: bbox.map((v) => v.toFixed(5)).join(','), limit: LOCATION_LIMIT }, signal: controller.signal });
      const locations = Array.isArray(data?.locations) ? data.locations : [];
      locationsLayer.set(locations);
      locationsLayer.place(frame());
      loaded = { bbox, truncated: Boolean(data?.truncated) };
      svg.dataset.locations = String(locations.length);
      panel.setInView(new Set(locations.map((l) => l.network_id)));
      setNotice(loaded.truncated
        ? `Showing the first ${fmtInt(locations.length)} locations around the view (truncated): zoom in to see them all.`
        : `${fmtInt(locations.length)} store location${locations.length === 1 ? '' : 's'} around the view.`);
    } catch (error) {
      if (error.name === 'AbortError') return;
      svg.dataset.locations = 'error';
      const text = `Store locations unavailable: ${error.code || 'error'}: ${error.message}`;
      if (error.status === 404 || error.status === 405) locationsUnavailable = text;   // not served here: stop asking
      setNotice(text);
    } finally {
      if (locationAbort === controller) locationAbort = null;
    }
  }

  /* ---------- try a refresh ---------- */

  let refreshAbort = null;

  async function refreshAt(lat, lon) {
    const params = panel.params();
    if (!params) return;
    const body = { lat: Number(lat.toFixed(6)), lon: Number(lon.toFixed(6)), ...params, explain: true };
    if (refreshAbort) refreshAbort.abort();
    const controller = new AbortController();
    refreshAbort = controller;
    hideTooltip();
    pinned = null;
    regionsLayer.set([]);
    queryLayer.set(body.lat, body.lon, 0);
    panel.setBusy();
    svg.dataset.refresh = 'loading';
    schedule();
    try {
      const response = await postJSON('v1/region-refresh', body, { signal: controller.signal });
      regionsLayer.set(response.regions || []);
      queryLayer.set(body.lat, body.lon, response.refresh_after_meters);
      panel.showResult(response, body);
      svg.dataset.refresh = 'done';
      svg.dataset.regionCount = String((response.regions || []).length);
    } catch (error) {
      if (error.name === 'AbortError') return;
      panel.showError(error);
      svg.dataset.refresh = 'error';
    } finally {
      if (refreshAbort === controller) refreshAbort = null;
    }
    schedule();
  }

  function select(id, { reveal = false } = {}) {
    pinned = id;
    regionsLayer.highlight(id);
    panel.highlight(id);
    const region = regionsLayer.byId.get(id);
    if (reveal && region) {
      const [x, y] = project(region.lat, region.lon);
      const ws = worldSize(zoom);
      const px = (x - cx) * ws + width / 2;
      const py = (y - cy) * ws + height / 2;
      if (px < 0 || py < 0 || px > width || py > height) { setCentre(x, y); schedule(); }
    }
  }

  /* ---------- tooltip ---------- */

  function tooltipRows(target) {
    const regionId = target.closest('[data-region-id]')?.dataset.regionId;
    if (regionId && regionsLayer.byId.has(regionId)) {
      const r = regionsLayer.byId.get(regionId);
      const network = networksById.get(r.network_id);
      const rows = [
        ['Network', r.kind === 'refresh' ? '—' : network ? `${network.name} (${r.network_id})` : r.network_id],
        ['Priority', r.priority],
        ['Radius', fmtMeters(r.radius_meters)],
      ];
      if (r.kind) rows.push(['Kind', r.kind]);
      if (r.address) rows.push(['Address', r.address]);
      if (r.merged_location_ids?.length) rows.push(['Merged', r.merged_location_ids.join(', ')]);
      return { title: r.name, rows, explain: r.explain };
    }
    const locationId = target.closest('[data-location-id]')?.dataset.locationId;
    if (locationId && locationsLayer.byId.has(locationId)) {
      const l = locationsLayer.byId.get(locationId);
      const network = networksById.get(l.network_id);
      const rows = [['Network', network ? `${network.name} (${l.network_id})` : l.network_id], ['Id', l.id]];
      if (l.address) rows.push(['Address', l.address]);
      if (typeof l.radius_meters === 'number') rows.push(['Radius', fmtMeters(l.radius_meters)]);
      return { title: l.name, rows };
    }
    return null;
  }

  /** Flattens nested objects to dotted keys, so any explain object shows as rows. */
  function flatten(obj, prefix = '') {
    return Object.entries(obj).flatMap(([k, v]) => (v && typeof v === 'object' && !Array.isArray(v)
      ? flatten(v, `${prefix}${k}.`) : [[`${prefix}${k}`, v]]));
  }

  function showTooltip(target, clientX, clientY) {
    const info = tooltipRows(target);
    if (!info) { hideTooltip(); return; }
    const table = (rows) => h('table', {}, h('tbody', {}, rows.map(([k, v]) => h('tr', {}, h('th', { scope: 'row', text: k }), h('td', { text: fmtValue(v) })))));
    clear(tooltip).append(h('strong', { text: info.title || '(no name)' }), table(info.rows));
    if (info.explain && typeof info.explain === 'object') {
      tooltip.append(h('div', { class: 'tooltip-sub', text: 'explain' }), table(flatten(info.explain)));
    }
    tooltip.hidden = false;
    const rect = root.getBoundingClientRect();
    let x = clientX - rect.left + 14;
    let y = clientY - rect.top + 14;
    if (x + tooltip.offsetWidth > width - 4) x = Math.max(4, clientX - rect.left - tooltip.offsetWidth - 14);
    if (y + tooltip.offsetHeight > height - 4) y = Math.max(4, clientY - rect.top - tooltip.offsetHeight - 14);
    tooltip.style.transform = `translate(${Math.round(x)}px, ${Math.round(y)}px)`;
  }

  function hideTooltip() {
    tooltip.hidden = true;
  }

  /* ---------- input ---------- */

  let drag = null;

  root.addEventListener('pointerdown', (e) => {
    if (e.button !== 0 || e.target.closest('.map-controls, .map-tooltip')) return;
    drag = { id: e.pointerId, x0: e.clientX, y0: e.clientY, x: e.clientX, y: e.clientY, moved: false, target: e.target, type: e.pointerType };
    root.setPointerCapture(e.pointerId);
  });

  root.addEventListener('pointermove', (e) => {
    if (drag && e.pointerId === drag.id) {
      if (!drag.moved && Math.hypot(e.clientX - drag.x0, e.clientY - drag.y0) > 4) {
        drag.moved = true;
        root.classList.add('dragging');
        hideTooltip();
      }
      if (drag.moved) panBy(e.clientX - drag.x, e.clientY - drag.y);
      drag.x = e.clientX;
      drag.y = e.clientY;
    } else if (e.pointerType === 'mouse' && !e.target.closest('.map-controls, .map-tooltip')) {
      showTooltip(e.target, e.clientX, e.clientY);
    }
  });

  root.addEventListener('pointerup', (e) => {
    if (!drag || e.pointerId !== drag.id) return;
    const { moved, target, type } = drag;
    drag = null;
    root.classList.remove('dragging');
    if (root.hasPointerCapture(e.pointerId)) root.releasePointerCapture(e.pointerId);
    if (moved) return;
    if (type !== 'mouse' && target.closest('[data-region-id], [data-location-id]')) {
      showTooltip(target, e.clientX, e.clientY);          // a tap on a region shows what it is
      return;
    }
    const rect = root.getBoundingClientRect();
    const [lat, lon] = unproject(...screenToUnit(e.clientX - rect.left, e.clientY - rect.top));
    refreshAt(lat, lon);
  });

  root.addEventListener('pointercancel', () => { drag = null; root.classList.remove('dragging'); });
  root.addEventListener('pointerleave', (e) => { if (e.pointerType === 'mouse') hideTooltip(); });

  root.addEventListener('wheel', (e) => {
    e.preventDefault();
    const unit = e.deltaMode === 1 ? 0.05 : e.deltaMode === 2 ? 1 : 0.002;
    const rect = root.getBoundingClientRect();
    zoomAround(e.clientX - rect.left, e.clientY - rect.top, zoom + clamp(-e.deltaY * unit, -1, 1));
  }, { passive: false });

  for (const button of root.querySelectorAll('.map-controls button')) {
    button.addEventListener('click', () => zoomAround(width / 2, height / 2, Math.round(zoom) + Number(button.dataset.zoom)));
  }

  root.addEventListener('keydown', (e) => {
    if (e.target !== root) return;
    const step = 100;
    const keys = {
      ArrowLeft: () => panBy(step, 0), ArrowRight: () => panBy(-step, 0),
      ArrowUp: () => panBy(0, step), ArrowDown: () => panBy(0, -step),
      '+': () => zoomAround(width / 2, height / 2, Math.round(zoom) + 1), '=': () => zoomAround(width / 2, height / 2, Math.round(zoom) + 1),
      '-': () => zoomAround(width / 2, height / 2, Math.round(zoom) - 1), _: () => zoomAround(width / 2, height / 2, Math.round(zoom) - 1),
      Enter: () => { const [lat, lon] = unproject(cx, cy); refreshAt(lat, lon); },
      Escape: () => hideTooltip(),
    };
    if (keys[e.key]) { e.preventDefault(); keys[e.key](); }
  });

  new ResizeObserver(() => { if (active) { resize(); draw(); } }).observe(root);

  /* ---------- data ---------- */

  fetch(new URL('world.json', import.meta.url), { cache: 'force-cache' })
    .then((r) => (r.ok ? r.json() : Promise.reject(new Error(`world.json: HTTP ${r.status}`))))
    .then((geojson) => { world = prepareWorld(geojson); schedule(); })
    .catch((error) => { setNotice(`Base map unavailable: ${error.message}`); });

  loadNetworks()
    .then((list) => { networksById = new Map(list.map((n) => [n.id, n])); panel.setNetworks(list); })
    .catch((error) => panel.setNetworks([], error));

  return {
    show(params) {
      active = true;
      applyParams(params);
      resize();
      draw();
    },
    hide() {
      active = false;
      hideTooltip();
    },
    reloadNetworks() {
      loadNetworks().then((list) => { networksById = new Map(list.map((n) => [n.id, n])); panel.setNetworks(list); })
        .catch((error) => panel.setNetworks([], error));
    },
  };
}

