// The typed client against the real local server (wrangler, workerd, the test data set): a function per
// operation, the token and base URL as options, answers typed by the OpenAPI document, errors thrown as
// ApiError with the API's error body. Run by the API's `npm test` (vitest.node.config.ts).
import { readFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, expectTypeOf, it } from "vitest";
import { OPERATIONS as TABLE } from "../../schema/operations.ts";
import { generatedClientFiles, GENERATED_DIR } from "../../support/client-generator.ts";
import { startLocalServer, type LocalServer } from "../../support/local-server.ts";
import { ApiError, createClient, OPERATIONS, UnexpectedResponseError, type Client, type Schemas } from "../src/index.ts";

let server: LocalServer;
let api: Client;

beforeAll(async () => {
  server = await startLocalServer("client-test");
  const token = await server.token([
    "universities:read",
    "qualifications:read",
    "qualifications:requirements",
    "aps_calculator:use",
    "id_parser:use",
    "provinces:read",
  ]);
  api = createClient({ baseUrl: server.base, token });
});

afterAll(async () => {
  await server?.stop();
});

describe("the generated files", () => {
  it("are what the current OpenAPI document generates (npm run client:generate)", async () => {
    for (const [name, content] of Object.entries(await generatedClientFiles())) {
      expect(await readFile(path.join(GENERATED_DIR, name), "utf8"), `client/src/generated/${name} is out of date: run npm run client:generate`).toBe(
        content,
      );
    }
  });

  it("give the client a function for every operation of the table", () => {
    expect(Object.keys(OPERATIONS).sort()).toEqual(TABLE.map((o) => o.operationId).sort());
    expect(Object.keys(createClient({ baseUrl: "http://127.0.0.1:1", token: "t" })).sort()).toEqual(Object.keys(OPERATIONS).sort());
  });
});

