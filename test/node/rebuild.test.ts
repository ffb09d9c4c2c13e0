// The nightly rebuild end to end: real imports of the hand-written upstream fixtures, real builds of a
// copy of the committed sources, and downloads from a real HTTP server on 127.0.0.1 that misbehaves in
// each way the rebuild must survive.
import { createServer, type Server } from "node:http";
import { cp, readFile, readdir, rm, writeFile } from "node:fs/promises";
import { existsSync } from "node:fs";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runRebuild, type RebuildOptions, type RebuildResult } from "../../nightly/rebuild.ts";
import { downloadFile } from "../../nightly/download.ts";
import { loadUpstreamConfig } from "../../nightly/config.ts";
import { guardLosses } from "../../nightly/guard.ts";
import { formatReport } from "../../nightly/report.ts";
import { FIXTURE_UPSTREAM, ROOT, smallSources } from "../../support/test-dataset.ts";
import { copyFolder, fingerprint, removeAll, tempDir } from "../../lib/files.ts";
import { RELEASE_ID } from "../../schema/releases.ts";

const cleanup: string[] = [];
afterAll(() => removeAll(...cleanup));

async function newTemp(prefix: string) {
  const dir = await tempDir(prefix);
  cleanup.push(dir);
  return dir;
}

/** The fixture files, as the upstream config names them: a local upstream folder must hold every one. */
const fixtureFiles = (folder: string, names: string[]) => ({
  files: names.map((name) => ({ name, path: `test/fixtures/upstream/${folder}/${name}` })),
});
const FIXTURE_CONFIG = {
  schools: fixtureFiles("schools", ["national-2025.csv", "national-comma.csv"]),
  postal_codes: fixtureFiles("postal-codes", ["postalcodes.csv"]),
  nsc: fixtureFiles("nsc", ["school-performance-2025.json"]),
};

/** The committed config with the fixtures' file names and other guard settings (the fixtures are far below the
 * national floors). */
async function configWithGuard(guard: Record<string, unknown>, files: Record<string, unknown> = FIXTURE_CONFIG): Promise<string> {
  const config = JSON.parse(await readFile(path.join(ROOT, "nightly", "upstream.json"), "utf8"));
  const file = path.join(await newTemp("config"), "upstream.json");
  await writeFile(file, JSON.stringify({ ...config, ...files, guard }));
  return file;
}

type Workspace = Omit<RebuildOptions, "upstreamDir">;

/** A fresh place to publish: its own copy of sources/ (whose national tables a publication refreshes), dist/ and report
 * folder. The copy keeps one university's programmes (support/test-dataset.ts smallSources): what a rebuild does
 * (import, guard, diff, publish, deploy) does not depend on the catalogue's size, and each of the file's twenty
 * builds takes a fifth of the time. */
async function workspace(guard: Record<string, unknown> = { max_drop_share: 0.1, min_records: {} }): Promise<Workspace> {
  const sourcesDir = await smallSources({ national: true });
  cleanup.push(sourcesDir);
  const base = await newTemp("rebuild");
  return {
    root: ROOT,
    configFile: await configWithGuard(guard),
    sourcesDir,
    outDir: path.join(base, "dist"),
    reportDir: path.join(base, "report"),
    allowDrop: false,
    deploy: false,
  };
}

/** A workspace where something was published, and the rebuild that published it. */
type Published = { ws: Workspace; first: RebuildResult };

/**
 * The first publication most tests start from, made once and shared: each test that goes on from it works on a
 * clone (copying the workspace takes a fraction of a rebuild), and the test of that publication reads its result.
 */
function sharedPublication(publish: (ws: Workspace) => Promise<RebuildResult>): () => Promise<Published> {
  let made: Promise<Published> | undefined;
  return () => {
    made ??= (async () => {
      const ws = await workspace();
      return { ws, first: await publish(ws) };
    })();
    return made;
  };
}

/** A copy of a published workspace (sources/ and dist/ byte for byte) with a report folder of its own. */
async function cloneOf({ ws }: Published): Promise<Workspace> {
  const base = await newTemp("rebuild-clone");
  const [sourcesDir, outDir] = [path.join(base, "sources"), path.join(base, "dist")];
  copyFolder(ws.sourcesDir, sourcesDir);
  copyFolder(ws.outDir, outDir);
  return { ...ws, sourcesDir, outDir, reportDir: path.join(base, "report") };
}

