// Web Mercator on the unit square: x and y in [0, 1], y down, the world 256·2^zoom pixels wide.
// Distances use the server's sphere (Geo.Sphere.earthRadiusMeters), so a circle of r metres drawn here
// covers the same ground as the server's distance tests.

export const TILE_SIZE = 256;
export const MAX_LAT = 85.0511287798066;
export const EARTH_RADIUS = 6371008.8;
const RAD = Math.PI / 180;

export const clamp = (v, lo, hi) => Math.min(hi, Math.max(lo, v));

export function worldSize(zoom) {
  return TILE_SIZE * 2 ** zoom;
}

/** [x, y] on the unit square. */
export function project(lat, lon) {
  const phi = clamp(lat, -MAX_LAT, MAX_LAT) * RAD;
  return [(lon + 180) / 360, (1 - Math.log(Math.tan(Math.PI / 4 + phi / 2)) / Math.PI) / 2];
}

/** [lat, lon] of a point on the unit square. */
export function unproject(x, y) {
  const lat = Math.atan(Math.sinh(Math.PI * (1 - 2 * y))) / RAD;
  return [lat, x * 360 - 180];
}

/** Ground metres per screen pixel at a latitude (Web Mercator's scale is 1/cos φ). */
export function metersPerPixel(lat, zoom) {
  return (2 * Math.PI * EARTH_RADIUS * Math.cos(clamp(lat, -MAX_LAT, MAX_LAT) * RAD)) / worldSize(zoom);
}

/** Great-circle distance in metres. */
export function distance(lat1, lon1, lat2, lon2) {
  const dLat = (lat2 - lat1) * RAD;
  const dLon = (lon2 - lon1) * RAD;
  const a = Math.sin(dLat / 2) ** 2 + Math.cos(lat1 * RAD) * Math.cos(lat2 * RAD) * Math.sin(dLon / 2) ** 2;
  return 2 * EARTH_RADIUS * Math.asin(Math.min(1, Math.sqrt(a)));
}

/** The longest round length (1, 2 or 5 × 10^n metres) that fits in maxPixels. */
export function scaleLength(mpp, maxPixels) {
  const max = mpp * maxPixels;
  const base = 10 ** Math.floor(Math.log10(max));
  const meters = [5, 2, 1].map((k) => k * base).find((m) => m <= max) || base;
  return { meters, pixels: meters / mpp, label: meters >= 1000 ? `${meters / 1000} km` : `${meters} m` };
}
