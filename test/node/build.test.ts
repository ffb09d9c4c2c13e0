import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdir, readdir, readFile, rename, rm, symlink, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { MAX_CELL_LENGTH } from "../../build/load.ts";
import { formatProblem } from "../../build/problems.ts";
import { defaultBuildOptions, formatTimings, runBuild, type BuildOptions, type BuildResult, type StageTiming } from "../../build/index.ts";
import { recoverInterruptedPublish, recycledName } from "../../build/publish.ts";
import { insideBox, PROVINCE_BOXES, PROVINCE_MARGIN_DEGREES, type ProvinceId } from "../../importers/coordinates.ts";
import * as api from "../../schema/api.ts";
import { bucketOf } from "../../lib/buckets.ts";
import { paths, type Manifest } from "../../lib/layout.ts";
import { PUBLIC_DOCUMENTS } from "../../lib/public-documents.ts";
import { ROOT, smallSources, TEST_DIST, testDatasetToday } from "../../support/test-dataset.ts";
import { fingerprint, removeAll, tempDir } from "../../lib/files.ts";
import { present } from "../support/present.ts";

const cleanup: string[] = [];
afterAll(() => removeAll(...cleanup));

async function options(overrides: Partial<BuildOptions> = {}): Promise<BuildOptions> {
  const out = path.join(await tempDir("dist-parent"), "dist");
  cleanup.push(path.dirname(out));
  return defaultBuildOptions(ROOT, { outDir: out, importedDir: path.join(out, "..", "no-imports"), ...overrides });
}

/** A copy of the curated tables with one university's programmes (support/test-dataset.ts smallSources: no
 * national tables, which take most of a build's time, and a fifth of the catalogue), for the tests that modify
 * sources or build them with other options, whose subject is neither those tables nor the catalogue's breadth. */
async function smallCopy(): Promise<string> {
  const sources = await smallSources();
  cleanup.push(sources);
  return sources;
}

/** Build options for that copy. */
async function curatedOptions(overrides: Partial<BuildOptions> = {}): Promise<BuildOptions> {
  return options({ sourcesDir: await smallCopy(), ...overrides });
}

/** One build of the committed sources, national tables included, shared by the tests that only read it. It is built
 * with the date .test-dist/ was built with (the same sources, by the same code, before any test ran), so the two must
 * be byte-identical. */
let committed: Promise<{ opts: BuildOptions; result: BuildResult }> | undefined;
function committedBuild() {
  committed ??= (async () => {
    const opts = await options({ today: testDatasetToday() });
    return { opts, result: await runBuild(opts) };
  })();
  return committed;
}

const readJson = async (file: string) => JSON.parse(await readFile(file, "utf8"));
/** A list chunk's items and a bucket's records (the files carry offset tables: lib/sliced.ts). */
const readChunk = async (file: string) => (await readJson(file)).items;
const readBucket = async (file: string) => (await readJson(file)).records;

describe("build of the committed sources", () => {
  it("succeeds and emits files that match the response schemas and SPEC.md's fields", async () => {
    const { opts, result } = await committedBuild();
    expect(result.ok, result.ok ? "" : JSON.stringify(result.problems.slice(0, 5))).toBe(true);
    const manifest = (await readJson(path.join(opts.outDir, "manifest.json"))) as Manifest;
    expect(manifest.resources.universities?.total).toBe(26);
    expect(manifest.resources.provinces?.total).toBe(9);
    expect(manifest.resources.subjects?.total).toBeGreaterThanOrEqual(90);

    const checks: [
      string,
      typeof api.UniversityListItem | typeof api.QualificationListItem | typeof api.BursaryListItem | typeof api.StoredProspectus,
    ][] = [
      ["universities", api.UniversityListItem],
      ["qualifications", api.QualificationListItem],
      ["bursaries", api.BursaryListItem],
      ["prospectuses", api.StoredProspectus],
    ];
    for (const [resource, schema] of checks) {
      const entry = manifest.resources[resource];
      let count = 0;
      for (let k = 0; k < (entry?.list?.chunks ?? 0); k++) {
        for (const item of await readChunk(path.join(opts.outDir, paths.listChunk(resource, k)))) {
          schema.parse(item);
          count++;
        }
      }
      expect(count, resource).toBe(entry?.total);
    }
    const universities = await readChunk(path.join(opts.outDir, paths.listChunk("universities", 0)));
    for (const u of universities) {
      const detail = await readJson(path.join(opts.outDir, paths.detail("universities", u.slug)));
      api.University.parse(detail.data);
      expect(Object.keys(detail.data)).toEqual(expect.arrayContaining(["id", "name", "short_name", "slug", "province_name", "application_cycles"]));
    }
    const provinces = await readJson(path.join(opts.outDir, paths.wholeList("provinces")));
    expect(provinces.meta).toEqual({ total: 9 });
    for (const p of provinces.data) api.Province.strict().parse(p);
    // The manifest counts the data files; the public documents (OpenAPI document, reference page) come on top.
    expect(manifest.files + PUBLIC_DOCUMENTS.length).toBe((await fingerprint(opts.outDir)).size);
  });

  it("gives byte-identical output for the same sources", async () => {
    // The shared build, compared with the other build of the same sources: the test data set (.test-dist/).
    const { opts: a, result } = await committedBuild();
    expect(result.ok).toBe(true);
    const [fa, fb] = [await fingerprint(a.outDir), await fingerprint(TEST_DIST)];
    expect(fa.size).toBeGreaterThan(30);
    expect([...fa]).toEqual([...fb]);
  });
});

