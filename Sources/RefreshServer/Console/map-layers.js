// What the map draws: the base layer (Natural Earth countries and a graticule) on a canvas, and the
// locations, regions and the clicked point as SVG nodes on top. Nodes are built when the data changes
// and only moved (place) when the view changes. A frame is {cx, cy, ws, w, h, zoom}: the view centre on
// the unit square, the world's width in pixels, the map size in CSS pixels and the zoom.

import { s, clear, networkColor } from './dom.js';
import { project, metersPerPixel, unproject } from './geo.js';

const toScreen = (f, x, y) => [(x - f.cx) * f.ws + f.w / 2, (y - f.cy) * f.ws + f.h / 2];

/* ---------- base layer ---------- */

/** Projects the GeoJSON countries once: each feature becomes rings of unit-square coordinates and a bbox. */
export function prepareWorld(geojson) {
  const features = [];
  for (const feature of geojson.features || []) {
    const g = feature.geometry;
    if (!g) continue;
    const polygons = g.type === 'Polygon' ? [g.coordinates] : g.type === 'MultiPolygon' ? g.coordinates : [];
    const rings = [];
    let minX = 1, minY = 1, maxX = 0, maxY = 0;
    for (const polygon of polygons) {
      for (const ring of polygon) {
        const xy = new Float64Array(ring.length * 2);
        ring.forEach(([lon, lat], i) => {
          const [x, y] = project(lat, lon);
          xy[2 * i] = x; xy[2 * i + 1] = y;
          minX = Math.min(minX, x); maxX = Math.max(maxX, x); minY = Math.min(minY, y); maxY = Math.max(maxY, y);
        });
        rings.push(xy);
      }
    }
    features.push({ rings, bbox: [minX, minY, maxX, maxY] });
  }
  return features;
}

const GRID_STEPS = [30, 10, 5, 2, 1, 0.5, 0.2, 0.1, 0.05, 0.02, 0.01, 0.005, 0.002, 0.001, 0.0005, 0.0002, 0.0001];

// Sea and land colours, and how far the sea fades into land at city zooms: the 1:110m coastlines are
// kilometres off there, so past zoom 10 they are only a faint outline on a neutral ground.
const LAND = [244, 241, 234];
const SEA = [205, 220, 234];
const mix = (t) => `rgb(${SEA.map((s, i) => Math.round(s + (LAND[i] - s) * t)).join(' ')})`;

/** Draws the sea, the countries and a graticule whose lines stay about 150 px apart or more. */
export function drawBase(ctx, world, f, dpr) {
  const fade = Math.min(1, Math.max(0, (f.zoom - 7) / 3));
  ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
  ctx.fillStyle = '#dfe9f2';
  ctx.fillRect(0, 0, f.w, f.h);
  const [x0, y0] = toScreen(f, 0, 0);
  ctx.fillStyle = mix(world ? fade : 0);
  ctx.fillRect(x0, y0, f.ws, f.ws);

  if (world) {
    ctx.fillStyle = mix(1);
    ctx.strokeStyle = `rgba(120, 112, 100, ${0.8 - 0.55 * fade})`;
    ctx.lineWidth = 0.8;
    ctx.lineJoin = 'round';
    for (const feature of world) {
      const [bx0, by0] = toScreen(f, feature.bbox[0], feature.bbox[1]);
      const [bx1, by1] = toScreen(f, feature.bbox[2], feature.bbox[3]);
      if (bx1 < 0 || by1 < 0 || bx0 > f.w || by0 > f.h) continue;
      ctx.beginPath();
      for (const xy of feature.rings) {
        for (let i = 0; i < xy.length; i += 2) {
          const px = (xy[i] - f.cx) * f.ws + f.w / 2;
          const py = (xy[i + 1] - f.cy) * f.ws + f.h / 2;
          if (i === 0) ctx.moveTo(px, py); else ctx.lineTo(px, py);
        }
        ctx.closePath();
      }
      ctx.fill('evenodd');
      ctx.stroke();
    }
  }
  drawGraticule(ctx, f);
}

function drawGraticule(ctx, f) {
  const [north, west] = unproject(f.cx - f.w / 2 / f.ws, f.cy - f.h / 2 / f.ws);
  const [south, east] = unproject(f.cx + f.w / 2 / f.ws, f.cy + f.h / 2 / f.ws);
  const degreesPerPixel = 360 / f.ws;
  const step = [...GRID_STEPS].reverse().find((d) => d / degreesPerPixel >= 150) || GRID_STEPS[0];
  const decimals = Math.max(0, -Math.floor(Math.log10(step)));
  ctx.strokeStyle = 'rgba(60, 80, 110, 0.18)';
  ctx.fillStyle = 'rgba(40, 55, 80, 0.6)';
  ctx.lineWidth = 1;
  ctx.font = '11px system-ui, sans-serif';
  ctx.beginPath();
  for (let lon = Math.ceil(Math.max(west, -180) / step) * step; lon <= Math.min(east, 180); lon += step) {
    const [px] = toScreen(f, (lon + 180) / 360, 0);
    ctx.moveTo(Math.round(px) + 0.5, 0); ctx.lineTo(Math.round(px) + 0.5, f.h);
    ctx.fillText(`${lon.toFixed(decimals)}°`, px + 3, 12);
  }
  for (let lat = Math.ceil(Math.max(south, -85) / step) * step; lat <= Math.min(north, 85); lat += step) {
    const [, py] = toScreen(f, 0, project(lat, 0)[1]);
    ctx.moveTo(0, Math.round(py) + 0.5); ctx.lineTo(f.w, Math.round(py) + 0.5);
    ctx.fillText(`${lat.toFixed(decimals)}°`, 3, py - 3);
  }
  ctx.stroke();
}