describe("the client against the local server", () => {
  it("lists and reads records, with the query and path parameters it is given", async () => {
    const page = await api.listUniversities({ query: { per_page: 5, page: 2 } });
    expect(page.meta).toEqual({ total: 26, page: 2, per_page: 5 });
    expect(page.data).toHaveLength(5);
    const first = page.data[0];
    if (!first) throw new Error("no university");
    const university = await api.getUniversity({ path: { slug: first.slug } });
    expect(university.data.slug).toBe(first.slug);
    expectTypeOf(university.data).toEqualTypeOf<Schemas["University"]>();
    expectTypeOf(university.data.application_cycles[0]?.close_date).toEqualTypeOf<string | undefined>();
    const provinces = await api.listProvinces();
    expect(provinces.meta.total).toBe(9);
  });

  it("finds bursaries by field of study, with the vocabulary's slugs typed", async () => {
    const bursaries = createClient({ baseUrl: server.base, token: await server.token(["bursaries:read"]) });
    const fields = await bursaries.listFieldsOfStudy();
    const engineering = fields.data.find((f) => f.slug === "engineering");
    expect(engineering?.bursary_count).toBeGreaterThan(0);
    const page = await bursaries.listBursaries({ query: { field: "engineering", study_level: "undergraduate", per_page: 100 } });
    expect(page.data.length).toBeGreaterThan(0);
    for (const b of page.data) expect(b.fields.includes("engineering") || b.fields.includes("all-fields")).toBe(true);
    expectTypeOf(page.data[0]?.fields).toEqualTypeOf<Schemas["BursaryListItem"]["fields"] | undefined>();
    const first = page.data[0];
    if (!first) throw new Error("no engineering bursary");
    const detail = await bursaries.getBursary({ path: { slug: first.slug } });
    expect(detail.data.closing_date).toBe(detail.data.cycles[0]?.close_date);
  });

  it("reads a qualification's requirements", async () => {
    const { data } = await api.listQualifications({ query: { per_page: 50 } });
    for (const qualification of data) {
      const requirements = await api.listQualificationRequirements({ path: { id: qualification.id } });
      if (requirements.data.length === 0) continue;
      expect(requirements.data[0]?.subject.slug).toMatch(/^[a-z0-9-]+$/);
      return;
    }
    throw new Error("no qualification with requirements on the first page");
  });

  it("posts the two computations", async () => {
    const aps = await api.calculateAps({
      body: {
        university_slug: "university-of-johannesburg",
        marks: [
          { subject_slug: "english-home-language", percentage: 75 },
          { subject_slug: "mathematics", percentage: 68 },
          { subject_slug: "physical-sciences", percentage: 62 },
          { subject_slug: "life-sciences", percentage: 55 },
          { subject_slug: "geography", percentage: 81 },
          { subject_slug: "isizulu-first-additional-language", percentage: 70 },
          { subject_slug: "life-orientation", percentage: 90 },
        ],
      },
    });
    expect(aps.data).toMatchObject({ aps_score: 33, university_slug: "university-of-johannesburg" });
    const parsed = await api.parseIdNumber({ body: { id_number: "8001015009087" } });
    expect(parsed.data).toMatchObject({ valid: true, date_of_birth: "1980-01-01", gender: "male", citizenship: "citizen" });
    expectTypeOf(parsed.data.gender).toEqualTypeOf<"female" | "male" | null>();
  });

  it("throws an ApiError with the API's error body: unknown record, bad request body, missing scope, no token", async () => {
    const notFound = await api.getUniversity({ path: { slug: "university-of-atlantis" } }).catch((e: unknown) => e);
    expect(notFound).toBeInstanceOf(ApiError);
    expect(notFound).toMatchObject({ status: 404, code: "not_found", operationId: "getUniversity" });

    const invalid = await api
      .calculateAps({ body: { university_slug: "university-of-pretoria", marks: [{ subject_slug: "mathematics", percentage: 101 }] } })
      .catch((e: unknown) => e);
    expect(invalid).toBeInstanceOf(ApiError);
    expect((invalid as ApiError).code).toBe("invalid_aps_request");
    expect((invalid as ApiError).details.map((d) => d.path)).toContain("marks[0].percentage");
    expect((invalid as ApiError).body.error.status).toBe(422);

    const forbidden = await api.listBursaries().catch((e: unknown) => e);
    expect(forbidden).toMatchObject({ status: 403, code: "insufficient_scope" });

    const stranger = createClient({ baseUrl: `${server.base}/`, token: "not-a-token" });
    const unauthorised = await stranger.listProvinces().catch((e: unknown) => e);
    expect(unauthorised).toMatchObject({ status: 401, code: "invalid_token" });
  });

  it("keeps a copy in sync: the live release, the changes since it, a bulk file as text", async () => {
    const { data: meta } = await api.getMeta();
    expectTypeOf(meta.data_version).toEqualTypeOf<string>();
    const release = meta.release?.id ?? "";
    const changes = await api.listChanges({ query: { since: release } });
    expect(changes.meta).toMatchObject({ total: 0, since: release });
    const csv = await api.getBulkFile({ path: { file: "provinces.csv" } });
    expectTypeOf(csv).toEqualTypeOf<string>();
    expect(csv.split("\r\n")[0]).toBe("id,name,code");
    expect(csv.trimEnd().split("\r\n")).toHaveLength(1 + 9);
    const refused = await api.getBulkFile({ path: { file: "high-schools.csv" } }).catch((e: unknown) => e);
    expect(refused).toMatchObject({ status: 403, code: "insufficient_scope" });
  });

  it("encodes path parameters, so a value cannot name another path", async () => {
    const error = await api.getUniversity({ path: { slug: "../../manifest.json" } }).catch((e: unknown) => e);
    expect(error).toMatchObject({ status: 404, code: "not_found" });
  });

  it("throws UnexpectedResponseError for an answer that is not the API's", async () => {
    const html = createClient({ baseUrl: server.base, token: "t", fetch: async () => new Response("<h1>Bad gateway</h1>", { status: 502 }) });
    await expect(html.listProvinces()).rejects.toBeInstanceOf(UnexpectedResponseError);
  });
});
