// The map view, on Leaflet: the view (mirrored in #map/LAT/LON/ZOOM), store locations in view, and "try a refresh"
// where the user clicks. Leaflet pans, zooms and projects; this file decides what to ask the server and shows it.

import * as L from './leaflet.js';
import { h, clear, fmtInt, fmtMeters, fmtValue } from './dom.js';
import { getJSON, postJSON, loadNetworks } from './api.js';
import { baseLayer, nearView, LocationsLayer, RegionsLayer, QueryLayer } from './map-layers.js';
import { createRefreshPanel } from './refresh-panel.js';

const MIN_ZOOM = 1;
const MAX_ZOOM = 20;
const LOCATION_ZOOM = 11;
const LOCATION_LIMIT = 2000;
const DEFAULT_VIEW = { lat: 30, lon: 0, zoom: 2 };
const BASE_ATTRIBUTION = 'Base map: Natural Earth (public domain) · Locations: this server';

export function createMapView() {
  const root = document.getElementById('map');
  const container = root.querySelector('.map-leaflet');
  const tooltip = root.querySelector('.map-tooltip');
  const notice = root.querySelector('.map-notice');

  // zoomSnap 0: the URL's zoom is kept as given; a wheel step or a +/- press still moves by whole levels.
  const map = L.map(container, {
    minZoom: MIN_ZOOM, maxZoom: MAX_ZOOM, zoomSnap: 0, zoomDelta: 1, wheelPxPerZoomLevel: 120, worldCopyJump: true,
    attributionControl: false, zoomControl: true, keyboard: true, fadeAnimation: false,
  }).setView([DEFAULT_VIEW.lat, DEFAULT_VIEW.lon], DEFAULT_VIEW.zoom, { animate: false });
  // The offline base goes under the tile pane (200), so that tiles, when configured, cover it where they load.
  map.createPane('base').style.zIndex = 150;
  const attribution = L.control.attribution({ prefix: false }).addAttribution(BASE_ATTRIBUTION).addTo(map);
  L.control.scale({ imperial: false, maxWidth: 120 }).addTo(map);

  let active = false;
  let worldLoaded = false;
  let networksById = new Map();
  let pinned = null;

  const locationsLayer = new LocationsLayer(map, (info, event) => showTooltip(info, event));
  const regionsLayer = new RegionsLayer(map, {
    onHover: (info, event) => showTooltip(info, event),
    onSelect: (id) => select(id),
  });
  const queryLayer = new QueryLayer(map);

  const panel = createRefreshPanel({
    onSubmit: () => { const c = map.getCenter(); refreshAt(c.lat, c.lng); },
    onSelect: (id) => { select(id, { reveal: true }); },
    onHover: (id) => { regionsLayer.highlight(id ?? pinned); },
  });

  /* ---------- view state ---------- */

  /** What the view is, on #map's data attributes: the centre is the ground under the container's middle pixel. */
  function publishView() {
    const size = map.getSize();
    const centre = map.containerPointToLatLng(L.point(size.x / 2, size.y / 2));
    const zoom = map.getZoom();
    const metersPerPixel = (2 * Math.PI * 6371008.8 * Math.cos(centre.lat * Math.PI / 180)) / (256 * 2 ** zoom);
    Object.assign(root.dataset, {
      centerLat: centre.lat.toFixed(7), centerLon: L.Util.wrapNum(centre.lng, [-180, 180], true).toFixed(7), zoom: String(zoom),
      metersPerPixel: metersPerPixel.toPrecision(8), width: String(size.x), height: String(size.y),
      world: worldLoaded ? 'loaded' : 'loading',
    });
  }

  map.on('moveend zoomend resize', () => {
    if (!active) return;
    publishView();
    writeHashSoon();
    loadLocationsSoon();
  });

  /* ---------- the URL ---------- */

  let hashTimer = 0;
  function writeHashSoon() {
    clearTimeout(hashTimer);
    hashTimer = setTimeout(() => {
      if (!active) return;
      const c = map.getCenter();
      const lon = L.Util.wrapNum(c.lng, [-180, 180], true);
      const hash = `#map/${c.lat.toFixed(5)}/${lon.toFixed(5)}/${Number(map.getZoom().toFixed(2))}`;
      if (location.hash !== hash) history.replaceState(null, '', hash);
    }, 150);
  }

  function applyParams(params) {
    const [lat, lon, z] = params.map(Number);
    if (params.length >= 3 && [lat, lon, z].every(Number.isFinite) && Math.abs(lat) <= 90 && Math.abs(lon) <= 180) {
      map.setView([lat, lon], Math.min(MAX_ZOOM, Math.max(MIN_ZOOM, z)), { animate: false });
    }
  }

  /* ---------- store locations in view ---------- */

  let locationTimer = 0;
  let locationAbort = null;
  let loaded = null;         // {bounds, truncated}
  let locationsUnavailable = null;

  function setNotice(text) {
    notice.hidden = !text;
    notice.textContent = text || '';
  }

  function loadLocationsSoon() {
    clearTimeout(locationTimer);
    if (map.getZoom() < LOCATION_ZOOM) {
      if (loaded) { locationsLayer.set([]); loaded = null; }
      if (locationAbort) { locationAbort.abort(); locationAbort = null; }
      root.dataset.locations = 'hidden';
      setNotice(locationsUnavailable || `Zoom in past ${LOCATION_ZOOM} to see store locations.`);
      return;
    }
    if (locationsUnavailable) { setNotice(locationsUnavailable); return; }
    if (loaded && !loaded.truncated && loaded.bounds.contains(map.getBounds())) return;
    locationTimer = setTimeout(loadLocations, 250);
  }

  async function loadLocations() {
    if (locationAbort) locationAbort.abort();
    const controller = new AbortController();
    locationAbort = controller;
    const bounds = map.getBounds().pad(0.25);
    const bbox = [bounds.getWest(), bounds.getSouth(), bounds.getEast(), bounds.getNorth()];
    root.dataset.locations = 'loading';
    setNotice('Loading store locations…');
    try {
      const data = await getJSON('v1/locations', {
        query: { bbox: bbox.map((v) => v.toFixed(5)).join(','), limit: LOCATION_LIMIT }, signal: controller.signal });
      const locations = Array.isArray(data?.locations) ? data.locations : [];
      locationsLayer.set(locations);
      loaded = { bounds, truncated: Boolean(data?.truncated) };
      root.dataset.locations = String(locations.length);
      panel.setInView(new Set(locations.map((l) => l.network_id)));
      setNotice(loaded.truncated
        ? `Showing the first ${fmtInt(locations.length)} locations around the view (truncated): zoom in to see them all.`
        : `${fmtInt(locations.length)} store location${locations.length === 1 ? '' : 's'} around the view.`);
    } catch (error) {
      if (error.name === 'AbortError') return;
      root.dataset.locations = 'error';
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
    lon = L.Util.wrapNum(lon, [-180, 180], true);
    const body = { lat: Number(lat.toFixed(6)), lon: Number(lon.toFixed(6)), ...params, explain: true };
    if (refreshAbort) refreshAbort.abort();
    const controller = new AbortController();
    refreshAbort = controller;
    hideTooltip();
    pinned = null;
    regionsLayer.set([]);
    queryLayer.set(body.lat, body.lon, 0);
    panel.setBusy();
    root.dataset.refresh = 'loading';
    try {
      const response = await postJSON('v1/region-refresh', body, { signal: controller.signal });
      regionsLayer.set(response.regions || []);
      queryLayer.set(body.lat, body.lon, response.refresh_after_meters);
      panel.showResult(response, body);
      root.dataset.refresh = 'done';
      root.dataset.regionCount = String((response.regions || []).length);
    } catch (error) {
      if (error.name === 'AbortError') return;
      panel.showError(error);
      root.dataset.refresh = 'error';
    } finally {
      if (refreshAbort === controller) refreshAbort = null;
    }
  }

  function select(id, { reveal = false } = {}) {
    pinned = id;
    regionsLayer.highlight(id);
    panel.highlight(id);
    const region = regionsLayer.byId.get(id);
    const at = region && [region.lat, nearView(region.lon, map.getCenter().lng)];
    if (reveal && at && !map.getBounds().contains(at)) map.panTo(at);
  }

  map.on('click', (e) => refreshAt(e.latlng.lat, e.latlng.lng));
  container.addEventListener('keydown', (e) => {
    if (e.key === 'Enter' && e.target === container) { e.preventDefault(); const c = map.getCenter(); refreshAt(c.lat, c.lng); }
    if (e.key === 'Escape') hideTooltip();
  });

  /* ---------- tooltip ---------- */

  function tooltipRows({ region, location: l }) {
    if (region) {
      const network = networksById.get(region.network_id);
      const rows = [
        ['Network', region.kind === 'refresh' ? '—' : network ? `${network.name} (${region.network_id})` : region.network_id],
        ['Priority', region.priority],
        ['Radius', fmtMeters(region.radius_meters)],
      ];
      if (region.kind) rows.push(['Kind', region.kind]);
      if (region.address) rows.push(['Address', region.address]);
      if (region.merged_location_ids?.length) rows.push(['Merged', region.merged_location_ids.join(', ')]);
      return { title: region.name, rows, explain: region.explain };
    }
    const network = networksById.get(l.network_id);
    const rows = [['Network', network ? `${network.name} (${l.network_id})` : l.network_id], ['Id', l.id]];
    if (l.address) rows.push(['Address', l.address]);
    if (typeof l.radius_meters === 'number') rows.push(['Radius', fmtMeters(l.radius_meters)]);
    return { title: l.name, rows };
  }

  /** Flattens nested objects to dotted keys, so any explain object shows as rows. */
  function flatten(obj, prefix = '') {
    return Object.entries(obj).flatMap(([k, v]) => (v && typeof v === 'object' && !Array.isArray(v)
      ? flatten(v, `${prefix}${k}.`) : [[`${prefix}${k}`, v]]));
  }

  function showTooltip(what, event) {
    const info = tooltipRows(what);
    const table = (rows) => h('table', {}, h('tbody', {}, rows.map(([k, v]) => h('tr', {}, h('th', { scope: 'row', text: k }), h('td', { text: fmtValue(v) })))));
    clear(tooltip).append(h('strong', { text: info.title || '(no name)' }), table(info.rows));
    if (info.explain && typeof info.explain === 'object') {
      tooltip.append(h('div', { class: 'tooltip-sub', text: 'explain' }), table(flatten(info.explain)));
    }
    tooltip.hidden = false;
    const rect = root.getBoundingClientRect();
    let x = event.clientX - rect.left + 14;
    let y = event.clientY - rect.top + 14;
    if (x + tooltip.offsetWidth > rect.width - 4) x = Math.max(4, event.clientX - rect.left - tooltip.offsetWidth - 14);
    if (y + tooltip.offsetHeight > rect.height - 4) y = Math.max(4, event.clientY - rect.top - tooltip.offsetHeight - 14);
    tooltip.style.transform = `translate(${Math.round(x)}px, ${Math.round(y)}px)`;
  }

  function hideTooltip() {
    tooltip.hidden = true;
  }

  map.on('mouseout dragstart zoomstart', hideTooltip);
  container.addEventListener('mouseover', (e) => {
    if (!e.target.closest('.leaflet-interactive, .region-label')) hideTooltip();
  });

  /* ---------- data ---------- */

  fetch(new URL('world.json', import.meta.url), { cache: 'force-cache' })
    .then((r) => (r.ok ? r.json() : Promise.reject(new Error(`world.json: HTTP ${r.status}`))))
    .then((geojson) => {
      baseLayer(geojson, 'base').addTo(map);
      worldLoaded = true;
      if (active) publishView();
    })
    .catch((error) => { setNotice(`Base map unavailable: ${error.message}`); });

  // Tiles only when the server was told where to get them (--console-tiles); the base map works without.
  getJSON('console/config.json')
    .then((config) => {
      const tiles = config?.tiles;
      if (!tiles?.url) return;
      L.tileLayer(tiles.url, { maxZoom: MAX_ZOOM, maxNativeZoom: 19, crossOrigin: false }).addTo(map);
      // Leaflet writes attributions as HTML: the server's text goes in escaped.
      const escaped = String(tiles.attribution).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
      attribution.addAttribution(`Tiles: ${escaped}`);
      root.dataset.tiles = 'on';
    })
    .catch(() => {});

  loadNetworks()
    .then((list) => { networksById = new Map(list.map((n) => [n.id, n])); panel.setNetworks(list); })
    .catch((error) => panel.setNetworks([], error));

  return {
    show(params) {
      active = true;
      map.invalidateSize({ animate: false });
      applyParams(params);
      publishView();
      loadLocationsSoon();
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
