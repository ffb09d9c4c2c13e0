// Releases (README "Releases and bulk files"): the rules of build/releases.ts on small cases, and two releases made
// from changed sources (a school added, a bursary's closing date changed, a qualification removed), read back through
// the Worker's own answer to GET /v1/changes with tokens of different scopes.
import { readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { assembleModel, defaultBuildOptions, runBuild, type BuildResult } from "../../build/index.ts";
import { readHistory } from "../../build/release-history.ts";
import { publishedRecords, resourceRecords } from "../../build/records.ts";
import { todayInJohannesburg } from "../../lib/dates.ts";
import { ROOT } from "../../lib/root.ts";
import { jsonHash, fingerprintsOf, newRelease, nextReleaseId, planRelease, retain, type Fingerprints } from "../../build/releases.ts";
import { fnv1a32 } from "../../lib/buckets.ts";
import fc from "fast-check";
import type { ResourceRecords } from "../../build/records.ts";
import type { Principal } from "../../functions/authenticate.ts";
import { dispatch, manifestReader } from "../../functions/dispatch.ts";
import type { Env } from "../../functions/env.ts";
import { ApiError } from "../../functions/errors.ts";
import { matchRoute } from "../../functions/route.ts";
import { removeAll, tempDir } from "../../lib/files.ts";
import { envOverDist } from "../../support/dist-env.ts";
import { smallSources } from "../../support/test-dataset.ts";
import { SCOPES } from "../../domain/scopes.ts";
import { ReleaseFile } from "../../schema/releases.ts";

const records = (name: string, items: Record<string, unknown>[]) => ({ name, whole: { schema: null, items } }) as unknown as ResourceRecords;

describe("field digests", () => {
  // The fingerprints hash a plain text or number without making its JSON text; the committed history was digested
  // over JSON.stringify of each value, and a digest that differed would mark every record changed.
  it("hash a value as FNV-1a over its JSON text, made or not", () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.string({ unit: "binary" }), (value, text) => {
        expect(jsonHash(value)).toBe(fnv1a32(JSON.stringify(value)));
        expect(jsonHash(text)).toBe(fnv1a32(JSON.stringify(text)));
      }),
    );
    for (const value of [-0, 1e21, 5e-7, true, null, 'a"b', "a\\b", "\u0000", "\ud83d\ude00", "\ud83d", "\u2028"])
      expect(jsonHash(value), JSON.stringify(value)).toBe(fnv1a32(JSON.stringify(value)));
  });

  it("are what digesting each field of the committed sources' records apart gives", async () => {
    const assembly = await assembleModel(defaultBuildOptions(ROOT));
    if (!assembly.ok) throw new Error("the committed sources do not build");
    const resources = resourceRecords(assembly.model, assembly.schemes, assembly.variants);
    const fingerprints = fingerprintsOf(resources);
    for (const resource of resources) {
      const { fields, records } = fingerprints[resource.name] ?? { fields: [], records: new Map() };
      for (const { key, fields: record } of publishedRecords(resource)) {
        const digest = (value: unknown) => (fnv1a32(JSON.stringify(value) ?? "undefined") >>> 8).toString(16).padStart(6, "0");
        const apart = fields.map((name) => (name in record ? digest(record[name]) : "------")).join("");
        expect(records.get(key), `${resource.name} ${key}`).toBe(apart);
      }
    }
  });
});

