// Coordinate repair for the DBE masterlist. Pure: raw cell text in, a position (or null) and what was
// done out. Every rule is generic (it looks at the values, never at which province's file they came from),
// so a province that fixes or breaks its export next year is handled the same way.

export type ProvinceId =
  | "eastern-cape"
  | "free-state"
  | "gauteng"
  | "kwazulu-natal"
  | "limpopo"
  | "mpumalanga"
  | "north-west"
  | "northern-cape"
  | "western-cape";

export type BoundingBox = { south: number; north: number; west: number; east: number };

/**
 * South Africa as the build validates it (build/tables: latitude -35..-22, longitude 16..33). The mainland
 * spans about 22.1-34.9 degrees south and 16.4-32.9 degrees east; Marion Island is not a school location.
 */
export const SOUTH_AFRICA: BoundingBox = { south: -35, north: -22, west: 16, east: 33 };

/**
 * Approximate extents of each province (degrees; south/north are latitudes, west/east longitudes), written
 * from the provincial boundaries of the Municipal Demarcation Board (the 2016 boundaries, as drawn on the
 * Statistics South Africa / MDB maps), each edge rounded outward to 0.1 degree. They are boxes, so they are
 * generous: a box catches a school geocoded hundreds of kilometres away (in another province, or with a
 * wrong sign), not one placed a few kilometres over a border. They were checked against the 2024 DBE files:
 * see docs/national-datasets.md for how many kept rows fall outside. Replace with boxes computed from the
 * MDB shapefile if a tighter check is ever needed.
 */
export const PROVINCE_BOXES: Readonly<Record<ProvinceId, BoundingBox>> = {
  "eastern-cape": { south: -34.3, north: -30.0, west: 22.6, east: 30.3 },
  "free-state": { south: -30.8, north: -26.5, west: 24.3, east: 29.9 },
  gauteng: { south: -27.0, north: -25.1, west: 27.0, east: 29.1 },
  "kwazulu-natal": { south: -31.1, north: -26.8, west: 28.8, east: 32.9 },
  limpopo: { south: -25.5, north: -22.1, west: 26.3, east: 31.9 },
  mpumalanga: { south: -27.9, north: -24.0, west: 28.2, east: 32.1 },
  "north-west": { south: -28.1, north: -24.6, west: 22.6, east: 28.4 },
  "northern-cape": { south: -33.0, north: -24.7, west: 16.4, east: 25.6 },
  "western-cape": { south: -34.9, north: -30.4, west: 17.7, east: 24.3 },
};

/** Added on every side of a province box (about 11 km): geocoding of border schools is rarely exact. */
export const PROVINCE_MARGIN_DEGREES = 0.1;

export function insideBox(box: BoundingBox, latitude: number, longitude: number, margin = 0): boolean {
  return latitude >= box.south - margin && latitude <= box.north + margin && longitude >= box.west - margin && longitude <= box.east + margin;
}

/** What happened to a row's coordinates; the first four publish a position, the rest publish null. */
export type CoordinateOutcome =
  | "ok"
  | "swapped"
  | "missing_decimal"
  | "missing_decimal_swapped"
  | "missing"
  | "zero"
  | "row_misaligned"
  | "unparseable"
  | "outside_south_africa"
  | "outside_province";

export const REPAIRED_OUTCOMES = ["swapped", "missing_decimal", "missing_decimal_swapped"] as const;
export const NULLED_OUTCOMES = ["missing", "zero", "row_misaligned", "unparseable", "outside_south_africa", "outside_province"] as const;

export type CoordinateResult = {
  latitude: number | null;
  longitude: number | null;
  outcome: CoordinateOutcome;
};

/** Cell values the DBE uses for "unknown". */
const SENTINELS = new Set(["", "-", ".", "na", "n/a", "null", "none", "unknown", "99"]);

type ParsedValue = { kind: "number"; value: number; lostDecimal: boolean } | { kind: "blank" } | { kind: "misaligned" } | { kind: "unparseable" };

