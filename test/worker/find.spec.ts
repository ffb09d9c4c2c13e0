// Filters, name search and nearest schools on every list (schema/query.ts, functions/query.ts,
// functions/find.ts), through the real Worker and the real build. Expected answers are worked out here
// from the plain list pages and detail records, independently of the find indexes. The test data set holds
// the committed national tables, so the tests of the national data always run (NATIONAL_DATA is "1").
import { env } from "cloudflare:workers";
import fc from "fast-check";
import { beforeAll, describe, expect, it, vi } from "vitest";
import worker from "../../functions/index.ts";
import type { Env } from "../../functions/env.ts";
import { bucketOf } from "../../lib/buckets.ts";
import { paths, type Manifest } from "../../lib/layout.ts";
import { ErrorBody, PageMeta } from "../../schema/api.ts";
import { LIST_QUERY_PARAMETERS } from "../../schema/query.ts";
import { BURSARY_PROVIDER_TYPES, FIELDS_OF_STUDY, STUDY_LEVELS } from "../../lib/vocabulary.ts";
import { BASE, call as callWith, json, token } from "./support.ts";
import type { Json } from "../support/contract.ts";

// Hundreds of requests in some tests on the national data: a generous per-test timeout.
vi.setConfig({ testTimeout: 60_000 });

const NATIONAL = (env as unknown as { NATIONAL_DATA?: string }).NATIONAL_DATA === "1";
if (!NATIONAL)
  console.warn("find.spec.ts: tests on the real national schools and postal codes skipped: set EDU_UPSTREAM_DIR (e.g. ../shared/data) to run them");
const realEnv = env as unknown as Env;

// One token for the whole file: signing a fresh one for each of the many calls here is slow in workerd.
let shared: string | undefined;
async function call(path: string, init: Parameters<typeof callWith>[1] = {}): Promise<Response> {
  shared ??= await token();
  return callWith(path, { token: shared, ...init });
}

type Body = { data: Json[]; meta: { total: number; page: number; per_page: number } };

async function get(path: string): Promise<Body> {
  const response = await call(path);
  const text = await response.text();
  expect(response.status, `${path}: ${text.slice(0, 300)}`).toBe(200);
  const body = JSON.parse(text) as Body;
  PageMeta.parse(body.meta);
  return body;
}

/** Every record of a list query, page by page (100 a page). */
async function all(list: string, query = ""): Promise<Json[]> {
  const records: Json[] = [];
  for (let page = 1; ; page++) {
    const body = await get(`/v1/data/${list}?${query}${query ? "&" : ""}per_page=100&page=${page}`);
    records.push(...body.data);
    if (body.data.length < 100) {
      expect(records.length, `${list}?${query}: total`).toBe(body.meta.total);
      return records;
    }
  }
}

async function error(path: string, status = 400) {
  const response = await call(path);
  expect(response.status, path).toBe(status);
  expect(response.headers.get("cache-control")).toBe("no-store");
  return ErrorBody.parse(await json(response)).error;
}

// An independent statement of the search rule, to check the Worker's answers against.
const fold = (text: string) => text.normalize("NFKD").toLowerCase().normalize("NFKD").replace(/\p{M}/gu, "");
const wordsOf = (text: string) =>
  fold(text)
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean);
const nameMatches = (texts: string[], query: string) => wordsOf(query).every((q) => texts.some((t) => wordsOf(t).some((w) => w.startsWith(q))));
const ids = (records: { id: string }[]) => records.map((r) => r.id);

// Expected answers are worked out from the published files themselves, read straight from the asset
// binding: the plain list pages are slices of the list chunks (the first test checks that), and detail
// records are the detail files. (Reading them through the Worker would do: but the local test runtime
// gets slower with every request sent through the Worker, and the national lists are hundreds of pages.)
async function asset<T>(path: string): Promise<T> {
  const response = await realEnv.ASSETS.fetch(`https://assets.internal${path}`);
  expect(response.status, path).toBe(200);
  return (await response.json()) as T;
}

let manifest: Manifest;
async function detailOf(resource: string, key: string): Promise<Json> {
  const storage = manifest.resources[resource]?.detail;
  if (storage?.kind === "buckets")
    return (await asset<{ records: Record<string, unknown> }>(paths.bucket(resource, bucketOf(key, storage.count)))).records[key];
  return (await asset<{ data: unknown }>(paths.detail(resource, key))).data;
}

const lists = {
  universities: [] as Json[],
  qualifications: [] as Json[],
  "high-schools": [] as Json[],
  bursaries: [] as Json[],
  "postal-codes": [] as Json[],
  prospectuses: [] as Json[],
};
beforeAll(async () => {
  manifest = await asset<Manifest>("/manifest.json");
  for (const list of ["universities", "qualifications", "high-schools", "bursaries", "postal-codes"] as const) {
    for (let k = 0; k < (manifest.resources[list]?.list?.chunks ?? 0); k++)
      lists[list].push(...(await asset<{ items: Json[] }>(paths.listChunk(list, k))).items);
  }
  lists.prospectuses = await all("prospectuses"); // its items carry the deployment's document URLs
}, 120_000);