describe("release rules", () => {
  const before: Fingerprints = fingerprintsOf([
    records("provinces", [
      { id: "a", name: "A" },
      { id: "b", name: "B" },
    ]),
  ]);

  it("lists added, removed and changed records with the fields that changed", () => {
    const after = fingerprintsOf([
      records("provinces", [
        { id: "a", name: "A2" },
        { id: "c", name: "C" },
      ]),
    ]);
    const plan = planRelease(after, before);
    expect(plan.changes).toEqual([
      { resource: "provinces", key: "a", change: "changed", fields: ["name"] },
      { resource: "provinces", key: "b", change: "removed", fields: [] },
      { resource: "provinces", key: "c", change: "added", fields: [] },
    ]);
    expect(plan.counts.provinces).toEqual({ total: 2, added: 1, removed: 1, changed: 1 });
    expect(plan.unchanged).toBe(false);
    expect(planRelease(before, before).unchanged).toBe(true);
  });

  it("notices a field that appears or disappears", () => {
    const added = fingerprintsOf([
      records("provinces", [
        { id: "a", name: "A", code: "X" },
        { id: "b", name: "B" },
      ]),
    ]);
    expect(planRelease(added, before).changes).toEqual([{ resource: "provinces", key: "a", change: "changed", fields: ["code"] }]);
    expect(planRelease(before, added).changes).toEqual([{ resource: "provinces", key: "a", change: "changed", fields: ["code"] }]);
  });

  // The bench's synthetic 10x national build adds 300,000 records at once: the plan once spread them into one push()
  // call, and the build died with "Maximum call stack size exceeded".
  it("plans a change of hundreds of thousands of records", () => {
    const many = Array.from({ length: 300_000 }, (_, i) => ({ id: `k${i}`, name: "N" }));
    const plan = planRelease(fingerprintsOf([records("provinces", many)]), before);
    expect(plan.changes).toHaveLength(300_000 + 2);
    expect(plan.counts.provinces).toEqual({ total: 300_000, added: 300_000, removed: 2, changed: 0 });
  });

  it("numbers a day's second release, and a first release is a baseline without changes", () => {
    const plan = planRelease(before, null);
    const first = newRelease([], plan, "0123456789abcdef", new Date("2026-11-28T08:00:00Z"));
    expect(first).toMatchObject({ id: "2026-11-28", previous: null, baseline: true, changes: [] });
    expect(nextReleaseId([first], new Date("2026-11-28T20:00:00Z"))).toBe("2026-11-28.2");
    // 23:30 UTC is the next day in Johannesburg.
    expect(nextReleaseId([first], new Date("2026-11-28T23:30:00Z"))).toBe("2026-11-29");
  });

  it("keeps 400 days, and the oldest one kept becomes a baseline", () => {
    const release = (id: string, previous: string | null): ReleaseFile => ({
      id,
      data_version: "0123456789abcdef",
      built_at: `${id.slice(0, 10)}T00:00:00Z`,
      previous,
      baseline: previous === null,
      resources: { provinces: { total: 2, added: 0, removed: 0, changed: 1 } },
      changes: previous === null ? [] : [{ resource: "provinces", key: "a", change: "changed", fields: ["name"] }],
    });
    const history = [release("2025-10-01", null), release("2025-10-28", "2025-10-01"), release("2026-12-01", "2025-10-28")];
    const { kept, dropped } = retain(history);
    expect(kept.map((r) => r.id)).toEqual(["2026-12-01", "2025-10-28"]);
    expect(dropped.map((r) => r.id)).toEqual(["2025-10-01"]);
    expect(kept[1]).toMatchObject({ baseline: true, previous: null, changes: [], resources: { provinces: { total: 2, changed: 0 } } });
  });
});

const principal = (scopes: readonly string[]): Principal =>
  ({
    sub: "test",
    jti: crypto.randomUUID(),
    scopes: new Set(scopes),
    expiresAt: Date.now() / 1000 + 3600,
    kind: { type: "secret" },
  }) as unknown as Principal;

async function get(env: Env, url: string, scopes: readonly string[] = SCOPES): Promise<{ status: number; body: Record<string, unknown> }> {
  const parsed = new URL(`http://127.0.0.1${url}`);
  const match = matchRoute("GET", parsed.pathname);
  if (match.kind !== "route") throw new Error(`${url}: ${match.kind}`);
  try {
    const response = await dispatch(match.route.target, {
      request: new Request(parsed),
      url: parsed,
      env,
      principal: principal(scopes),
      manifest: manifestReader(env, null),
    });
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  } catch (error) {
    if (error instanceof ApiError) return { status: error.status, body: { code: error.code } };
    throw error;
  }
}