describe("a broken build", () => {
  it("reports problems in two tables at once, exits non-zero and leaves the previous dist/ byte for byte", async () => {
    const sources = await smallCopy();
    const opts = await options({ sourcesDir: sources });
    expect((await runBuild(opts)).ok).toBe(true);
    const before = await fingerprint(opts.outDir);

    // universities.csv: a duplicated key (line 3 repeats line 2); subjects.csv: an empty required cell.
    const universities = (await readFile(path.join(sources, "universities.csv"), "utf8")).split("\n");
    universities.splice(2, 0, universities[1] ?? "");
    await writeFile(path.join(sources, "universities.csv"), universities.join("\n"));
    const subjects = (await readFile(path.join(sources, "subjects.csv"), "utf8")).split("\n");
    subjects[4] = (subjects[4] ?? "").replace(/^([^,]+),([^,]+),/, "$1,,");
    await writeFile(path.join(sources, "subjects.csv"), subjects.join("\n"));

    const cli = spawnSync(process.execPath, ["--import", "tsx", "scripts/build.ts", "--sources", sources, "--out", opts.outDir], {
      cwd: ROOT,
      encoding: "utf8",
    });
    expect(cli.status).not.toBe(0);
    const report = cli.stdout;
    expect(report).toContain("Build failed");
    expect(report).toMatch(
      /universities\.csv:3 column "id": value "[0-9a-f-]{36}": expected a unique id in universities \(already used at .*universities\.csv:2\)/,
    );
    expect(report).toMatch(/subjects\.csv:5 column "name": value "": expected a non-empty text/);
    expect([...(await fingerprint(opts.outDir))]).toEqual([...before]);
  });

  it("names file, line, column, value and what was expected for bad cells and references", async () => {
    const sources = await smallCopy();
    await writeFile(
      path.join(sources, "application-cycles.csv"),
      [
        "university_slug,intake_year,applies_to,open_date,close_date,source_url,verified_on",
        "university-of-atlantis,2027,All undergraduate programmes,2026-04-01,2026-09-30,https://www.example.ac.za/apply,2026-11-01",
        "university-of-pretoria,2027,All undergraduate programmes,2026-04-01,2026-02-30,http://www.up.ac.za/,2026-11-01",
        "university-of-pretoria,2027,MBChB,2026-06-01,2026-05-31,https://www.up.ac.za/,2099-01-01",
      ].join("\r\n"),
    );
    const result = await runBuild(await options({ sourcesDir: sources }));
    expect(result.ok).toBe(false);
    if (result.ok) return;
    const found = result.problems.map((p) => `${path.basename(p.file)}:${p.line}:${p.column}:${p.value}`);
    expect(found).toEqual(
      expect.arrayContaining([
        "application-cycles.csv:2:university_slug:university-of-atlantis",
        "application-cycles.csv:3:close_date:2026-02-30",
        "application-cycles.csv:3:source_url:http://www.up.ac.za/",
        "application-cycles.csv:4:verified_on:2099-01-01",
      ]),
    );
    const reference = result.problems.find((p) => p.column === "university_slug");
    expect(reference?.expected).toBe("a slug that exists in universities");
  });

  it("reads BOM, CRLF and quoted cells, and reports malformed CSV with its line", async () => {
    const sources = await smallCopy();
    const file = path.join(sources, "prospectuses.csv");
    await writeFile(
      file,
      '\uFEFFuniversity_slug,year,part,title,source_url,verified_on\r\n"university-of-pretoria",2027,,,"https://www.up.ac.za/a,b.pdf",2026-11-01\r\n',
    );
    const good = await runBuild(await options({ sourcesDir: sources }));
    expect(good.ok).toBe(true);
    if (good.ok) expect(good.model.prospectuses.map((p) => p.source_url)).toEqual(["https://www.up.ac.za/a,b.pdf"]);
    await writeFile(
      file,
      'university_slug,year,part,title,source_url,verified_on\n"university-of-pretoria,2027,,,https://www.up.ac.za/,2026-11-01\n',
    );
    const bad = await runBuild(await options({ sourcesDir: sources }));
    expect(bad.ok).toBe(false);
    if (!bad.ok) expect(bad.problems[0]?.expected).toMatch(/well-formed CSV/);
  });

  it("reports a stray quote as the first and only problem, without the knock-on problems of a missing table", async () => {
    const sources = await smallCopy();
    const file = path.join(sources, "subjects.csv");
    const lines = (await readFile(file, "utf8")).split("\n");
    lines[5] = lines[5]?.replace(",", ',"') ?? "";
    await writeFile(file, lines.join("\n"));
    const result = await runBuild(await options({ sourcesDir: sources }));
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.problems[0]?.file.endsWith("subjects.csv")).toBe(true);
    expect(result.problems[0]?.fatal).toBe(true);
    expect(result.problems[0]?.expected).toMatch(/well-formed CSV/);
    expect(result.problems[0]?.line).toBe(6); // where the quote opened, not where the file ends
    expect(result.problems).toHaveLength(1);
  });

  it("refuses bytes that are not UTF-8, naming file, line and column (a Latin-1 é is never published as U+FFFD)", async () => {
    const sources = await smallCopy();
    const file = path.join(sources, "universities.csv");
    const text = await readFile(file, "utf8");
    const latin1 = Buffer.from(text.replace("University of Cape Town", "Universit\u00e9 of Cape Town"), "utf8");
    const at = latin1.indexOf(Buffer.from("Universit\u00e9", "utf8")) + "Universit".length;
    // é in Latin-1 is the single byte 0xE9: write it in place of its two UTF-8 bytes.
    const bytes = Buffer.concat([latin1.subarray(0, at), Buffer.from([0xe9]), latin1.subarray(at + 2)]);
    await writeFile(file, bytes);
    const result = await runBuild(await options({ sourcesDir: sources }));
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.problems).toHaveLength(1);
    const line = text.split("\n").findIndex((l) => l.includes("University of Cape Town")) + 1;
    const column = (text.split("\n")[line - 1] ?? "").indexOf("University of Cape Town") + "Universit".length + 1;
    expect(result.problems[0]).toMatchObject({ line, fatal: true });
    expect(result.problems[0]?.file.endsWith("universities.csv")).toBe(true);
    expect(result.problems[0]?.expected).toContain(`column ${column} (character ${column} of the line) holds the byte 0xE9, which is not UTF-8`);
  });

  it("refuses control characters in cells and cells over the stated length, naming the column", async () => {
    const sources = await smallCopy();
    const file = path.join(sources, "subjects.csv");
    const lines = (await readFile(file, "utf8")).split("\n");
    lines[1] = lines[1]?.replace("Afrikaans Home Language", "Afrikaans\u0000Home Language") ?? "";
    lines[2] = lines[2]?.replace(/^([^,]*),([^,]*)/, (_, slug) => `${slug},"${"x".repeat(MAX_CELL_LENGTH + 1)}"`) ?? "";
    await writeFile(file, lines.join("\n"));
    const result = await runBuild(await curatedOptions({ sourcesDir: sources }));
    expect(result.ok).toBe(false);
    if (result.ok) return;
    const mine = result.problems.filter((p) => p.file.endsWith("subjects.csv"));
    expect(mine.map((p) => [p.line, p.column])).toEqual([
      [2, "name"],
      [3, "name"],
    ]);
    expect(mine[0]?.expected).toMatch(/without control characters \(U\+0000 at character 10/);
    expect(mine[1]?.expected).toBe(
      `at most ${MAX_CELL_LENGTH.toLocaleString("en")} characters in a cell, not ${(MAX_CELL_LENGTH + 1).toLocaleString("en")}`,
    );
    expect(formatProblem(mine[0] as never)).toContain('"Afrikaans\\u0000Home Language"');
  });

  it("does not follow a symbolic link out of sources/, and prints nothing of what it points at", async () => {
    const sources = await smallCopy();
    const outside = path.join(await tempDir("outside"), "secret.csv");
    cleanup.push(path.dirname(outside));
    await writeFile(outside, "root:x:0:0:root:/root:/bin/bash\n");
    await rm(path.join(sources, "subjects.csv"));
    await symlink(outside, path.join(sources, "subjects.csv"));
    const result = await runBuild(await curatedOptions({ sourcesDir: sources }));
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.problems[0]).toMatchObject({ line: 1, fatal: true, expected: expect.stringMatching(/not a symbolic link/) });
    expect(result.problems[0]?.file.endsWith("subjects.csv")).toBe(true);
    expect(result.problems.map(formatProblem).join("\n")).not.toContain("root:");
  });

  it("names the column of a CSV syntax error", async () => {
    const sources = await smallCopy();
    const file = path.join(sources, "subjects.csv");
    const lines = (await readFile(file, "utf8")).split("\n");
    lines[3] = lines[3]?.replace(/^([^,]*),([^,]*),/, '$1,"$2"x,') ?? "";
    await writeFile(file, lines.join("\n"));
    const result = await runBuild(await curatedOptions({ sourcesDir: sources }));
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.problems[0]).toMatchObject({ line: 4, column: "name", fatal: true, expected: expect.stringMatching(/well-formed CSV/) });
  });

  it("gives a prospectus published in parts one document path per part, and a part needs a title", async () => {
    const sources = await smallCopy();
    const file = path.join(sources, "prospectuses.csv");
    const header = "university_slug,year,part,title,source_url,verified_on";
    await writeFile(
      file,
      [
        header,
        "university-of-pretoria,2027,,,https://www.up.ac.za/whole.pdf,2026-11-01",
        "university-of-limpopo,2027,science,Faculty of Science prospectus,https://www.ul.ac.za/science.pdf,2026-11-01",
        "university-of-limpopo,2027,humanities,Faculty of Humanities prospectus,https://www.ul.ac.za/humanities.pdf,2026-11-01",
      ].join("\n"),
    );
    const opts = await options({ sourcesDir: sources });
    const good = await runBuild(opts);
    expect(good.ok).toBe(true);
    if (!good.ok) return;
    const documents = await readJson(path.join(opts.outDir, paths.prospectusDocuments()));
    expect(documents).toEqual({
      "/prospectuses/university-of-limpopo-2027-humanities.pdf": "https://www.ul.ac.za/humanities.pdf",
      "/prospectuses/university-of-limpopo-2027-science.pdf": "https://www.ul.ac.za/science.pdf",
      "/prospectuses/university-of-pretoria-2027.pdf": "https://www.up.ac.za/whole.pdf",
    });
    expect(new Set(good.model.prospectuses.map((p) => p.id)).size).toBe(3);

    await writeFile(
      file,
      [
        header,
        "university-of-limpopo,2027,science,,https://www.ul.ac.za/science.pdf,2026-11-01",
        "university-of-limpopo,2027,,Faculty of Humanities prospectus,https://www.ul.ac.za/humanities.pdf,2026-11-01",
        "university-of-limpopo,2026,science,Faculty of Science prospectus,https://www.ul.ac.za/a.pdf,2026-11-01",
        "university-of-limpopo,2026,science,Faculty of Science prospectus,https://www.ul.ac.za/b.pdf,2026-11-01",
      ].join("\n"),
    );
    const bad = await runBuild(await options({ sourcesDir: sources }));
    expect(bad.ok).toBe(false);
    if (bad.ok) return;
    expect(bad.problems.map((p) => `${p.line}:${p.column}`)).toEqual(expect.arrayContaining(["2:title", "3:title", "5:university_slug, year, part"]));
  });

  it("fails with a clear message when the output would pass the file limit", async () => {
    const result = await runBuild(await curatedOptions({ maxFiles: 10 }));
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.problems[0]?.expected).toMatch(/at most 10 files/);
  });

  // The emit stage writes each file into a staging folder as it makes it (issue 31: the build no longer holds every
  // file's text): a problem found after files were written must still leave dist/ as it was, and no folder behind.
  it("leaves the previous dist/ byte for byte and no staging folder when a check after the writes fails", async () => {
    const opts = await curatedOptions();
    expect((await runBuild(opts)).ok).toBe(true);
    const before = await fingerprint(opts.outDir);
    const parent = path.dirname(opts.outDir);
    const siblings = await readdir(parent);
    for (const overrides of [{ maxFiles: 10 }, { maxAssetBytes: 1_000 }]) {
      const result = await runBuild({ ...opts, ...overrides });
      expect(result.ok).toBe(false);
      if (!result.ok) expect(result.problems[0]?.expected).toMatch(/at most 10 files|within Cloudflare's 25 MiB per asset/);
      expect([...(await fingerprint(opts.outDir))]).toEqual([...before]);
      expect(await readdir(parent)).toEqual(siblings);
    }
  });

  it("reports each stage's wall and CPU time and RSS when asked (npm run build -- --timings)", async () => {
    const timings: StageTiming[] = [];
    const result = await runBuild({ ...(await curatedOptions()), timings });
    expect(result.ok).toBe(true);
    expect(timings.map((t) => t.stage)).toEqual([
      "load",
      "validate",
      "link",
      "conflicts report",
      "records",
      "find indexes",
      "lay out",
      "release history read",
      "bulk files",
      "fingerprints",
      "releases",
      "documents",
      "writes settled",
      "swap",
    ]);
    for (const t of timings) expect(t.seconds >= 0 && t.cpuSeconds >= 0 && t.rssMiB > 0).toBe(true);
    expect(timings.reduce((sum, t) => sum + t.seconds, 0)).toBeLessThanOrEqual(result.seconds);
    const lines = formatTimings(timings);
    expect(lines[0]).toMatch(/stage +wall +CPU +share +RSS after/);
    expect(lines.at(-1)).toMatch(/^ {2}total +\d+\.\d\d s +\d+\.\d\d s/);
  });

  it("removes its staging folder when the emit stage throws", async () => {
    const opts = await curatedOptions();
    const parent = path.dirname(opts.outDir);
    const siblings = await readdir(parent);
    // No records per bucket makes infinitely many buckets: the lay-out stage throws after the find indexes were written.
    await expect(runBuild({ ...opts, recordsPerBucket: 0, bucketThreshold: 0 })).rejects.toThrow(/Invalid array length/);
    expect(await readdir(parent)).toEqual(siblings);
  });
});