describe("existing calls answer exactly as before", () => {
  it("every list page without filters is the slice of the list chunks, byte for byte", async () => {
    for (const list of ["universities", "qualifications", "high-schools", "bursaries", "postal-codes"]) {
      const chunk0 = JSON.parse(await (await realEnv.ASSETS.fetch(`https://assets.internal/v1/data/${list}/_list/0.json`)).text()).items;
      const total = manifest.resources[list]?.total;
      for (const query of ["", "?page=1&per_page=20", "?per_page=7&page=2"]) {
        const [page, perPage] = query.includes("per_page=7") ? [2, 7] : [1, 20];
        const text = await (await call(`/v1/data/${list}${query}`)).text();
        expect(text, `${list}${query}`).toBe(
          JSON.stringify({ data: chunk0.slice((page - 1) * perPage, page * perPage), meta: { total, page, per_page: perPage } }),
        );
      }
    }
    for (const list of ["subjects", "provinces", "fields-of-study"]) {
      const file = await (await realEnv.ASSETS.fetch(`https://assets.internal/v1/data/${list}.json`)).text();
      expect(await (await call(`/v1/data/${list}`)).text()).toBe(file);
    }
  });

  it("a filter that selects everything gives the same records as the plain list, in the same order", async () => {
    const everyType = await all("qualifications", "intake_year=2027");
    expect(ids(everyType)).toEqual(ids(lists.qualifications.filter((q) => q.intake_year === 2027)));
    const byProvince = (
      await Promise.all(["EC", "FS", "GP", "KZN", "LP", "MP", "NW", "NC", "WC"].map((code) => all("universities", `province=${code}`)))
    ).flat();
    expect(new Set(ids(byProvince))).toEqual(new Set(ids(lists.universities)));
    expect(byProvince).toHaveLength(26);
    // The items of a filtered page are the plain list's items, field for field.
    const plain = new Map(lists.universities.map((u) => [u.id, JSON.stringify(u)]));
    for (const u of byProvince) expect(JSON.stringify(u)).toBe(plain.get(u.id));
  });
});

describe("universities: province, type, q", () => {
  it("province takes an id or a code, in any case", async () => {
    const expected = ids(lists.universities.filter((u) => u.province_name === "Gauteng"));
    expect(expected.length).toBeGreaterThan(3);
    for (const value of ["gauteng", "GP", "gp", "Gauteng"])
      expect(ids((await get(`/v1/data/universities?province=${value}`)).data), value).toEqual(expected);
  });

  it("type, checked against the detail records", async () => {
    const details = await Promise.all(lists.universities.map((u) => detailOf("universities", u.slug)));
    for (const type of ["traditional", "comprehensive", "university-of-technology"]) {
      const body = await get(`/v1/data/universities?type=${type}&per_page=100`);
      expect(ids(body.data), type).toEqual(ids(details.filter((d) => d.type === type)));
      expect(body.meta.total).toBe(body.data.length);
    }
  });

  it("q searches the name and the short name; exact name first", async () => {
    expect((await get("/v1/data/universities?q=wits")).data.map((u) => u.short_name)).toEqual(["Wits"]);
    expect((await get("/v1/data/universities?q=WITWATERSRAND")).data.map((u) => u.short_name)).toEqual(["Wits"]);
    const cape = (await get("/v1/data/universities?q=cape")).data.map((u) => u.short_name);
    expect(cape).toEqual(expect.arrayContaining(["UCT", "CPUT", "UWC"]));
    expect((await get("/v1/data/universities?q=university%20of%20cape%20town")).data[0].short_name).toBe("UCT");
    // The exact name first, though "University of Cape Town" comes later in the list than "Cape Peninsula ...".
    const exact = (await get("/v1/data/universities?q=Rhodes%20University")).data;
    expect(exact[0].name).toBe("Rhodes University");
    expect(ids((await get("/v1/data/universities?q=cape&province=WC")).data)).toEqual(
      ids(lists.universities.filter((u) => u.province_name === "Western Cape" && nameMatches([u.name, u.short_name], "cape"))),
    );
  });
});

