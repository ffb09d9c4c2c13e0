// Great-circle distances of the nearest-schools lookup (lib/geo.ts).
import fc from "fast-check";
import { runs } from "../support/properties.ts";
import { describe, expect, it } from "vitest";
import { boundingBox, distanceKm, roundKm } from "../../lib/geo.ts";

describe("distanceKm", () => {
  it("agrees with known distances", () => {
    expect(distanceKm(-25.7479, 28.2293, -25.7479, 28.2293)).toBe(0);
    // One degree of latitude is 111.2 km on the mean sphere.
    expect(distanceKm(-26, 28, -25, 28)).toBeCloseTo(111.195, 2);
    // Cape Town (-33.9249, 18.4241) to Johannesburg (-26.2041, 28.0473): about 1,262 km.
    expect(distanceKm(-33.9249, 18.4241, -26.2041, 28.0473)).toBeGreaterThan(1255);
    expect(distanceKm(-33.9249, 18.4241, -26.2041, 28.0473)).toBeLessThan(1270);
    expect(roundKm(1.23456)).toBe(1.235);
    expect(roundKm(0.0004)).toBe(0);
  });

  it("is symmetric, and the bounding box holds every point within the radius", () => {
    const lat = fc.double({ min: -80, max: 80, noNaN: true });
    const lon = fc.double({ min: -179, max: 179, noNaN: true });
    fc.assert(
      fc.property(lat, lon, lat, lon, fc.double({ min: 0.01, max: 100, noNaN: true }), (a, b, c, d, radius) => {
        expect(distanceKm(a, b, c, d)).toBeCloseTo(distanceKm(c, d, a, b), 6);
        const box = boundingBox(a, b, radius);
        if (distanceKm(a, b, c, d) <= radius) {
          expect(c).toBeGreaterThanOrEqual(box.minLat);
          expect(c).toBeLessThanOrEqual(box.maxLat);
          expect(d).toBeGreaterThanOrEqual(box.minLon);
          expect(d).toBeLessThanOrEqual(box.maxLon);
        }
      }),
      { numRuns: runs(1000) },
    );
    // Points near the centre, where the box matters.
    fc.assert(
      fc.property(lat, lon, fc.double({ min: -1, max: 1, noNaN: true }), fc.double({ min: -1, max: 1, noNaN: true }), (a, b, dLat, dLon) => {
        const [c, d] = [a + dLat, b + dLon];
        const radius = distanceKm(a, b, c, d) * 1.0001 + 1e-9;
        const box = boundingBox(a, b, radius);
        expect(c >= box.minLat && c <= box.maxLat && d >= box.minLon && d <= box.maxLon).toBe(true);
      }),
      { numRuns: runs(1000) },
    );
  });
});