describe("publishing", () => {
  it("puts back the previous dist/ when a build was interrupted between its two renames", async () => {
    const opts = await curatedOptions();
    expect((await runBuild(opts)).ok).toBe(true);
    const before = await fingerprint(opts.outDir);
    await rename(opts.outDir, path.join(path.dirname(opts.outDir), ".dist-previous"));
    await recoverInterruptedPublish(opts.outDir);
    expect([...(await fingerprint(opts.outDir))]).toEqual([...before]);
  });

  it("writes over the output it replaced when asked to keep it, and ends with what a fresh build writes", async () => {
    const opts = await curatedOptions({ recyclePrevious: true });
    const parent = path.dirname(opts.outDir);
    const recycled = recycledName(opts.outDir);
    expect((await runBuild(opts)).ok).toBe(true);
    const fresh = await fingerprint(opts.outDir);
    expect((await runBuild(opts)).ok).toBe(true);
    expect([...(await fingerprint(opts.outDir))]).toEqual([...fresh]);
    // The first build's output, kept for the next.
    expect([...(await fingerprint(recycled))]).toEqual([...fresh]);

    // What the next build must not keep: a file it does not write (in a folder of its own), and a file longer than
    // the one it writes there.
    await mkdir(path.join(recycled, "v1", "gone"), { recursive: true });
    await writeFile(path.join(recycled, "v1", "gone", "x.json"), "{}");
    await writeFile(path.join(recycled, "manifest.json"), "x".repeat(100_000));
    expect((await runBuild(opts)).ok).toBe(true);
    expect([...(await fingerprint(opts.outDir))]).toEqual([...fresh]);
    expect(existsSync(path.join(opts.outDir, "v1", "gone"))).toBe(false);

    // Never through a symbolic link: a kept output holding one is not written over, but replaced.
    const outside = path.join(await tempDir("outside"), "file.txt");
    cleanup.push(path.dirname(outside));
    await writeFile(outside, "untouched");
    await rm(path.join(recycled, "manifest.json"));
    await symlink(outside, path.join(recycled, "manifest.json"));
    expect((await runBuild(opts)).ok).toBe(true);
    expect(await readFile(outside, "utf8")).toBe("untouched");
    expect([...(await fingerprint(opts.outDir))]).toEqual([...fresh]);

    // A failed build leaves dist/ as it was; only dist/ and the kept output remain beside it.
    expect((await runBuild({ ...opts, maxFiles: 10 })).ok).toBe(false);
    expect([...(await fingerprint(opts.outDir))]).toEqual([...fresh]);
    expect((await readdir(parent)).filter((entry) => entry.startsWith(".dist-"))).toEqual([]);
    expect((await runBuild(opts)).ok).toBe(true);
    expect((await readdir(parent)).filter((entry) => entry.startsWith(".dist-"))).toEqual([path.basename(recycled)]);
  });
});