describe("qualifications: university_slug, qualification_type, faculty, nqf_level, intake_year, subject, q", () => {
  it("each filter alone, and all together, select what the list says", async () => {
    const q = lists.qualifications;
    const slug = q[0].university_slug;
    const faculty = q.find((x) => x.faculty !== null).faculty as string;
    const cases: [string, (x: Json) => boolean][] = [
      [`university_slug=${slug}`, (x) => x.university_slug === slug],
      ["qualification_type=diploma", (x) => x.qualification_type === "diploma"],
      ["nqf_level=8", (x) => x.nqf_level === 8],
      ["intake_year=2026", (x) => x.intake_year === 2026],
      [
        `faculty=${encodeURIComponent(faculty.toUpperCase())}`,
        (x) => x.faculty !== null && wordsOf(x.faculty).join(" ") === wordsOf(faculty).join(" "),
      ],
      ["q=engineering", (x) => nameMatches([x.name], "engineering")],
      ["q=bach%20sci", (x) => nameMatches([x.name], "bach sci")],
      [
        "qualification_type=bachelor&nqf_level=8&intake_year=2027",
        (x) => x.qualification_type === "bachelor" && x.nqf_level === 8 && x.intake_year === 2027,
      ],
      ["university_slug=university-of-pretoria&q=science", (x) => x.university_slug === "university-of-pretoria" && nameMatches([x.name], "science")],
    ];
    for (const [query, keep] of cases) {
      const expected = q.filter(keep);
      expect(expected.length, `${query} selects something`).toBeGreaterThan(0);
      const found = await all("qualifications", query);
      if (query.startsWith("q=") || query.includes("&q=")) expect(new Set(ids(found)), query).toEqual(new Set(ids(expected)));
      else expect(ids(found), query).toEqual(ids(expected));
    }
  });

  it("subject: qualifications with a requirement on that subject, checked against their requirements", async () => {
    const slug = "university-of-johannesburg";
    const ofUniversity = lists.qualifications.filter((x) => x.university_slug === slug);
    const withMaths: string[] = [];
    for (const q of ofUniversity) {
      const { data } = await asset<{ data: Json[] }>(paths.requirements(q.id));
      if (data.some((r: Json) => r.subject.slug === "mathematics")) withMaths.push(q.id);
    }
    expect(withMaths.length).toBeGreaterThan(0);
    expect(ids(await all("qualifications", `university_slug=${slug}&subject=mathematics`))).toEqual(withMaths);
    const everywhere = await get("/v1/data/qualifications?subject=mathematics&per_page=5");
    expect(everywhere.meta.total).toBeGreaterThan(withMaths.length);
    expect((await get("/v1/data/qualifications?subject=no-such-subject")).meta.total).toBe(0);
  });

  it("the last page of a filtered set, and a page past its end", async () => {
    const expected = lists.qualifications.filter((x) => x.qualification_type === "bachelor");
    const perPage = 7;
    const last = Math.ceil(expected.length / perPage);
    const body = await get(`/v1/data/qualifications?qualification_type=bachelor&per_page=${perPage}&page=${last}`);
    expect(body.meta).toEqual({ total: expected.length, page: last, per_page: perPage });
    expect(ids(body.data)).toEqual(ids(expected.slice((last - 1) * perPage)));
    const past = await get(`/v1/data/qualifications?qualification_type=bachelor&per_page=${perPage}&page=${last + 1}`);
    expect(past).toEqual({ data: [], meta: { total: expected.length, page: last + 1, per_page: perPage } });
  });
});

