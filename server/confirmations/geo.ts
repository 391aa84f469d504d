const EARTH_RADIUS_KM = 6371.0088;

export interface LatLng {
  lat: number;
  lng: number;
}

/** Great-circle distance in kilometres. */
export function distanceKm(a: LatLng, b: LatLng): number {
  const rad = (deg: number) => (deg * Math.PI) / 180;
  const dLat = rad(b.lat - a.lat);
  const dLng = rad(b.lng - a.lng);
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(rad(a.lat)) * Math.cos(rad(b.lat)) * Math.sin(dLng / 2) ** 2;
  return 2 * EARTH_RADIUS_KM * Math.asin(Math.min(1, Math.sqrt(h)));
}

/** A point up to `maxMetres` from the given one, as a phone's GPS fix near it would be. */
export function nearby(point: LatLng, maxMetres: number, random: () => number): LatLng {
  const distance = (maxMetres / 1000) * Math.sqrt(random());
  const bearing = 2 * Math.PI * random();
  const dLat = (distance / EARTH_RADIUS_KM) * Math.cos(bearing);
  const dLng = ((distance / EARTH_RADIUS_KM) * Math.sin(bearing)) / Math.cos((point.lat * Math.PI) / 180);
  return { lat: round(point.lat + (dLat * 180) / Math.PI, 6), lng: round(point.lng + (dLng * 180) / Math.PI, 6) };
}

export function round(value: number, digits: number): number {
  const f = 10 ** digits;
  return Math.round(value * f) / f;
}