describe("large collections", () => {
  it("stores detail records in buckets the Worker can find them in", async () => {
    const imported = await tempDir("imported");
    cleanup.push(imported);
    const rows = ["emis_number,name,province_id,district,quintile,sector,phase,latitude,longitude,source_url,verified_on"];
    for (let i = 0; i < 2_500; i++) {
      rows.push(
        `${String(100000000 + i)},Synthetic School ${i},gauteng,Test District,${(i % 5) + 1},public,secondary,-26.1,28.0,https://www.education.gov.za/,2026-11-01`,
      );
    }
    await mkdir(imported, { recursive: true });
    await writeFile(path.join(imported, "high-schools.csv"), rows.join("\n"));
    const opts = await curatedOptions({ importedDir: imported, bucketThreshold: 2_000, recordsPerBucket: 64 });
    const result = await runBuild(opts);
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    const detail = result.manifest.resources["high-schools"]?.detail;
    expect(detail).toEqual({ kind: "buckets", count: 40 });
    const buckets = new Map<number, Record<string, { emis_number: string }>>();
    for (const school of result.model.highSchools) {
      const b = bucketOf(school.id, 40);
      if (!buckets.has(b)) buckets.set(b, await readBucket(path.join(opts.outDir, paths.bucket("high-schools", b))));
      expect(buckets.get(b)?.[school.id]?.emis_number).toBe(school.emis_number);
    }
    expect(result.manifest.resources["high-schools"]?.list).toEqual({ chunk_size: 100, chunks: 25 });
  });
});