describe("high-schools: province, district, quintile, sector, phase, emis_number, q, near", () => {
  it("province, quintile and emis_number select what the list says; combined filters are ANDed", async () => {
    const schools = lists["high-schools"];
    const first = schools[0];
    const cases: [string, (x: Json) => boolean][] = [
      [`province=${first.province === "Gauteng" ? "GP" : "gauteng"}`, (x) => x.province === "Gauteng"],
      [`quintile=${schools.find((s) => s.quintile !== null).quintile}`, (x) => x.quintile === schools.find((s) => s.quintile !== null).quintile],
      [`emis_number=${first.emis_number}`, (x) => x.emis_number === first.emis_number],
      ["province=western-cape&quintile=3", (x) => x.province === "Western Cape" && x.quintile === 3],
    ];
    for (const [query, keep] of cases) {
      const expected = schools.filter(keep);
      expect(expected.length, `${query} selects something`).toBeGreaterThan(0);
      expect(ids(await all("high-schools", query)), query).toEqual(ids(expected));
    }
  });

  it("district, sector and phase, checked against the detail records", async () => {
    const folded = (text: string) => wordsOf(text).join(" ");
    const sample = lists["high-schools"].filter((_, i) => i % Math.ceil(lists["high-schools"].length / 12) === 0);
    const details = await Promise.all(sample.map((s) => detailOf("high-schools", s.id)));
    const withDistrict = details.find((d) => d.district !== null);
    const district = await all("high-schools", `district=${encodeURIComponent(withDistrict.district.toLowerCase())}`);
    expect(district.map((s) => s.id)).toContain(withDistrict.id);
    for (const s of district) expect(folded((await detailOf("high-schools", s.id)).district)).toBe(folded(withDistrict.district));
    // Each sampled school is found by its own values, and not by the others.
    for (const d of details) {
      const own = `emis_number=${d.emis_number}&sector=${d.sector}&phase=${d.phase}${d.district ? `&district=${encodeURIComponent(d.district)}` : ""}`;
      expect(ids((await get(`/v1/data/high-schools?${own}`)).data), own).toEqual([d.id]);
      const otherSector = d.sector === "public" ? "independent" : "public";
      const otherPhase = d.phase === "secondary" ? "combined" : "secondary";
      expect((await get(`/v1/data/high-schools?emis_number=${d.emis_number}&sector=${otherSector}`)).meta.total).toBe(0);
      expect((await get(`/v1/data/high-schools?emis_number=${d.emis_number}&phase=${otherPhase}`)).meta.total).toBe(0);
    }
    for (const [parameter, values] of [
      ["sector", ["public", "independent"]],
      ["phase", ["secondary", "combined"]],
    ] as const) {
      let sum = 0;
      for (const value of values) {
        const body = await get(`/v1/data/high-schools?${parameter}=${value}&per_page=100`);
        sum += body.meta.total;
        for (const s of body.data) expect((await detailOf("high-schools", s.id))[parameter]).toBe(value);
      }
      expect(sum, `${parameter} splits the list`).toBe(lists["high-schools"].length);
    }
  });

  it("q: name words and the start of the EMIS number, accents and case ignored", async () => {
    const school = lists["high-schools"][0];
    // The school's rarest word of three letters or more, so the expected set stays small on the national data.
    const matches = (word: string) => lists["high-schools"].filter((s) => nameMatches([s.name], word)).length;
    const firstWord = wordsOf(school.name)
      .filter((w) => w.length >= 3)
      .sort((a, b) => matches(a) - matches(b))[0] as string;
    for (const query of [
      firstWord,
      firstWord.toUpperCase(),
      school.emis_number.slice(0, 5),
      `${school.emis_number.slice(0, 4)} ${firstWord.slice(0, 3)}`,
    ]) {
      const found = await all("high-schools", `q=${encodeURIComponent(query)}`);
      expect(
        found.map((s) => s.id),
        query,
      ).toContain(school.id);
      const expected = lists["high-schools"].filter((s) => nameMatches([s.name, s.emis_number], query));
      expect(new Set(ids(found)), query).toEqual(new Set(ids(expected)));
    }
    // Accents in the query are ignored as well as in the names.
    const accented = firstWord.replace(/e/, "é").replace(/a/, "á");
    expect(ids((await get(`/v1/data/high-schools?q=${encodeURIComponent(accented)}`)).data)).toEqual(
      ids((await get(`/v1/data/high-schools?q=${firstWord}`)).data),
    );
  });

  it("near: schools within the radius, nearest first, each with its great-circle distance", async () => {
    const located: Json[] = [];
    for (const s of lists["high-schools"].slice(0, 200)) {
      const d = await detailOf("high-schools", s.id);
      if (d.latitude !== null) located.push(d);
    }
    expect(located.length).toBeGreaterThan(0);
    const centre = located[0];
    const body = await get(`/v1/data/high-schools?near=${centre.latitude},${centre.longitude}&radius_km=5&per_page=100`);
    expect(body.data[0].distance_km).toBe(0);
    expect(ids(body.data.filter((s) => s.distance_km === 0))).toContain(centre.id);
    let previous = 0;
    for (const s of body.data) {
      expect(s.distance_km).toBeGreaterThanOrEqual(previous);
      expect(s.distance_km).toBeLessThanOrEqual(5);
      expect(Object.keys(s)).toEqual(["id", "emis_number", "name", "province", "quintile", "nsc_pass_rate", "nsc_year", "distance_km"]);
      previous = s.distance_km;
    }
    for (const s of body.data) {
      const d = await detailOf("high-schools", s.id);
      expect(s.distance_km).toBeCloseTo(haversine(centre.latitude, centre.longitude, d.latitude, d.longitude), 3);
    }
    // Every located school of the sample within 5 km is there.
    for (const d of located) {
      if (haversine(centre.latitude, centre.longitude, d.latitude, d.longitude) <= 5) expect(ids(body.data)).toContain(d.id);
    }
    // radius_km defaults to 10; near combines with the other filters.
    const wider = await get(`/v1/data/high-schools?near=${centre.latitude},${centre.longitude}&per_page=100`);
    expect(wider.meta.total).toBeGreaterThanOrEqual(body.meta.total);
    expect(wider.data.every((s) => s.distance_km <= 10)).toBe(true);
    const combined = await get(
      `/v1/data/high-schools?near=${centre.latitude},${centre.longitude}&radius_km=100&quintile=${centre.quintile ?? 5}&per_page=100`,
    );
    expect(combined.data.every((s) => s.quintile === (centre.quintile ?? 5))).toBe(true);
    // Far from any school: nothing.
    expect(await get("/v1/data/high-schools?near=-40,10&radius_km=100")).toEqual({ data: [], meta: { total: 0, page: 1, per_page: 20 } });
  });
});