describe("the committed sources", () => {
  it("are the latest release's records: a change to sources/ comes with npm run build -- --release", async () => {
    const { history, problems } = await readHistory(path.join(ROOT, "sources"));
    expect(problems).toEqual([]);
    const latest = history.releases[0];
    if (!latest) throw new Error("sources/releases/ holds no release");
    // Built as on the day the release was recorded: a value projected from the build date (a bursary's expected next
    // cycle) moves on later, and that is the nightly rebuild's release to make, not a change to the sources.
    const options = defaultBuildOptions(ROOT, { today: todayInJohannesburg(new Date(latest.built_at)) });
    const assembly = await assembleModel(options);
    if (!assembly.ok) throw new Error(JSON.stringify(assembly.problems.slice(0, 3)));
    const plan = planRelease(fingerprintsOf(resourceRecords(assembly.model, assembly.schemes, assembly.variants)), history.fingerprints);
    expect(plan.changes.slice(0, 10), `${plan.changes.length} records differ from release ${latest.id}`).toEqual([]);
  }, 120_000);
});

describe("two releases from changed sources", () => {
  /** The Worker's environment over the second release's dist/. */
  const builtEnv = () => envOverDist(out, { CACHE_MAX_AGE: "300", ASSET_URL: "https://api.test/assets" });
  let sources: string;
  let out: string;
  let first: ReleaseFile;
  let result: BuildResult;
  const school = "999999001";
  const bursary = "masakhisizwe-bursary";
  let removedQualification: string;
  const UNIVERSITY = "sol-plaatje-university";

  beforeAll(async () => {
    // One university's programmes and the first few hundred schools and postal codes: a release of them first (the
    // committed fingerprints are of the whole data), then the three changes and a second release.
    sources = await smallSources({ national: true });
    out = path.join(await tempDir("releases-dist"), "dist");
    const head = async (file: string, rows: number, keep?: (line: string) => boolean) => {
      const lines = (await readFile(path.join(sources, file), "utf8")).trimEnd().split("\n");
      const kept = keep ? lines.slice(1).filter(keep) : lines.slice(1, rows + 1);
      await writeFile(path.join(sources, file), `${[lines[0], ...kept].join("\n")}\n`);
      return kept;
    };
    const schools = new Set((await head("high-schools.csv", 300)).map((line) => line.split(",")[0]));
    await head("nsc-results.csv", 0, (line) => schools.has(line.split(",")[0]));
    await head("postal-codes.csv", 300);
    const before = await runBuild(defaultBuildOptions(ROOT, { sourcesDir: sources, outDir: out, release: new Date("2026-11-30T10:00:00Z") }));
    if (!before.ok || before.release === null) throw new Error(`the first release was not made: ${JSON.stringify(before).slice(0, 300)}`);
    first = ReleaseFile.parse(JSON.parse(await readFile(path.join(sources, "releases", `${before.release}.json`), "utf8")));

    // A school added: a copy of the first school's row under a new EMIS number and name.
    const rows = (await readFile(path.join(sources, "high-schools.csv"), "utf8")).trimEnd().split("\n");
    const cells = (rows[1] ?? "").split(",");
    cells[0] = school;
    cells[1] = "RELEASE TEST SECONDARY SCHOOL";
    await writeFile(path.join(sources, "high-schools.csv"), `${[...rows, cells.join(",")].join("\n")}\n`);
    // A bursary's closing date moved by a day.
    const cycles = await readFile(path.join(sources, "bursary-cycles.csv"), "utf8");
    const cycle = cycles.split("\n").find((line) => line.startsWith(`${bursary},`)) ?? "";
    const closing = cycle.split(",")[3] ?? "";
    const moved = new Date(Date.parse(`${closing}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
    await writeFile(path.join(sources, "bursary-cycles.csv"), cycles.replace(cycle, cycle.replace(`,${closing},`, `,${moved},`)));
    // A qualification removed, with its evidence.
    const file = path.join(sources, "qualifications", `${UNIVERSITY}.csv`);
    const programmes = (await readFile(file, "utf8")).trimEnd().split("\n");
    removedQualification = (programmes.at(-1) ?? "").split(",")[0] ?? "";
    await writeFile(file, `${programmes.slice(0, -1).join("\n")}\n`);
    const evidence = path.join(sources, "evidence", `${UNIVERSITY}.csv`);
    const lines = (await readFile(evidence, "utf8")).split("\n");
    await writeFile(evidence, lines.filter((l) => !l.startsWith(`${removedQualification},`)).join("\n"));

    result = await runBuild(defaultBuildOptions(ROOT, { sourcesDir: sources, outDir: out, release: new Date("2026-12-01T10:00:00Z") }));
  }, 180_000);

  afterAll(() => removeAll(sources, path.dirname(out)));

  it("records the second release in sources/releases/ once published", async () => {
    if (!result.ok) throw new Error(JSON.stringify(result.problems.slice(0, 3)));
    expect(result.release).toBe("2026-12-01");
    const second = ReleaseFile.parse(JSON.parse(await readFile(path.join(sources, "releases", "2026-12-01.json"), "utf8")));
    expect(second.previous).toBe(first.id);
    expect(second.resources["high-schools"]).toMatchObject({ added: 1, removed: 0, changed: 0 });
    expect(second.resources.bursaries).toMatchObject({ added: 0, removed: 0, changed: 1 });
    expect(second.resources.qualifications).toMatchObject({ added: 0, removed: 1, changed: 0 });
  });

  it("lists exactly those three changes since the first release, with the fields that changed", async () => {
    const env = builtEnv();
    const schoolId = ((await get(env, `/v1/data/high-schools?q=release test`)).body.data as { id: string }[])[0]?.id;
    for (const since of [first.id, first.data_version]) {
      const { status, body } = await get(env, `/v1/changes?since=${since}`);
      expect(status).toBe(200);
      expect(body.data).toEqual([
        { release: "2026-12-01", resource: "bursaries", key: bursary, change: "changed", fields: ["closing_date", "cycles"] },
        { release: "2026-12-01", resource: "high-schools", key: schoolId, change: "added", fields: [] },
        { release: "2026-12-01", resource: "qualifications", key: removedQualification, change: "removed", fields: [] },
      ]);
      expect(body.meta).toEqual({ total: 3, page: 1, per_page: 20, since: first.id, until: "2026-12-01" });
    }
    const paged = await get(env, `/v1/changes?since=${first.id}&per_page=1&page=2`);
    expect((paged.body.data as { resource: string }[]).map((c) => c.resource)).toEqual(["high-schools"]);
  });

  it("shows a token only the changes to resources it may read", async () => {
    const env = builtEnv();
    const withoutBursaries = SCOPES.filter((s) => s !== "bursaries:read");
    const { body } = await get(env, `/v1/changes?since=${first.id}`, withoutBursaries);
    expect((body.data as { resource: string }[]).map((c) => c.resource)).toEqual(["high-schools", "qualifications"]);
    expect((body.meta as { total: number }).total).toBe(2);
  });

  it("answers 410 for a release older than the history, 400 for one that never was", async () => {
    const env = builtEnv();
    expect(await get(env, "/v1/changes?since=2020-01-01")).toEqual({ status: 410, body: { code: "release_gone" } });
    expect(await get(env, "/v1/changes?since=ffffffffffffffff")).toEqual({ status: 410, body: { code: "release_gone" } });
    expect(await get(env, "/v1/changes?since=2026-11-29")).toEqual({ status: 400, body: { code: "unknown_release" } });
    expect((await get(env, "/v1/changes?since=yesterday")).status).toBe(400);
    expect(await get(env, "/v1/changes")).toEqual({ status: 400, body: { code: "invalid_parameter" } });
    expect(await get(env, "/v1/changes?since=2026-12-01")).toMatchObject({ status: 200, body: { data: [], meta: { total: 0 } } });
  });

  it("lists the releases newest first, and /v1/meta names the new one", async () => {
    const env = builtEnv();
    const { body } = await get(env, "/v1/releases", []);
    expect((body.data as { id: string }[]).map((r) => r.id).slice(0, 2)).toEqual(["2026-12-01", first.id]);
    const meta = await get(env, "/v1/meta", []);
    expect(meta.body.data).toMatchObject({ release: { id: "2026-12-01", built_at: "2026-12-01T10:00:00Z" } });
  });
});