/* ---------- store locations ---------- */

export class LocationsLayer {
  constructor(group) {
    this.group = group;
    this.items = [];
    this.byId = new Map();
  }

  set(locations) {
    clear(this.group);
    this.byId.clear();
    this.items = locations.map((loc) => {
      const el = s('circle', { class: 'location', r: 4, fill: networkColor(loc.network_id),
                               'data-location-id': loc.id, 'data-network-id': loc.network_id });
      this.group.append(el);
      this.byId.set(loc.id, loc);
      const [x, y] = project(loc.lat, loc.lon);
      return { el, x, y };
    });
  }

  place(f) {
    for (const { el, x, y } of this.items) {
      const [px, py] = toScreen(f, x, y);
      el.setAttribute('cx', px.toFixed(2));
      el.setAttribute('cy', py.toFixed(2));
    }
  }
}

/* ---------- regions of a refresh answer ---------- */

export class RegionsLayer {
  constructor(circles, labels) {
    this.circles = circles;
    this.labels = labels;
    this.items = [];
    this.byId = new Map();
  }

  set(regions) {
    clear(this.circles);
    clear(this.labels);
    this.byId.clear();
    // Drawn from the last priority to the first, so that priority 1 ends up on top.
    const ordered = [...regions].sort((a, b) => b.priority - a.priority);
    this.items = ordered.map((region) => {
      const isRefresh = region.kind === 'refresh';
      const merged = Array.isArray(region.merged_location_ids) && region.merged_location_ids.length > 0;
      const color = isRefresh ? '#6b5ca5' : networkColor(region.network_id);
      const cls = ['region', isRefresh ? 'region-refresh' : '', merged ? 'region-merged' : ''].filter(Boolean).join(' ');
      const circle = s('circle', { class: cls, fill: color, stroke: color,
                                   'data-region-id': region.id, 'data-network-id': region.network_id,
                                   'data-radius-meters': region.radius_meters, 'data-priority': region.priority,
                                   'data-lat': region.lat, 'data-lon': region.lon });
      const label = s('g', { class: `region-label${isRefresh ? ' region-refresh' : ''}`, 'data-region-id': region.id },
        s('circle', { r: 9, stroke: color }),
        s('text', { 'text-anchor': 'middle', 'dominant-baseline': 'central', text: region.priority }));
      this.circles.append(circle);
      this.labels.append(label);
      this.byId.set(region.id, region);
      const [x, y] = project(region.lat, region.lon);
      return { region, circle, label, x, y, isRefresh };
    });
  }

  place(f) {
    for (const { region, circle, label, x, y, isRefresh } of this.items) {
      const [px, py] = toScreen(f, x, y);
      const r = region.radius_meters / metersPerPixel(region.lat, f.zoom);
      circle.setAttribute('cx', px.toFixed(2));
      circle.setAttribute('cy', py.toFixed(2));
      circle.setAttribute('r', r.toFixed(3));
      const ly = isRefresh ? py - r : py;
      label.setAttribute('transform', `translate(${px.toFixed(1)} ${ly.toFixed(1)})`);
    }
  }

  highlight(id) {
    for (const { region, circle, label } of this.items) {
      const on = region.id === id;
      circle.classList.toggle('highlight', on);
      label.classList.toggle('highlight', on);
      if (on) { circle.parentNode.append(circle); label.parentNode.append(label); }
    }
  }
}

/* ---------- the clicked point and its refresh distance ---------- */

export class QueryLayer {
  constructor(group) {
    this.group = group;
    this.point = null;
  }

  set(lat, lon, refreshMeters) {
    clear(this.group);
    this.point = { lat, lon, refreshMeters, xy: project(lat, lon) };
    if (refreshMeters > 0) {
      this.ring = s('circle', { class: 'refresh-distance', 'data-radius-meters': refreshMeters });
      this.group.append(this.ring);
    } else {
      this.ring = null;
    }
    this.marker = s('g', { class: 'query-marker', 'data-lat': lat, 'data-lon': lon },
      s('circle', { r: 7 }), s('path', { d: 'M-11 0H-4M4 0H11M0 -11V-4M0 4V11' }));
    this.group.append(this.marker);
  }

  clear() {
    clear(this.group);
    this.point = null;
  }

  place(f) {
    if (!this.point) return;
    const [px, py] = toScreen(f, ...this.point.xy);
    this.marker.setAttribute('transform', `translate(${px.toFixed(2)} ${py.toFixed(2)})`);
    if (this.ring) {
      this.ring.setAttribute('cx', px.toFixed(2));
      this.ring.setAttribute('cy', py.toFixed(2));
      this.ring.setAttribute('r', (this.point.refreshMeters / metersPerPixel(this.point.lat, f.zoom)).toFixed(3));
    }
  }
}