describe("the committed national tables (what a fresh clone serves, with no import and no network)", () => {
  it("hold at least 8,700 high schools in all nine provinces, 20,000 postal codes and 6,500 schools with NSC results", async () => {
    const { result } = await committedBuild();
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.manifest.resources["high-schools"]?.total).toBeGreaterThanOrEqual(8_700);
    expect(result.manifest.resources["postal-codes"]?.total).toBeGreaterThanOrEqual(20_000);
    const schools = result.model.highSchools;
    expect(new Set(schools.map((s) => s.province_id)).size).toBe(9);
    expect(schools.filter((s) => s.nsc_results.length > 0).length).toBeGreaterThanOrEqual(6_500);
    expect(schools.filter((s) => /[\uff61-\uff9f]/u.test(s.name))).toEqual([]);
    expect(schools.find((s) => s.emis_number === "100000124")?.name).toBe("LOUWVILLE HOËRSKOOL");
    for (const school of schools) {
      for (let i = 1; i < school.nsc_results.length; i++)
        expect(present(school.nsc_results[i - 1], "a result").year).toBeGreaterThan(present(school.nsc_results[i], "a result").year);
    }
    expect(result.manifest.files).toBeLessThan(20_000);
  });

  it("give every school coordinates inside its province or none (the Eastern and Northern Cape included)", async () => {
    const { result } = await committedBuild();
    if (!result.ok) throw new Error("the committed sources do not build");
    const placed = result.model.highSchools.filter((s) => s.latitude !== null && s.longitude !== null);
    for (const province of ["eastern-cape", "northern-cape"])
      expect(
        placed.some((s) => s.province_id === province),
        province,
      ).toBe(true);
    const outside = placed.filter(
      (s) => !insideBox(PROVINCE_BOXES[s.province_id as ProvinceId], s.latitude ?? 0, s.longitude ?? 0, PROVINCE_MARGIN_DEGREES),
    );
    expect(outside.map((s) => `${s.emis_number} ${s.province_id} ${s.latitude},${s.longitude}`)).toEqual([]);
  });
});

