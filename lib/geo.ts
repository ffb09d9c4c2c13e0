// Great-circle distances for the nearest-schools lookup (the Worker) and its tests.

/** The mean radius of the Earth (IUGG), in km. */
const EARTH_RADIUS_KM = 6371.0088;

const RADIANS = Math.PI / 180;

/** The great-circle (haversine) distance between two points given in decimal degrees, in km. */
export function distanceKm(lat1: number, lon1: number, lat2: number, lon2: number): number {
  const dLat = (lat2 - lat1) * RADIANS;
  const dLon = (lon2 - lon1) * RADIANS;
  const a = Math.sin(dLat / 2) ** 2 + Math.cos(lat1 * RADIANS) * Math.cos(lat2 * RADIANS) * Math.sin(dLon / 2) ** 2;
  return 2 * EARTH_RADIUS_KM * Math.asin(Math.min(1, Math.sqrt(a)));
}

/** A distance as the API gives it: km with three decimals (metres). */
export function roundKm(km: number): number {
  return Math.round(km * 1000) / 1000;
}

/**
 * A latitude/longitude box that holds every point within `radiusKm` of the centre (a cheap first test
 * before the exact distance). Near the poles or across the antimeridian it widens to all longitudes.
 */
export function boundingBox(lat: number, lon: number, radiusKm: number): { minLat: number; maxLat: number; minLon: number; maxLon: number } {
  const dLat = radiusKm / (EARTH_RADIUS_KM * RADIANS);
  const cos = Math.cos(lat * RADIANS);
  const dLon = cos > 1e-6 ? dLat / cos : 360;
  const wide = dLon >= 180 || lon - dLon < -180 || lon + dLon > 180;
  return {
    minLat: lat - dLat,
    maxLat: lat + dLat,
    minLon: wide ? -Infinity : lon - dLon,
    maxLon: wide ? Infinity : lon + dLon,
  };
}