function haversine(lat1: number, lon1: number, lat2: number, lon2: number): number {
  const r = Math.PI / 180;
  const a = Math.sin(((lat2 - lat1) * r) / 2) ** 2 + Math.cos(lat1 * r) * Math.cos(lat2 * r) * Math.sin(((lon2 - lon1) * r) / 2) ** 2;
  return 2 * 6371.0088 * Math.asin(Math.sqrt(a));
}

describe("bursaries: provider_type, field, study_level, open_on, q", () => {
  it("provider_type, field and study_level, checked against the detail records", async () => {
    const details = await Promise.all(lists.bursaries.map((b) => detailOf("bursaries", b.slug)));
    for (const type of BURSARY_PROVIDER_TYPES) {
      expect(ids(await all("bursaries", `provider_type=${type}`)), type).toEqual(ids(details.filter((d) => d.provider_type === type)));
    }
    // field=F: the bursaries classified under F and those open to all fields; field=all-fields: only the latter.
    const openToAll = details.filter((d) => d.fields.includes("all-fields"));
    expect(openToAll.length).toBeGreaterThan(0);
    for (const field of FIELDS_OF_STUDY) {
      const expected = field === "all-fields" ? openToAll : details.filter((d) => d.fields.includes(field) || d.fields.includes("all-fields"));
      const found = await all("bursaries", `field=${field}`);
      expect(ids(found), field).toEqual(ids(expected));
    }
    for (const level of STUDY_LEVELS) {
      expect(ids(await all("bursaries", `study_level=${level}`)), level).toEqual(ids(details.filter((d) => d.study_levels.includes(level))));
    }
    const both = await all("bursaries", "field=engineering&study_level=undergraduate&provider_type=corporate");
    expect(ids(both)).toEqual(
      ids(
        details.filter(
          (d) =>
            (d.fields.includes("engineering") || d.fields.includes("all-fields")) &&
            d.study_levels.includes("undergraduate") &&
            d.provider_type === "corporate",
        ),
      ),
    );
    expect(both.length).toBeGreaterThan(0);
  });

  it("open_on: a published cycle whose [open_date or no opening date, close_date] holds the date; expected cycles do not count", async () => {
    const details = await Promise.all(lists.bursaries.map((b) => detailOf("bursaries", b.slug)));
    const accepts = (c: { open_date: string | null; close_date: string }, date: string) =>
      (c.open_date === null || c.open_date <= date) && date <= c.close_date;
    // Every date a cycle opens or closes on, the day after each close, and dates inside expected cycles only.
    const expectedOnly = details
      .filter((d) => d.expected_next_cycle !== null)
      .map((d) => d.expected_next_cycle.close_date as string)
      .filter((date) => !details.some((d) => d.cycles.some((c: Json) => accepts(c, date))));
    const dates = new Set<string>(["2026-09-01", "2026-11-24", "2027-01-15", "2030-01-01", ...expectedOnly.slice(0, 5)]);
    for (const d of details.slice(0, 40)) for (const c of d.cycles) for (const x of [c.open_date, c.close_date]) if (x) dates.add(x);
    expect(expectedOnly.length, "a date only an expected cycle spans").toBeGreaterThan(0);
    for (const date of dates) {
      expect(ids(await all("bursaries", `open_on=${date}`)), date).toEqual(ids(details.filter((d) => d.cycles.some((c: Json) => accepts(c, date)))));
    }
    for (const date of expectedOnly.slice(0, 5)) expect((await get(`/v1/data/bursaries?open_on=${date}`)).meta.total, date).toBe(0);
    expect((await get("/v1/data/bursaries?open_on=2030-01-01")).meta.total).toBe(0);
  });

  it("q", async () => {
    const name = lists.bursaries[3].name as string;
    const found = await get(`/v1/data/bursaries?q=${encodeURIComponent(name)}`);
    expect(found.data[0].name).toBe(name);
    expect(new Set(ids(found.data))).toEqual(new Set(ids(lists.bursaries.filter((b) => nameMatches([b.name], name)))));
  });
});

describe("postal-codes: code, province, q", () => {
  it("code matches the street code or the box code; q the suburb or the area", async () => {
    const codes = lists["postal-codes"];
    // SAPO's placeholder area "-" is served as null (importers/postal-codes.ts), never as the string.
    expect(codes.filter((p) => p.area === "-")).toEqual([]);
    expect(codes.filter((p) => p.area === null).length).toBe(213);
    const withBoth =
      codes.find((p) => p.street_code !== null && p.box_code !== null && p.street_code !== p.box_code && wordsOf(p.area ?? "").length > 0) ??
      codes[0];
    for (const code of [withBoth.street_code, withBoth.box_code].filter(Boolean)) {
      expect(ids(await all("postal-codes", `code=${code}`)), code).toEqual(ids(codes.filter((p) => p.street_code === code || p.box_code === code)));
    }
    const word = wordsOf(withBoth.area ?? "")[0] as string;
    const found = await all("postal-codes", `q=${word}`);
    expect(new Set(ids(found))).toEqual(new Set(ids(codes.filter((p) => nameMatches([p.suburb, p.area ?? ""], word)))));
    expect((await get("/v1/data/postal-codes?code=0000")).meta.total).toBe(0);
  });
});

