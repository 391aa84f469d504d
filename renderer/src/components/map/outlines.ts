import type { GeometryObject, Topology } from 'topojson-specification';
import { feature, mesh } from 'topojson-client';

/** Country outlines to draw: the land, and the borders between countries (Natural Earth, public domain). */
export interface Outlines {
  land: GeoJSON.FeatureCollection | GeoJSON.Feature;
  borders: GeoJSON.MultiLineString;
}

let loaded: Promise<Outlines> | null = null;

/** Natural Earth's 1:50m countries through world-atlas, bundled with the app (its own chunk): nothing is fetched from the internet. */
export function loadOutlines(): Promise<Outlines> {
  loaded ??= import('world-atlas/countries-50m.json').then((module) => {
    const topology = (module.default ?? module) as unknown as Topology<{ countries: GeometryObject; land: GeometryObject }>;
    return {
      land: feature(topology, topology.objects.land),
      borders: mesh(topology, topology.objects.countries, (a, b) => a !== b),
    };
  });
  return loaded;
}
