// Releases and bulk files through the real Worker and a real build of the committed sources (README "Releases and
// bulk files"): a fresh clone serves /v1/meta, /v1/releases with the committed release, and every bulk file, each
// holding exactly the list's total of records, equal to the detail records, with the scope of its resource.
import { describe, expect, it } from "vitest";
import { BULK_FILES, columnsOf } from "../../schema/bulk.ts";
import { RESOURCES, type ResourceName } from "../../schema/resources.ts";
import { ALL_SCOPES, call, json, text, token } from "./support.ts";

const anyToken = () => token({ scopes: [] });

describe("GET /v1/meta and /v1/releases", () => {
  it("names the live release and data version, with per resource its count, verified_on range and upstream editions", async () => {
    const response = await call("/v1/meta", { token: await anyToken() });
    expect(response.status).toBe(200);
    const { data } = await json(response);
    expect(data.data_version).toBe(response.headers.get("x-data-version"));
    // null only when the records moved on from the latest release (a value projected from the build date):
    // test/node/releases.test.ts holds the committed sources to their release.
    if (data.release !== null) {
      expect(data.release.id).toMatch(/^\d{4}-\d{2}-\d{2}(\.\d+)?$/);
      expect(data.built_at).toBe(data.release.built_at);
    }
    for (const name of Object.keys(RESOURCES) as ResourceName[]) {
      const resource = data.resources[name];
      const list = await json(await call(`/v1/data/${name}${RESOURCES[name].paginated ? "?per_page=1" : ""}`));
      expect(resource.total, name).toBe(list.meta.total);
      if (resource.verified_on.oldest !== null) expect(resource.verified_on.oldest <= resource.verified_on.newest).toBe(true);
    }
    expect(data.resources["high-schools"].upstream.map((u: { edition: string }) => u.edition).join(" ")).toMatch(/data year 2024/);
    expect(data.resources.qualifications.upstream.some((u: { edition: string }) => /^intake \d{4}: \d+ programmes$/.test(u.edition))).toBe(true);
  });

  it("lists the releases newest first, the live one among them, and refuses a parameter it does not take", async () => {
    const { data, meta } = await json(await call("/v1/releases", { token: await anyToken() }));
    expect(meta).toMatchObject({ page: 1, per_page: 20 });
    const live = data[0].id;
    expect(data.at(-1).baseline).toBe(true);
    expect((await call("/v1/releases?since=2026-01-01", { token: await anyToken() })).status).toBe(400);
    const changes = await json(await call(`/v1/changes?since=${live}`, { token: await anyToken() }));
    expect(changes).toEqual({ data: [], meta: { total: 0, page: 1, per_page: 20, since: live, until: live } });
    const gone = await call("/v1/changes?since=2001-01-01", { token: await anyToken() });
    expect(gone.status).toBe(410);
    expect((await json(gone)).error.code).toBe("release_gone");
  });
});

/** A CSV text's records (RFC 4180: quoted cells may hold commas, quotes and line breaks). */
function csvRecords(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = "";
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (c === '"') quoted = false;
      else cell += c;
    } else if (c === '"') quoted = true;
    else if (c === ",") {
      row.push(cell);
      cell = "";
    } else if (c === "\r" && text[i + 1] === "\n") {
      row.push(cell);
      rows.push(row);
      row = [];
      cell = "";
      i++;
    } else cell += c;
  }
  return rows;
}