describe("prospectuses: university_slug, year", () => {
  it("select what the list says, with the same document URLs", async () => {
    const mut = await all("prospectuses", "university_slug=mangosuthu-university-of-technology");
    expect(mut).toEqual(lists.prospectuses.filter((p) => p.university_slug === "mangosuthu-university-of-technology"));
    expect(mut.length).toBe(3);
    const year = lists.prospectuses[0].year;
    expect(await all("prospectuses", `year=${year}`)).toEqual(lists.prospectuses.filter((p) => p.year === year));
  });
});

describe("the real national data (EDU_UPSTREAM_DIR)", () => {
  it.skipIf(!NATIONAL)("finds schools by name as a person types them", async () => {
    const hatfield = (await get("/v1/data/high-schools?q=hatfield")).data;
    expect(hatfield.map((s) => s.name)).toContain("HATFIELD CHRISTIAN SCHOOL");
    const boys = (await get("/v1/data/high-schools?q=pretoria%20boys")).data;
    expect(boys[0].name).toBe("PRETORIA BOYS' HIGH SCHOOL");
    const upper = await all("high-schools", `q=${encodeURIComponent("HOËRSKOOL")}`);
    const plain = await all("high-schools", "q=hoerskool");
    expect(upper.length).toBeGreaterThan(20);
    expect(ids(upper)).toEqual(ids(plain));
    expect(upper.map((s) => s.name)).toContain("HOËRSKOOL BRANDWAG");
    expect(ids(await all("high-schools", "q=hoerskool&province=eastern-cape"))).toEqual(ids(upper.filter((s) => s.province === "Eastern Cape")));
  });

  it.skipIf(!NATIONAL)("lists the schools near Pretoria's centre, nearest first", async () => {
    const body = await get("/v1/data/high-schools?near=-25.7479,28.2293&radius_km=5&per_page=100");
    expect(body.meta.total).toBeGreaterThan(10);
    expect(body.data.map((s) => s.name)).toContain("PRETORIA BOYS' HIGH SCHOOL");
    const quintile5 = await get("/v1/data/high-schools?near=-25.7479,28.2293&radius_km=5&quintile=5&sector=public&per_page=100");
    expect(quintile5.meta.total).toBeLessThan(body.meta.total);
    expect(quintile5.data.every((s) => s.quintile === 5)).toBe(true);
  });

  it.skipIf(!NATIONAL)("looks up postal codes by code and by suburb, exact suburb first", async () => {
    const hatfield = (await get("/v1/data/postal-codes?q=hatfield&per_page=100")).data;
    expect(hatfield[0]).toMatchObject({ suburb: "HATFIELD", area: "PRETORIA" });
    expect(hatfield.slice(1).some((p) => p.area === "HATFIELD")).toBe(true);
    const code = await all("postal-codes", "code=0083");
    expect(code.map((p) => p.suburb)).toEqual(expect.arrayContaining(["HATFIELD", "COLBYN", "BRYNTIRION"]));
    const inGauteng = await all("postal-codes", "code=0083&province=GP");
    expect(inGauteng.length).toBeGreaterThan(0);
    expect(ids(code)).toEqual(expect.arrayContaining(ids(inGauteng)));
    expect((await get("/v1/data/postal-codes?code=0083&province=WC")).meta.total).toBe(0);
  });

  it.skipIf(!NATIONAL)("pages through a large filtered set to its last page", async () => {
    const gauteng = lists["high-schools"].filter((s) => s.province === "Gauteng");
    const last = Math.ceil(gauteng.length / 100);
    const body = await get(`/v1/data/high-schools?province=gauteng&per_page=100&page=${last}`);
    expect(body.meta.total).toBe(gauteng.length);
    expect(ids(body.data)).toEqual(ids(gauteng.slice((last - 1) * 100)));
  });
});

describe("empty results", () => {
  it("a filter or search that matches nothing is 200 with data [] and total 0", async () => {
    for (const path of [
      "/v1/data/universities?q=zzqx",
      "/v1/data/qualifications?university_slug=no-such-university",
      "/v1/data/high-schools?emis_number=999999999&quintile=1",
      "/v1/data/bursaries?q=zzqx&provider_type=seta",
      "/v1/data/postal-codes?q=zzqx",
      "/v1/data/prospectuses?year=2001",
    ]) {
      expect(await get(path), path).toEqual({ data: [], meta: { total: 0, page: 1, per_page: 20 } });
    }
  });
});