/**
 * One coordinate cell. Accepts a decimal point or a decimal comma (`-31,15778`, the national CSV).
 * A bare run of more than two digits is a value whose decimal point was lost (`-2907075`,
 * `302256174737038`): every South African latitude and longitude has exactly two digits before the point
 * (16 to 35 degrees), so the point goes after the second digit.
 */
export function parseCoordinateCell(raw: string): ParsedValue {
  const text = raw.replace(/[\s\u00a0]+/g, "");
  if (SENTINELS.has(text.toLowerCase())) return { kind: "blank" };
  // A quote inside a value is what is left of a quoted "18,675..." cut in two by a comma-separated export:
  // the cells from here on belong to other columns.
  if (text.includes('"')) return { kind: "misaligned" };
  const decimal = /^([+-]?)(\d+)[.,](\d+)$/.exec(text);
  if (decimal) return { kind: "number", value: Number(`${decimal[1]}${decimal[2]}.${decimal[3]}`), lostDecimal: false };
  const integer = /^([+-]?)(\d+)$/.exec(text);
  if (integer) {
    const [, sign = "", digits = ""] = integer;
    if (digits.length <= 2) return { kind: "number", value: Number(`${sign}${digits}`), lostDecimal: false };
    return { kind: "number", value: Number(`${sign}${digits.slice(0, 2)}.${digits.slice(2)}`), lostDecimal: true };
  }
  return { kind: "unparseable" };
}

/** Six decimals is about 0.1 m: more than any school position is worth, and stable text in the CSV. */
function roundCoordinate(value: number): number {
  return Math.round(value * 1e6) / 1e6;
}

/**
 * Repairs one row's coordinates, given the raw text of the longitude and latitude columns (in the file's
 * own naming) and the province the row belongs to. Repairs, in order: a lost decimal point (per value),
 * then swapped columns (latitude is always negative and longitude positive in South Africa, so a pair
 * that only fits the other way round is swapped). A pair that fits South Africa neither way, or lands
 * outside its province's box, is not guessed at: it becomes null.
 */
export function repairCoordinates(rawLongitude: string, rawLatitude: string, province: ProvinceId): CoordinateResult {
  const nothing = (outcome: CoordinateOutcome): CoordinateResult => ({ latitude: null, longitude: null, outcome });
  const longitudeCell = parseCoordinateCell(rawLongitude);
  const latitudeCell = parseCoordinateCell(rawLatitude);
  if (longitudeCell.kind === "misaligned" || latitudeCell.kind === "misaligned") return nothing("row_misaligned");
  if (longitudeCell.kind === "unparseable" || latitudeCell.kind === "unparseable") return nothing("unparseable");
  if (longitudeCell.kind === "blank" || latitudeCell.kind === "blank") return nothing("missing");
  if (longitudeCell.value === 0 || latitudeCell.value === 0) return nothing("zero");

  const lostDecimal = longitudeCell.lostDecimal || latitudeCell.lostDecimal;
  let latitude = latitudeCell.value;
  let longitude = longitudeCell.value;
  let swapped = false;
  if (!insideBox(SOUTH_AFRICA, latitude, longitude) && insideBox(SOUTH_AFRICA, longitude, latitude)) {
    [latitude, longitude] = [longitude, latitude];
    swapped = true;
  }
  if (!insideBox(SOUTH_AFRICA, latitude, longitude)) return nothing("outside_south_africa");
  if (!insideBox(PROVINCE_BOXES[province], latitude, longitude, PROVINCE_MARGIN_DEGREES)) {
    return nothing("outside_province");
  }
  const outcome: CoordinateOutcome = lostDecimal ? (swapped ? "missing_decimal_swapped" : "missing_decimal") : swapped ? "swapped" : "ok";
  return { latitude: roundCoordinate(latitude), longitude: roundCoordinate(longitude), outcome };
}