describe("NSC results joined onto high schools", () => {
  const SCHOOLS = [
    "emis_number,name,province_id,district,quintile,sector,phase,latitude,longitude,source_url,verified_on",
    "100000001,FIXTURE HOËRSKOOL,western-cape,METRO EAST,5,public,secondary,-33.9,18.6,https://www.education.gov.za/,2026-11-01",
    "100000002,FIXTURE NO RESULTS HIGH,western-cape,METRO EAST,3,public,secondary,,,https://www.education.gov.za/,2026-11-01",
  ];
  const NSC_HEADER = "emis_number,year,centre_number,wrote,passed,pass_rate,progressed,source_url,verified_on";
  const result = (emis: string, year: number, wrote: number, passed: number, rate: string, progressed = "") =>
    `${emis},${year},1001001,${wrote},${passed},${rate},${progressed},https://www.education.gov.za/Resources/Reports.aspx,2026-11-01`;

  it("gives details their results newest first ([] when none) and list items the latest pass rate and year (null when none)", async () => {
    const imported = await tempDir("imported-nsc");
    cleanup.push(imported);
    await writeFile(path.join(imported, "high-schools.csv"), `${SCHOOLS.join("\n")}\n`);
    await writeFile(
      path.join(imported, "nsc-results.csv"),
      [
        NSC_HEADER,
        result("100000001", 2023, 80, 41, "51.3", "0"),
        result("100000001", 2025, 90, 72, "80"),
        result("100000001", 2024, 16, 15, "93.8", "1"),
        result("999999999", 2025, 10, 5, "50"),
      ].join("\n"),
    );
    const opts = await curatedOptions({ importedDir: imported });
    const built = await runBuild(opts);
    expect(built.ok, built.ok ? "" : JSON.stringify(built.problems)).toBe(true);
    if (!built.ok) return;
    const list = (await readChunk(path.join(opts.outDir, paths.listChunk("high-schools", 0)))) as api.HighSchoolListItem[];
    expect(list.map((s) => [s.emis_number, s.nsc_pass_rate, s.nsc_year])).toEqual([
      ["100000001", 80, 2025],
      ["100000002", null, null],
    ]);
    const [withResults, without] = built.model.highSchools;
    expect(withResults?.nsc_results.map((r) => r.year)).toEqual([2025, 2024, 2023]);
    expect(without?.nsc_results).toEqual([]);
    const records = (await import("../../build/records.ts")).resourceRecords(built.model, new Map());
    const detail = records.find((r) => r.name === "high-schools")?.detail?.records.map((r) => api.HighSchool.parse(r.record));
    expect(detail?.[0]?.nsc_results).toEqual([
      { year: 2025, wrote: 90, passed: 72, pass_rate: 80, progressed: null },
      { year: 2024, wrote: 16, passed: 15, pass_rate: 93.8, progressed: 1 },
      { year: 2023, wrote: 80, passed: 41, pass_rate: 51.3, progressed: 0 },
    ]);
    expect(detail?.[1]?.nsc_results).toEqual([]);
    expect(built.warnings.map((w) => w.message).join("\n")).toMatch(
      /1 of 2 schools in nsc-results\.csv are not high schools in high-schools\.csv \(e\.g\. 999999999\)/,
    );
  });

  it("refuses results whose pass rate is not 100 × passed / wrote, or that passed more than wrote", async () => {
    const imported = await tempDir("imported-nsc-bad");
    cleanup.push(imported);
    await writeFile(path.join(imported, "high-schools.csv"), `${SCHOOLS.join("\n")}\n`);
    await writeFile(
      path.join(imported, "nsc-results.csv"),
      [NSC_HEADER, result("100000001", 2025, 100, 80, "85"), result("100000001", 2024, 10, 11, "100")].join("\n"),
    );
    const built = await runBuild(await curatedOptions({ importedDir: imported }));
    expect(built.ok).toBe(false);
    if (built.ok) return;
    expect(built.problems.map((p) => `${p.line}:${p.column}:${p.expected}`)).toEqual([
      "2:pass_rate:100 × passed / wrote, rounded half up to one decimal",
      "3:passed:at most the number who wrote",
    ]);
  });
});