describe("bad input: 400 with a details entry naming the parameter", () => {
  it("an unknown parameter, listing the ones the endpoint takes (a typo never answers the whole list)", async () => {
    for (const [path, name] of [
      ["/v1/data/high-schools?provnce=gauteng", "provnce"],
      ["/v1/data/high-schools?Province=gauteng", "Province"],
      ["/v1/data/universities?search=wits", "search"],
      ["/v1/data/postal-codes?postcode=0083", "postcode"],
      ["/v1/data/qualifications?page[]=1", "page[]"],
      ["/v1/data/prospectuses?q=mut", "q"],
      ["/v1/data/bursaries?open=2026-01-01&page=1", "open"],
    ] as const) {
      const e = await error(path);
      expect(e.code, path).toBe("unknown_parameter");
      expect(e.details?.map((d) => d.path)).toEqual([name]);
      const resource = path.split("?")[0]?.split("/").pop() as keyof typeof LIST_QUERY_PARAMETERS;
      for (const accepted of Object.keys(LIST_QUERY_PARAMETERS[resource])) expect(e.message, path).toContain(accepted);
    }
    for (const list of ["subjects", "provinces", "fields-of-study"]) {
      const e = await error(`/v1/data/${list}?q=math`);
      expect(e.code).toBe("unknown_parameter");
      expect(e.message).toContain("takes no query parameters");
    }
  });

  it("a value of the wrong form", async () => {
    for (const [path, name] of [
      ["/v1/data/high-schools?near=abc", "near"],
      ["/v1/data/high-schools?near=-25.7", "near"],
      ["/v1/data/high-schools?near=-95,28", "near"],
      ["/v1/data/high-schools?near=-25.7,190", "near"],
      ["/v1/data/high-schools?quintile=7", "quintile"],
      ["/v1/data/high-schools?quintile=", "quintile"],
      ["/v1/data/high-schools?sector=private", "sector"],
      ["/v1/data/high-schools?emis_number=12ab", "emis_number"],
      ["/v1/data/high-schools?near=-25.7479,28.2293&radius_km=0", "radius_km"],
      ["/v1/data/high-schools?near=-25.7479,28.2293&radius_km=100.5", "radius_km"],
      ["/v1/data/high-schools?near=-25.7479,28.2293&radius_km=-1", "radius_km"],
      ["/v1/data/high-schools?radius_km=5", "radius_km"],
      ["/v1/data/bursaries?open_on=2026-02-30", "open_on"],
      ["/v1/data/bursaries?open_on=tomorrow", "open_on"],
      ["/v1/data/bursaries?provider_type=bank", "provider_type"],
      ["/v1/data/bursaries?field=Civil%20Engineering", "field"],
      ["/v1/data/bursaries?field=civil-engineering", "field"],
      ["/v1/data/bursaries?field=enginering", "field"],
      ["/v1/data/bursaries?study_level=matric", "study_level"],
      ["/v1/data/postal-codes?code=83", "code"],
      ["/v1/data/qualifications?nqf_level=9", "nqf_level"],
      ["/v1/data/qualifications?university_slug=UP", "university_slug"],
      ["/v1/data/qualifications?intake_year=27", "intake_year"],
      ["/v1/data/universities?type=private", "type"],
      ["/v1/data/universities?province=atlantis", "province"],
      ["/v1/data/universities?province=gauteng&province=limpopo", "province"],
      ["/v1/data/prospectuses?year=last", "year"],
    ] as const) {
      const e = await error(path);
      expect(e.code, path).toBe("invalid_parameter");
      expect(
        e.details?.map((d) => d.path),
        path,
      ).toEqual([name]);
    }
  });

  it("a field that is not in the vocabulary: the message lists the fields", async () => {
    const e = await error("/v1/data/bursaries?field=enginering");
    expect(e.details).toEqual([{ path: "field", message: `must be one of: ${FIELDS_OF_STUDY.join(", ")}` }]);
  });

  it("a q shorter than 2 or longer than 100 characters, or without a letter or digit", async () => {
    for (const q of ["a", " b ", "", "x".repeat(101), "!!", "--"]) {
      const e = await error(`/v1/data/high-schools?q=${encodeURIComponent(q)}`);
      expect(e.code, JSON.stringify(q)).toBe("invalid_parameter");
      expect(e.details).toEqual([{ path: "q", message: expect.stringContaining("2 to 100 characters") }]);
    }
    expect((await call(`/v1/data/high-schools?q=${"x".repeat(100)}`)).status).toBe(200);
    expect((await call("/v1/data/high-schools?q=ab")).status).toBe(200);
  });

  it("several problems at once are all named; page and per_page keep invalid_pagination", async () => {
    const e = await error("/v1/data/high-schools?quintile=0&near=abc&open_on=1");
    expect(e.code).toBe("unknown_parameter");
    const many = await error("/v1/data/high-schools?quintile=0&near=abc&sector=x");
    expect(many.details?.map((d) => d.path)).toEqual(["quintile", "sector", "near"]);
    for (const query of ["province=gauteng&page=0", "q=pretoria&per_page=101", "quintile=5&page=1&page=2"]) {
      const p = await error(`/v1/data/high-schools?${query}`);
      expect(p.code, query).toBe("invalid_pagination");
    }
  });
});