/** The fixtures published from the local upstream folder, with the default guard. */
const fixturesPublished = sharedPublication((ws) => runRebuild({ ...ws, upstreamDir: FIXTURE_UPSTREAM }));

/** A copy of the fixture upstream folder (schools/, postal-codes/) to modify. */
async function upstreamCopy(): Promise<string> {
  const dir = await newTemp("upstream");
  await cp(FIXTURE_UPSTREAM, dir, { recursive: true, filter: (src) => !src.endsWith(".ts") });
  return dir;
}

const SCHOOL_HEADER = "NatEmis,Province,Official_Institution_Name,EIDistrict,Phase_PED,Sector,Quintile,GIS_Long,GIS_Lat,Learners2025";

describe("npm run rebuild from a local upstream folder", () => {
  it("publishes a full folder, then refuses one missing most schools, naming the resource and leaving dist/ and sources/ as they were", async () => {
    const publication = await fixturesPublished();
    const { first } = publication;
    const committedSchools = await readFile(path.join(ROOT, "sources", "high-schools.csv"), "utf8");
    expect(first.status, first.reasons.join("\n")).toBe("published");
    expect(first.diff?.oldVersion).toBeNull();
    expect(first.imported).toEqual({ schools: 5, postal_codes: 6, nsc_results: 14 });
    // the publication refreshed the committed tables in sources/ with what it built
    expect(first.tables_refreshed).toEqual(["high-schools.csv", "nsc-results.csv", "postal-codes.csv"]);
    const importedBefore = await readFile(path.join(publication.ws.sourcesDir, "high-schools.csv"), "utf8");
    expect(importedBefore).not.toBe(committedSchools);
    expect(importedBefore.trimEnd().split("\n")).toHaveLength(1 + 5);
    // ... and recorded the release it published (README "Releases and bulk files").
    expect(first.release).toMatch(RELEASE_ID);
    expect(existsSync(path.join(publication.ws.sourcesDir, "releases", `${first.release}.json`))).toBe(true);
    // What follows works on a copy of that workspace.
    const ws = await cloneOf(publication);
    const published = await fingerprint(ws.outDir);
    expect(published).toEqual(await fingerprint(publication.ws.outDir));
    const sourcesBefore = await fingerprint(ws.sourcesDir);
    const markdownFirst = await readFile(first.reportFiles.markdown, "utf8");
    expect(markdownFirst).toContain("- committed tables refreshed: sources/high-schools.csv, sources/nsc-results.csv, sources/postal-codes.csv");
    expect(markdownFirst).toMatch(/## Import reports[\s\S]*NSC School Performance Report[\s\S]*4\s+matched to a published high school/);

    const partial = await upstreamCopy();
    const national = path.join(partial, "schools", "national-2025.csv");
    await writeFile(national, `${(await readFile(national, "utf8")).split("\n")[0]}\n`);
    const second = await runRebuild({ ...ws, upstreamDir: partial });
    expect(second.status).toBe("refused");
    expect(second.release).toBeNull(); // and sources/releases/ is as it was (the fingerprint of sources/ below)
    expect(second.reasons[0]).toMatch(/^high-schools would lose 3 of its 5 published records \(60\.0%, more than the allowed 10%\)/);
    expect(await fingerprint(ws.outDir)).toEqual(published);
    expect(await fingerprint(ws.sourcesDir)).toEqual(sourcesBefore);
    expect((await readdir(path.dirname(ws.outDir))).filter((name) => name.includes("staging"))).toEqual([]);
    const markdown = await readFile(second.reportFiles.markdown, "utf8");
    expect(markdown).toContain("# Nightly rebuild: REFUSED");
    expect(markdown).toContain("| high-schools | 5 | 2 | 0 | 3 | 0 |");

    // A person who has checked the loss can publish it on purpose.
    const allowed = await runRebuild({ ...ws, upstreamDir: partial, allowDrop: true });
    expect(allowed.status).toBe("published");
    expect(allowed.release).toMatch(RELEASE_ID);
    expect(allowed.release).not.toBe(first.release);
    expect(allowed.notes.join("\n")).toMatch(/allowed by --allow-drop: high-schools would lose 3/);
    expect(await fingerprint(ws.outDir)).not.toEqual(published);
  });

  describe("guards the parts, not only the total (issue 30)", () => {
    /** A rebuild of `upstream` over a clone of the fixtures' publication: refused, dist/ and sources/ unchanged. */
    async function refused(upstream: string, options: Partial<RebuildOptions> = {}): Promise<string[]> {
      const ws = await cloneOf(await fixturesPublished());
      const [dist, sources] = [await fingerprint(ws.outDir), await fingerprint(ws.sourcesDir)];
      const result = await runRebuild({ ...ws, upstreamDir: upstream, ...options });
      expect(result.status, result.reasons.join("\n")).toBe("refused");
      expect(await fingerprint(ws.outDir)).toEqual(dist);
      expect(await fingerprint(ws.sourcesDir)).toEqual(sources);
      return result.reasons;
    }

    it("refuses an upstream folder without one of the configured workbooks, or with one empty", async () => {
      const gone = await upstreamCopy();
      await rm(path.join(gone, "schools", "national-comma.csv"));
      expect((await refused(gone))[0]).toMatch(/does not hold every file the upstream config names: schools\/national-comma\.csv is missing$/);
      const empty = await upstreamCopy();
      await writeFile(path.join(empty, "schools", "national-comma.csv"), "");
      expect((await refused(empty))[0]).toMatch(/schools\/national-comma\.csv is empty$/);
    });

    it("refuses any configured file cut to its header, whose schools may span every province", async () => {
      const cut = await upstreamCopy();
      await writeFile(path.join(cut, "schools", "national-comma.csv"), `${SCHOOL_HEADER}\n`);
      expect(await refused(cut, { maxDropShare: 0.5 })).toContainEqual(
        expect.stringMatching(/^national-comma\.csv: the .+ file holds no rows \(cut to its header\?\)$/),
      );
    });

    it("refuses a province that lost its schools, though the total would allow it", async () => {
      const cut = await upstreamCopy();
      const comma = path.join(cut, "schools", "national-comma.csv");
      // The workbook keeps one school, of another province: not hollow, but the Western Cape's two are gone.
      await writeFile(comma, `${SCHOOL_HEADER}\n100000499,EC,FIXTURE RIVER SECONDARY,BUFFALO CITY,SECONDARY SCHOOL,PUBLIC,Q3,27.9000,-33.0000,600\n`);
      // 2 of 5 schools is 40%: under a total's share of 50%, but all of the Western Cape's.
      expect(await refused(cut, { maxDropShare: 0.5 })).toEqual([
        "the high schools of western-cape would fall from 2 to 0 (100.0%, more than the 5% one part may lose: guard.max_group_drop_share)",
        expect.stringMatching(/--allow-drop/),
      ]);
    });

    it("refuses when the special-needs workbook the config names is gone", async () => {
      const ws = await cloneOf(await fixturesPublished());
      const withSpecial = {
        ...FIXTURE_CONFIG,
        schools: { files: [...FIXTURE_CONFIG.schools.files, { name: "Special-Needs-Education-Centres.xlsx", path: "x.xlsx" }] },
      };
      const configFile = await configWithGuard({ max_drop_share: 0.1, min_records: {} }, withSpecial);
      const [dist, sources] = [await fingerprint(ws.outDir), await fingerprint(ws.sourcesDir)];
      const result = await runRebuild({ ...ws, configFile, upstreamDir: await upstreamCopy() });
      expect(result.status).toBe("refused");
      expect(result.reasons[0]).toMatch(/schools\/Special-Needs-Education-Centres\.xlsx is missing$/);
      expect(await fingerprint(ws.outDir)).toEqual(dist);
      expect(await fingerprint(ws.sourcesDir)).toEqual(sources);
    });

    it("refuses a postal code file that lost one row in six, under a total's share that would allow it", async () => {
      const cut = await upstreamCopy();
      const postal = path.join(cut, "postal-codes", "postalcodes.csv");
      const lines = (await readFile(postal, "utf8")).split("\n");
      await writeFile(postal, lines.filter((line) => !line.startsWith("11;")).join("\n"));
      expect(await refused(cut, { maxDropShare: 0.5 })).toEqual([
        "the rows of postal-codes.csv would fall from 6 to 5 (16.7%, more than the 5% one part may lose: guard.max_group_drop_share)",
        expect.stringMatching(/--allow-drop/),
      ]);
    });
  });

  it("publishes no change when the upstream is the same on a later day (verified_on alone does not rewrite every record)", async () => {
    const publication = await fixturesPublished();
    expect(publication.first.status).toBe("published");
    const ws = await cloneOf(publication);
    const sourcesBefore = await fingerprint(ws.sourcesDir);
    const later = await runRebuild({ ...ws, upstreamDir: FIXTURE_UPSTREAM, today: "2099-01-01" });
    expect(later.status, later.reasons.join("\n")).toBe("published");
    expect(later.diff?.newVersion).toBe(later.diff?.oldVersion);
    expect(later.tables_refreshed).toEqual([]);
    expect(later.notes.join("\n")).toMatch(/high-schools\.csv: the upstream states what the committed table does/);
    expect(await fingerprint(ws.sourcesDir)).toEqual(sourcesBefore);
  });

  it("lists the real changes: records added, removed and changed per resource, with old and new data versions", async () => {
    const publication = await fixturesPublished();
    const { first } = publication;
    expect(first.status).toBe("published");
    const ws = await cloneOf(publication);

    const changed = await upstreamCopy();
    const comma = path.join(changed, "schools", "national-comma.csv");
    const original = await readFile(comma, "utf8");
    expect(original.startsWith(SCHOOL_HEADER)).toBe(true);
    await writeFile(
      comma,
      original.replace("FIXTURE HARBOUR SECONDARY", "FIXTURE HARBOUR HIGH SCHOOL") +
        "100000499,WC,FIXTURE NEW SECONDARY,METRO EAST,SECONDARY SCHOOL,PUBLIC,Q2,18.7000,-34.0000,600\n",
    );
    // The last bursary is withdrawn, with its cycles.
    const bursaries = path.join(ws.sourcesDir, "bursaries.csv");
    const lines = (await readFile(bursaries, "utf8")).trimEnd().split("\n");
    const withdrawn = (lines.at(-1) ?? "").split(",")[0] ?? "";
    await writeFile(bursaries, `${lines.slice(0, -1).join("\n")}\n`);
    const cycles = path.join(ws.sourcesDir, "bursary-cycles.csv");
    const cycleLines = (await readFile(cycles, "utf8")).trimEnd().split("\n");
    await writeFile(cycles, `${cycleLines.filter((line) => !line.startsWith(`${withdrawn},`)).join("\n")}\n`);

    const second = await runRebuild({ ...ws, upstreamDir: changed, maxDropShare: 0.5 });
    expect(second.status, second.reasons.join("\n")).toBe("published");
    expect(second.diff?.oldVersion).toBe(first.diff?.newVersion);
    expect(second.diff?.newVersion).not.toBe(first.diff?.newVersion);
    const byName = Object.fromEntries((second.diff?.resources ?? []).map((r) => [r.resource, r]));
    expect(byName["high-schools"]).toMatchObject({ oldTotal: 5, newTotal: 6, added: 1, removed: 0, changed: 1, detailed: true });
    expect(byName.bursaries).toMatchObject({ added: 0, removed: 1, changed: 0 });
    expect(byName.bursaries?.newTotal).toBe((byName.bursaries?.oldTotal ?? 0) - 1);
    expect(byName["postal-codes"]).toMatchObject({ added: 0, removed: 0, changed: 0 });
    expect(byName.universities).toMatchObject({ added: 0, removed: 0, changed: 0 });

    const markdown = await readFile(second.reportFiles.markdown, "utf8");
    expect(markdown).toContain(`- data version: ${first.diff?.newVersion} -> ${second.diff?.newVersion}`);
    expect(markdown).toMatch(/- high-schools added: hs_[0-9a-f]{16}\n- high-schools changed: hs_[0-9a-f]{16}/);
    expect(markdown).toContain("within the allowed 50%");
    const json = JSON.parse(await readFile(second.reportFiles.json, "utf8"));
    expect(json.status).toBe("published");
    expect(json.diff.resources).toHaveLength(9); // the eight lists of SPEC.md and the fields of study
  });

  it("refuses an upstream file whose columns were renamed, naming the file and the columns", async () => {
    const ws = await cloneOf(await fixturesPublished());
    const published = await fingerprint(ws.outDir);
    const renamed = await upstreamCopy();
    const file = path.join(renamed, "postal-codes", "postalcodes.csv");
    await writeFile(file, (await readFile(file, "utf8")).replace("id;Suburb;BoxCode;StreetCode;Area", "id;Name;Code1;Code2;Region"));
    const result = await runRebuild({ ...ws, upstreamDir: renamed });
    expect(result.status).toBe("refused");
    expect(result.reasons).toContain("unusable upstream file: postalcodes.csv has no column for suburb, area, box, street");
    expect(await fingerprint(ws.outDir)).toEqual(published);
  });

  it("refuses an NSC report that lost most of its results (the results are no resource of their own), naming the table", async () => {
    const publication = await fixturesPublished();
    expect(publication.first.status).toBe("published");
    const ws = await cloneOf(publication);
    const published = await fingerprint(ws.outDir);
    const shrunk = await upstreamCopy();
    await rm(path.join(shrunk, "nsc", "school-performance-2024.csv"));
    const json = path.join(shrunk, "nsc", "school-performance-2025.json");
    await writeFile(json, JSON.stringify((JSON.parse(await readFile(json, "utf8")) as unknown[]).slice(0, 1)));
    const result = await runRebuild({ ...ws, upstreamDir: shrunk });
    expect(result.status).toBe("refused");
    expect(result.reasons[0]).toBe("nsc-results.csv would lose 11 of its 14 committed rows (78.6%, more than the allowed 10%): 14 -> 3");
    expect(await fingerprint(ws.outDir)).toEqual(published);
  });

  it("refuses a resource below its configured floor even when nothing was published before", async () => {
    const ws = await workspace({ min_records: { "high-schools": 6, "postal-codes": 6 } });
    const result = await runRebuild({ ...ws, upstreamDir: FIXTURE_UPSTREAM });
    expect(result.status).toBe("refused");
    expect(result.reasons).toEqual([
      "high-schools would have 5 records, fewer than its floor of 6 (guard.min_records in the upstream config)",
      expect.stringMatching(/--allow-drop/),
    ]);
    expect(existsSync(ws.outDir)).toBe(false);
  });

  it("refuses a build whose sources fail validation, with file and line, and publishes nothing", async () => {
    const ws = await cloneOf(await fixturesPublished());
    const published = await fingerprint(ws.outDir);
    const provinces = path.join(ws.sourcesDir, "provinces.csv");
    await writeFile(provinces, (await readFile(provinces, "utf8")).replace(",2026-", ",2036-"));
    const result = await runRebuild({ ...ws, upstreamDir: FIXTURE_UPSTREAM });
    expect(result.status).toBe("refused");
    expect(result.reasons.join("\n")).toMatch(/provinces\.csv:2 column "verified_on"/);
    expect(await fingerprint(ws.outDir)).toEqual(published);
  });

  it("reports a failed deploy, and deploys with the deploy command after publishing", async () => {
    const ws = await workspace();
    const failing = await runRebuild({
      ...ws,
      upstreamDir: FIXTURE_UPSTREAM,
      deploy: true,
      deployCommand: [process.execPath, "-e", "process.exit(3)"],
    });
    expect(failing.status).toBe("failed");
    expect(failing.reasons[0]).toMatch(/deploy command exited with 3/);
    const marker = path.join(path.dirname(ws.outDir), "deployed");
    const ok = await runRebuild({
      ...ws,
      upstreamDir: FIXTURE_UPSTREAM,
      deploy: true,
      deployCommand: [
        process.execPath,
        "-e",
        `require("fs").writeFileSync(${JSON.stringify(marker)}, require("fs").readFileSync("${ws.outDir}/manifest.json"))`,
      ],
    });
    expect(ok.status).toBe("published");
    expect(ok.deployed).toBe(true);
    expect(JSON.parse(await readFile(marker, "utf8")).data_version).toBe(ok.diff?.newVersion);
  });
});

describe("npm run rebuild from downloads (a real HTTP server on 127.0.0.1)", () => {
  let server: Server;
  let base: string;
  const hits = new Map<string, number>();

  beforeAll(async () => {
    server = createServer(async (request, response) => {
      const url = request.url ?? "/";
      hits.set(url, (hits.get(url) ?? 0) + 1);
      if (url.startsWith("/files/")) {
        const file = path.join(FIXTURE_UPSTREAM, url.slice("/files/".length));
        response.writeHead(200, { "content-type": "application/octet-stream" }).end(await readFile(file));
      } else if (url === "/broken.xlsx") {
        response.writeHead(503).end("maintenance");
      } else if (url === "/gone.xlsx") {
        response.writeHead(404).end("not here");
      } else if (url === "/garbage.xlsx") {
        response.writeHead(200).end(Buffer.from(Array.from({ length: 4096 }, (_, i) => (i * 131 + 17) % 256)));
      } else if (url === "/html.xlsx") {
        response.writeHead(200, { "content-type": "text/html" }).end("<html><body><h1>Please log in</h1></body></html>");
      } else if (url === "/huge.xlsx") {
        response.writeHead(200);
        for (let i = 0; i < 64; i++) response.write(Buffer.alloc(16 * 1024, 65));
        response.end();
      } else if (url === "/flaky.csv") {
        if ((hits.get(url) ?? 0) < 3) response.writeHead(500).end();
        else response.writeHead(200).end(await readFile(path.join(FIXTURE_UPSTREAM, "postal-codes", "postalcodes.csv")));
      } else if (url === "/silent.xlsx") {
        // never answers; the client's timeout must fire
      } else {
        response.writeHead(404).end();
      }
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => {
    server.closeAllConnections();
    return new Promise<void>((resolve) => server.close(() => resolve()));
  });

  async function configWith(
    schools: { name: string; url: string }[],
    postal = { name: "postalcodes.csv", url: `${base}/files/postal-codes/postalcodes.csv` },
  ) {
    const dir = await newTemp("config");
    const file = path.join(dir, "upstream.json");
    await writeFile(
      file,
      JSON.stringify({
        schools: { files: schools },
        postal_codes: { files: [postal] },
        download: { timeout_seconds: 1, attempts: 2, max_megabytes: 0.5 },
      }),
    );
    return file;
  }
  const goodSchools = () => [
    { name: "national-2025.csv", url: `${base}/files/schools/national-2025.csv` },
    { name: "national-comma.csv", url: `${base}/files/schools/national-comma.csv` },
  ];
  const fast = { retryDelayMs: 10 };
  /** The good files downloaded and published, once; the tests of bad downloads start from clones of it. */
  const downloadsPublished = sharedPublication(async (ws) => runRebuild({ ...ws, configFile: await configWith(goodSchools()), download: fast }));

  it("downloads, imports, builds and publishes", async () => {
    const { first: result } = await downloadsPublished();
    expect(result.status, result.reasons.join("\n")).toBe("published");
    // the config names no NSC report: the committed results are kept (and built)
    expect(result.imported).toEqual({ schools: 5, postal_codes: 6, nsc_results: null });
    expect(result.tables_refreshed).toEqual(["high-schools.csv", "postal-codes.csv"]);
    expect(result.upstream).toBe("nightly/upstream.json");
  });

  for (const [title, bad, expected] of [
    [
      "a server error on every attempt",
      "/broken.xlsx",
      /download failed: http:\/\/127\.0\.0\.1:\d+\/broken\.xlsx: HTTP 503 Service Unavailable \(after 2 attempts\)/,
    ],
    ["a missing file (not retried)", "/gone.xlsx", /download failed: http:\/\/127\.0\.0\.1:\d+\/gone\.xlsx: HTTP 404 Not Found$/],
    ["a body over the size limit", "/huge.xlsx", /download failed: http:\/\/127\.0\.0\.1:\d+\/huge\.xlsx: the body passed the limit of 524288 bytes/],
    [
      "a server that never answers",
      "/silent.xlsx",
      /download failed: http:\/\/127\.0\.0\.1:\d+\/silent\.xlsx: no answer within 1 s \(after 2 attempts\)/,
    ],
    ["garbage instead of a workbook", "/garbage.xlsx", /unusable upstream file: garbage\.xlsx cannot be read as a \.xlsx file/],
    ["an HTML page instead of a workbook", "/html.xlsx", /unusable upstream file: html\.xlsx cannot be read as a \.xlsx file/],
  ] as const) {
    it(`refuses ${title}, naming the cause, and leaves dist/ as it was`, async () => {
      const publication = await downloadsPublished();
      expect(publication.first.status).toBe("published");
      const ws = await cloneOf(publication);
      const published = await fingerprint(ws.outDir);
      const schools = [...goodSchools(), { name: path.basename(bad), url: `${base}${bad}` }];
      const result = await runRebuild({ ...ws, configFile: await configWith(schools), download: fast });
      expect(result.status === "failed" || result.status === "refused").toBe(true);
      expect(result.reasons.join("\n")).toMatch(expected);
      expect(await fingerprint(ws.outDir)).toEqual(published);
    });
  }

  it("retries a passing failure and then succeeds", async () => {
    const dir = await newTemp("download");
    const bytes = await downloadFile(`${base}/flaky.csv`, path.join(dir, "postalcodes.csv"), {
      timeoutMs: 2000,
      attempts: 3,
      maxBytes: 1 << 20,
      retryDelayMs: 10,
    });
    expect(bytes).toBeGreaterThan(100);
    expect(hits.get("/flaky.csv")).toBe(3);
    expect(await readdir(dir)).toEqual(["postalcodes.csv"]);
  });
});

describe("the upstream config and the guard", () => {
  it("the committed config is valid and names https URLs of the DBE and SAPO", async () => {
    const config = await loadUpstreamConfig(path.join(ROOT, "nightly", "upstream.json"));
    expect(config.schools.files.length).toBeGreaterThanOrEqual(9);
    for (const file of config.schools.files) expect(file.url).toMatch(/^https:\/\/www\.education\.gov\.za\//);
    // SAPO's own list is a legacy .xls, which the importers refuse: the job reads the CSV republication the
    // committed table comes from, pinned to a commit so it cannot change under the job.
    for (const file of config.postal_codes.files) {
      expect(file.name).toMatch(/\.csv$/);
      expect(file.url).toMatch(/^https:\/\/raw\.githubusercontent\.com\/datawookie\/saffer\/[0-9a-f]{40}\//);
    }
    for (const file of config.nsc?.files ?? [])
      expect(file.url).toMatch(/^https:\/\/raw\.githubusercontent\.com\/itumeleng-itu\/courseFinder\/[0-9a-f]{40}\//);
    expect(config.nsc?.files).toHaveLength(1);
    expect(config.guard.max_drop_share).toBe(0.1);
    // The floors sit below the real national counts (about 8,900 NSC schools, 21,000 postal codes).
    expect(config.guard.min_records["high-schools"]).toBeLessThan(8_900);
    expect(config.guard.min_records["postal-codes"]).toBeLessThan(21_000);
  });

  it("rejects a config with each problem named by its path", async () => {
    const dir = await newTemp("config");
    const file = path.join(dir, "bad.json");
    await writeFile(file, JSON.stringify({ schools: { files: [{ name: "../evil.xlsx", url: "ftp://x" }] }, postal_codes: { files: [] } }));
    await expect(loadUpstreamConfig(file)).rejects.toThrow(
      /schools\.files\.0\.name: a plain file name[\s\S]*schools\.files\.0\.url: an absolute http\(s\) URL[\s\S]*postal_codes\.files: at least one file/,
    );
  });

  it("refuses only losses over the share, and counts removed records even when the total holds", () => {
    const diff = {
      oldVersion: "a",
      newVersion: "b",
      resources: [
        {
          resource: "postal-codes",
          oldTotal: 100,
          newTotal: 100,
          added: 20,
          removed: 20,
          changed: 0,
          detailed: true,
          examples: { added: [], removed: [], changed: [] },
        },
        {
          resource: "high-schools",
          oldTotal: 100,
          newTotal: 90,
          added: 0,
          removed: 10,
          changed: 0,
          detailed: true,
          examples: { added: [], removed: [], changed: [] },
        },
        {
          resource: "bursaries",
          oldTotal: null,
          newTotal: 3,
          added: 3,
          removed: 0,
          changed: 0,
          detailed: true,
          examples: { added: [], removed: [], changed: [] },
        },
      ],
    };
    expect(guardLosses(diff, 0.1)).toEqual([expect.stringMatching(/^postal-codes would lose 20 of its 100 published records \(20\.0%/)]);
    expect(guardLosses(diff, 0.05)).toHaveLength(2);
    expect(
      formatReport({
        status: "refused",
        started_at: "t",
        upstream: null,
        imported: null,
        import_reports: [],
        tables_refreshed: [],
        release: null,
        reasons: guardLosses(diff, 0.1),
        notes: [],
        diff,
        deployed: false,
      }),
    ).toContain("| bursaries | - | 3 | 3 | 0 | 0 |");
  });
});
