// What the map draws, as Leaflet layers: the offline base (Natural Earth countries), the store locations in view,
// the regions of a refresh answer with their priority labels, and the clicked point with its refresh distance.
// Each drawn element carries the data it was drawn from (data-region-id, data-radius-meters, …), which the tooltip
// and the browser test read.

import * as L from './leaflet.js';
import { networkColor } from './dom.js';

/**
 * A longitude moved to the copy of the world nearest `centreLon`: near ±180° the view shows longitudes past 180, and a
 * point drawn at its wrapped longitude would be 360° away, off screen.
 */
export function nearView(lon, centreLon) {
  return lon + 360 * Math.round((centreLon - lon) / 360);
}

/** Sets data-* attributes on a layer's element once Leaflet has made it. */
function tag(layer, data) {
  const el = layer.getElement?.();
  if (el) for (const [k, v] of Object.entries(data)) el.setAttribute(`data-${k}`, String(v));
  return layer;
}

/** Natural Earth's countries on a canvas in `pane` (under any tiles); no request leaves the server. */
export function baseLayer(geojson, pane) {
  return L.geoJSON(geojson, {
    pane,
    renderer: L.canvas({ padding: 0.5, pane }),
    interactive: false,
    style: { color: '#786e64', weight: 0.8, opacity: 0.6, fillColor: '#f4f1ea', fillOpacity: 1 },
  });
}

/* ---------- store locations ---------- */

export class LocationsLayer {
  constructor(map, onHover) {
    this.map = map;
    this.group = L.layerGroup().addTo(map);
    this.byId = new Map();
    this.onHover = onHover;
  }

  set(locations) {
    this.group.clearLayers();
    this.byId.clear();
    for (const loc of locations) {
      const marker = L.circleMarker([loc.lat, nearView(loc.lon, this.map.getCenter().lng)], {
        radius: 4, className: 'location', color: '#fff', weight: 1.2, fillColor: networkColor(loc.network_id), fillOpacity: 1,
      }).addTo(this.group);
      tag(marker, { 'location-id': loc.id, 'network-id': loc.network_id });
      marker.on('mouseover mousemove', (e) => this.onHover({ location: loc }, e.originalEvent));
      this.byId.set(loc.id, loc);
    }
  }
}

/* ---------- regions of a refresh answer ---------- */

export class RegionsLayer {
  constructor(map, { onHover, onSelect }) {
    this.map = map;
    this.circles = L.featureGroup().addTo(map);
    this.labels = L.layerGroup().addTo(map);
    this.items = [];
    this.byId = new Map();
    this.onHover = onHover;
    this.onSelect = onSelect;
  }

  set(regions) {
    this.circles.clearLayers();
    this.labels.clearLayers();
    this.byId.clear();
    // Drawn from the last priority to the first, so that priority 1 ends up on top.
    const ordered = [...regions].sort((a, b) => b.priority - a.priority);
    const centreLon = this.map.getCenter().lng;
    this.items = ordered.map((region) => {
      const at = [region.lat, nearView(region.lon, centreLon)];
      const isRefresh = region.kind === 'refresh';
      const merged = Array.isArray(region.merged_location_ids) && region.merged_location_ids.length > 0;
      const color = isRefresh ? '#6b5ca5' : networkColor(region.network_id);
      const cls = ['region', isRefresh ? 'region-refresh' : '', merged ? 'region-merged' : ''].filter(Boolean).join(' ');
      const circle = L.circle(at, {
        radius: region.radius_meters, className: cls, color, fillColor: color, bubblingMouseEvents: true,
      }).addTo(this.circles);
      tag(circle, {
        'region-id': region.id, 'network-id': region.network_id, 'radius-meters': region.radius_meters,
        priority: region.priority, lat: region.lat, lon: region.lon,
      });
      const label = L.marker(at, {
        icon: L.divIcon({ className: `region-label${isRefresh ? ' region-refresh' : ''}`, html: '', iconSize: [20, 20] }),
        keyboard: false, zIndexOffset: 1000 - region.priority,
      }).addTo(this.labels);
      const el = label.getElement();
      el.textContent = String(region.priority);
      el.style.borderColor = color;
      el.dataset.regionId = region.id;
      for (const layer of [circle, label]) {
        layer.on('mouseover mousemove', (e) => this.onHover({ region }, e.originalEvent));
      }
      label.on('click', () => this.onSelect(region.id));
      this.byId.set(region.id, region);
      return { region, circle, label };
    });
  }

  highlight(id) {
    for (const { region, circle, label } of this.items) {
      const on = region.id === id;
      circle.getElement()?.classList.toggle('highlight', on);
      label.getElement()?.classList.toggle('highlight', on);
      if (on) circle.bringToFront();
    }
  }
}

/* ---------- the clicked point and its refresh distance ---------- */

export class QueryLayer {
  constructor(map) {
    this.map = map;
    this.group = L.layerGroup().addTo(map);
  }

  set(lat, lon, refreshMeters) {
    this.group.clearLayers();
    const wire = lon;
    lon = nearView(lon, this.map.getCenter().lng);
    if (refreshMeters > 0) {
      const ring = L.circle([lat, lon], { radius: refreshMeters, className: 'refresh-distance', interactive: false, fill: false })
        .addTo(this.group);
      tag(ring, { 'radius-meters': refreshMeters });
    }
    const marker = L.marker([lat, lon], {
      icon: L.divIcon({ className: 'query-marker', html: '', iconSize: [14, 14] }), interactive: false, keyboard: false,
    }).addTo(this.group);
    tag(marker, { lat, lon: wire });
  }

  clear() {
    this.group.clearLayers();
  }
}