describe("caching of filtered answers", () => {
  it("has its ETag and 304, X-Data-Version, and HEAD", async () => {
    const path = "/v1/data/universities?province=GP&per_page=3";
    const first = await call(path);
    const etag = first.headers.get("etag") ?? "";
    expect(etag).toMatch(/^"[0-9a-f]{24}"$/);
    expect(first.headers.get("x-data-version")).toMatch(/^[0-9a-f]{16}$/);
    expect(first.headers.get("cache-control")).toBe("private, max-age=120");
    const again = await call(path, { headers: { "if-none-match": etag } });
    expect(again.status).toBe(304);
    expect(await again.text()).toBe("");
    const other = await call("/v1/data/universities?province=WC&per_page=3", { headers: { "if-none-match": etag } });
    expect(other.status).toBe(200);
    const head = await call(path, { method: "HEAD" });
    expect(head.status).toBe(200);
    expect(head.headers.get("etag")).toBe(etag);
    expect(await head.text()).toBe("");
  });

  it("needs the list's scope like the plain list", async () => {
    expect((await call("/v1/data/high-schools?q=fixture", { token: null })).status).toBe(401);
    expect((await call("/v1/data/high-schools?q=fixture", { token: await token({ scopes: ["universities:read"] }) })).status).toBe(403);
  });
});

describe("the index cache holds plain values, never another request's I/O", () => {
  it("a request whose index read never finishes does not hold up the ones after it", async () => {
    const reads: string[] = [];
    let hung = false;
    const binding = {
      fetch: (input: RequestInfo | URL, init?: RequestInit) => {
        const request = new Request(input, init);
        const path = new URL(request.url).pathname;
        reads.push(path);
        if (path.startsWith("/_internal/find/") && !hung) {
          hung = true;
          return new Promise<Response>(() => {});
        }
        return realEnv.ASSETS.fetch(request);
      },
    } as unknown as Fetcher;
    const testEnv = { ...realEnv, ASSETS: binding };
    const authorization = `Bearer ${await token()}`;
    const request = (path: string) => worker.fetch(new Request(`${BASE}${path}`, { headers: { authorization } }), testEnv);
    void request("/v1/data/universities?q=cape");
    await new Promise((resolve) => setTimeout(resolve, 10));
    const following = await Promise.race([
      Promise.all(["/v1/data/universities?q=cape", "/v1/data/universities?province=WC"].map(request)),
      new Promise<"timed out">((resolve) => setTimeout(() => resolve("timed out"), 5_000)),
    ]);
    expect(following).not.toBe("timed out");
    for (const response of following as Response[]) {
      expect(response.status).toBe(200);
      expect((await json(response)).meta.total).toBeGreaterThan(0);
    }
    expect(reads.filter((p) => p.startsWith("/_internal/find/universities/")).length).toBeGreaterThanOrEqual(2);
  });
});

describe("fuzz: any value of any parameter", () => {
  it("answers 200 or a 400 naming the parameter, never a 5xx", async () => {
    const RUNS = Number((env as unknown as { FUZZ_RUNS?: string }).FUZZ_RUNS ?? 40);
    const endpoints = Object.entries(LIST_QUERY_PARAMETERS).filter(([, table]) => Object.keys(table).length > 0);
    const value = fc.oneof(
      fc.string({ maxLength: 12 }),
      fc.string({ unit: "grapheme", maxLength: 12 }),
      fc.constantFrom("1", "0", "-25.7479,28.2293", "5", "100", "gauteng", "GP", "2026-02-28", "public", "hoërskool", "ﾋ", "..", "%", ""),
    );
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...endpoints),
        fc.array(fc.tuple(fc.nat(), value), { minLength: 1, maxLength: 3 }),
        async ([resource, table], pairs) => {
          const names = Object.keys(table);
          const query = pairs.map(([i, v]) => `${encodeURIComponent(names[i % names.length] as string)}=${encodeURIComponent(v)}`).join("&");
          const response = await call(`/v1/data/${resource}?${query}`);
          expect([200, 400], query).toContain(response.status);
          const body = await json(response);
          if (response.status === 400) {
            const e = ErrorBody.parse(body).error;
            expect(["invalid_parameter", "invalid_pagination"]).toContain(e.code);
            for (const d of e.details ?? []) expect(names, query).toContain(d.path);
          } else {
            PageMeta.parse(body.meta);
          }
        },
      ),
      { numRuns: RUNS, endOnFailure: true },
    );
  });
});