describe("GET /v1/bulk/<file>", () => {
  const lines = (text: string) => text.split("\n").filter((l) => l !== "");

  it("holds exactly the list's total of records for every list resource, equal to its detail records", async () => {
    const meta = (await json(await call("/v1/meta", { token: await anyToken() }))).data;
    const live = meta.release?.id ?? `unreleased-${meta.data_version}`;
    for (const name of Object.keys(RESOURCES) as ResourceName[]) {
      const definition = RESOURCES[name] as (typeof RESOURCES)[ResourceName] & { detail?: { key: "id" | "slug" } };
      const response = await call(`/v1/bulk/${name}.ndjson`);
      expect(response.status, name).toBe(200);
      expect(response.headers.get("content-disposition")).toBe(`attachment; filename="sa-edu-${name}-${live}.ndjson"`);
      const records = lines(await text(response)).map((l) => JSON.parse(l));
      const list = await json(await call(`/v1/data/${name}${definition.paginated ? "?per_page=100" : ""}`));
      expect(records.length, name).toBe(list.meta.total);
      // The first page of the list is the first records of the file, in the same order.
      const keyOf = (r: Record<string, string>) => r[definition.detail?.key ?? (r.slug ? "slug" : "id")];
      expect(records.slice(0, list.data.length).map(keyOf), name).toEqual(list.data.map(keyOf));
      // Field by field: a sample of detail records (every one for the small resources).
      const step = Math.max(1, Math.floor(records.length / 25));
      for (let i = 0; i < records.length; i += step) {
        const expected = definition.detail
          ? (await json(await call(`/v1/data/${name}/${keyOf(records[i])}`))).data
          : list.data.find((item: Record<string, string>) => keyOf(item) === keyOf(records[i]));
        if (expected !== undefined) expect(records[i], `${name} ${keyOf(records[i])}`).toEqual(expected);
      }
      const csv = await call(`/v1/bulk/${name}.csv`);
      expect(csv.headers.get("content-type")).toMatch(/^text\/csv/);
      const rows = csvRecords(await text(csv));
      const file = BULK_FILES.find((f) => f.name === name);
      expect(rows[0]).toEqual(columnsOf(file?.record ?? RESOURCES[name].list.item).map((c) => c.name));
      expect(rows.length - 1, `${name}.csv`).toBe(list.meta.total);
    }
    // A few hundred calls and 50 MB of files: minutes, not vitest's default 5 s, when other suites share the machine.
  }, 300_000);

  it("unnests qualification requirements and NSC results, each under its own scope", async () => {
    const requirements = await call("/v1/bulk/qualification-requirements.ndjson");
    const first = JSON.parse(lines(await text(requirements))[0] ?? "{}");
    const own = await json(await call(`/v1/data/qualifications/${first.qualification_id}/requirements`));
    const { qualification_id: _, ...requirement } = first;
    expect(own.data[0]).toEqual(requirement);
    const withoutRequirements = ALL_SCOPES.filter((s) => s !== "qualifications:requirements");
    const refused = await call("/v1/bulk/qualification-requirements.csv", { token: await token({ scopes: withoutRequirements }) });
    expect(refused.status).toBe(403);
    expect((await json(refused)).error.code).toBe("insufficient_scope");
    const nsc = await call("/v1/bulk/nsc-results.csv", { token: await token({ scopes: ["high_schools:read"] }) });
    expect(nsc.status).toBe(200);
    expect(csvRecords(await text(nsc))[0]).toEqual(["high_school_id", "emis_number", "year", "wrote", "passed", "pass_rate", "progressed"]);
    expect((await call("/v1/bulk/high-schools.ndjson", { token: await token({ scopes: ["postal_codes:read"] }) })).status).toBe(403);
  });

  it("answers 404 for a file that is not one, and 304 for a file the client has", async () => {
    expect((await call("/v1/bulk/manifest.csv")).status).toBe(404);
    expect((await call("/v1/bulk/provinces.xml")).status).toBe(404);
    const first = await call("/v1/bulk/provinces.csv");
    const etag = first.headers.get("etag");
    expect(etag).toBeTruthy();
    expect((await call("/v1/bulk/provinces.csv", { headers: { "if-none-match": etag ?? "" } })).status).toBe(304);
  });

  it("serves the data dictionary: every bulk file with every column, each nullable one with why", async () => {
    const { data } = await json(await call("/v1/bulk/dictionary.json", { token: await anyToken() }));
    expect(data.files.map((f: { name: string }) => f.name)).toEqual(BULK_FILES.map((f) => f.name));
    const quintile = data.files.find((f: { name: string }) => f.name === "high-schools").columns.find((c: { name: string }) => c.name === "quintile");
    expect(quintile).toMatchObject({ nullable: true, type: "integer" });
    expect(quintile.null_when).toMatch(/independent/);
  });
});
