// Every GET endpoint of SPEC.md: no token 401, wrong scope 403, right scope 200 with the envelope and
// the spec's fields (checked against the response schemas in schema/api.ts).
import { describe, expect, it } from "vitest";
import type { z } from "zod";
import * as api from "../../schema/api.ts";
import { ALL_SCOPES, call, json, token } from "./support.ts";
import type { Json } from "../support/contract.ts";

type Endpoint = {
  path: string;
  scope: string | null;
  paginated: boolean;
  item: z.ZodType;
  specFields: string[];
  detail?: { path: (record: Json) => string; schema: z.ZodType; specFields: string[] };
};

const ENDPOINTS: Endpoint[] = [
  {
    path: "/v1/data/universities",
    scope: "universities:read",
    paginated: true,
    item: api.UniversityListItem,
    specFields: ["id", "name", "short_name", "slug", "province_name"],
    detail: {
      path: (r) => `/v1/data/universities/${r.slug}`,
      schema: api.University,
      specFields: ["id", "name", "short_name", "slug", "province_name", "application_cycles"],
    },
  },
  {
    path: "/v1/data/qualifications",
    scope: "qualifications:read",
    paginated: true,
    item: api.QualificationListItem,
    specFields: ["id", "name", "nqf_level", "min_aps"],
    detail: { path: (r) => `/v1/data/qualifications/${r.id}`, schema: api.Qualification, specFields: ["id", "name", "nqf_level", "min_aps"] },
  },
  {
    path: "/v1/data/high-schools",
    scope: "high_schools:read",
    paginated: true,
    item: api.HighSchoolListItem,
    specFields: ["id", "emis_number", "name", "province", "quintile"],
    detail: {
      path: (r) => `/v1/data/high-schools/${r.id}`,
      schema: api.HighSchool,
      specFields: ["id", "emis_number", "name", "province", "quintile", "district", "latitude", "longitude"],
    },
  },
  {
    path: "/v1/data/bursaries",
    scope: "bursaries:read",
    paginated: true,
    item: api.BursaryListItem,
    specFields: ["id", "slug", "name", "closing_date"],
    detail: {
      path: (r) => `/v1/data/bursaries/${r.slug}`,
      schema: api.Bursary,
      specFields: ["id", "slug", "name", "closing_date", "provider", "fields", "eligibility"],
    },
  },
  {
    path: "/v1/data/postal-codes",
    scope: "postal_codes:read",
    paginated: true,
    item: api.PostalCodeListItem,
    specFields: ["id", "suburb", "area", "street_code", "box_code"],
    detail: {
      path: (r) => `/v1/data/postal-codes/${r.id}`,
      schema: api.PostalCode,
      specFields: ["id", "suburb", "area", "street_code", "box_code", "province"],
    },
  },
  {
    path: "/v1/data/prospectuses",
    scope: "prospectuses:read",
    paginated: true,
    item: api.Prospectus,
    specFields: ["id", "university_slug", "year", "url"],
  },
  { path: "/v1/data/subjects", scope: null, paginated: false, item: api.Subject, specFields: ["slug", "name"] },
  { path: "/v1/data/provinces", scope: "provinces:read", paginated: false, item: api.Province, specFields: ["id", "name", "code"] },
  // Not in SPEC.md: the bursaries' vocabulary of fields of study, with the bursaries' scope.
  { path: "/v1/data/fields-of-study", scope: "bursaries:read", paginated: false, item: api.FieldOfStudy, specFields: ["slug", "name"] },
];

function expectFields(record: Record<string, unknown>, fields: string[]) {
  for (const field of fields) expect(record, `field ${field}`).toHaveProperty(field);
}

async function firstRecord(endpoint: Endpoint) {
  const body = await json(await call(endpoint.path));
  expect(body.data.length, `${endpoint.path} has records to test with`).toBeGreaterThan(0);
  return body.data[0];
}

describe.each(ENDPOINTS)("$path", (endpoint) => {
  const wrongScopes = ALL_SCOPES.filter((s) => s !== endpoint.scope);

  it("answers 401 without a token", async () => {
    expect((await call(endpoint.path, { token: null })).status).toBe(401);
  });

  it(endpoint.scope === null ? "accepts a token with any scope" : "answers 403 with every other scope", async () => {
    const response = await call(endpoint.path, { token: await token({ scopes: wrongScopes.slice(0, 1) }) });
    expect(response.status).toBe(endpoint.scope === null ? 200 : 403);
    if (endpoint.scope !== null) {
      expect((await call(endpoint.path, { token: await token({ scopes: wrongScopes }) })).status).toBe(403);
    }
  });

  it("answers 200 with the envelope and the spec's fields", async () => {
    const response = await call(endpoint.path, { token: await token({ scopes: endpoint.scope ? [endpoint.scope] : ["provinces:read"] }) });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("application/json; charset=utf-8");
    const body = await json(response);
    expect(Object.keys(body).sort()).toEqual(["data", "meta"]);
    expect(Array.isArray(body.data)).toBe(true);
    if (endpoint.paginated) {
      api.PageMeta.parse(body.meta);
      expect(body.meta).toMatchObject({ page: 1, per_page: 20 });
    } else {
      expect(api.TotalMeta.strict().parse(body.meta).total).toBe(body.data.length);
    }
    for (const record of body.data) {
      endpoint.item.parse(record);
      expectFields(record, endpoint.specFields);
    }
  });

  if (endpoint.detail) {
    const detail = endpoint.detail;
    it("serves each record's detail with the spec's fields, behind the same scope", async () => {
      const record = await firstRecord(endpoint);
      const path = detail.path(record);
      expect((await call(path, { token: null })).status).toBe(401);
      expect((await call(path, { token: await token({ scopes: wrongScopes }) })).status).toBe(403);
      const response = await call(path, { token: await token({ scopes: [endpoint.scope ?? ""] }) });
      expect(response.status).toBe(200);
      const body = await json(response);
      expect(Object.keys(body)).toEqual(["data"]);
      detail.schema.parse(body.data);
      expectFields(body.data, detail.specFields);
      expect(body.data.id).toBe(record.id);
    });

    it("answers 404 with the JSON error body for an unknown key", async () => {
      const record = await firstRecord(endpoint);
      const known = detail.path(record);
      const unknown = known.replace(/[0-9a-f]$/, (c) => (c === "0" ? "1" : "0")).replace(/[a-z]$/, (c) => (c === "z" ? "y" : "z"));
      const response = await call(unknown);
      expect(response.status).toBe(404);
      expect(api.ErrorBody.parse(await json(response)).error).toMatchObject({ status: 404, code: "not_found" });
    });
  }
});

describe("/v1/data/qualifications/{id}/requirements", () => {
  it("needs qualifications:requirements and lists the requirements with the spec's fields", async () => {
    const list = await json(await call("/v1/data/qualifications?per_page=100"));
    let withRequirements: Json[] = [];
    let id = "";
    for (const q of list.data) {
      const body = await json(await call(`/v1/data/qualifications/${q.id}/requirements`));
      if (body.data.length > 0) {
        withRequirements = body.data;
        id = q.id;
        break;
      }
    }
    expect(withRequirements.length).toBeGreaterThan(0);
    const path = `/v1/data/qualifications/${id}/requirements`;
    expect((await call(path, { token: null })).status).toBe(401);
    expect((await call(path, { token: await token({ scopes: ["qualifications:read"] }) })).status).toBe(403);
    const response = await call(path, { token: await token({ scopes: ["qualifications:requirements"] }) });
    expect(response.status).toBe(200);
    for (const requirement of (await json(response)).data) {
      api.QualificationRequirement.parse(requirement);
      expectFields(requirement, ["subject", "min_level", "min_percentage", "is_compulsory"]);
      expect(Object.keys(requirement.subject).sort()).toEqual(["name", "slug"]);
    }
  });

  it("answers 404 for an unknown qualification", async () => {
    const response = await call("/v1/data/qualifications/00000000-0000-4000-8000-000000000000/requirements");
    expect(response.status).toBe(404);
  });
});

describe("/v1/data/high-schools with the committed national data", () => {
  it("serves NSC results on details, newest first, and the latest pass rate and year on list items", async () => {
    const scoped = await token({ scopes: ["high_schools:read"] });
    const body = await json(await call("/v1/data/high-schools?per_page=100&page=80", { token: scoped }));
    expect(body.meta.total).toBeGreaterThanOrEqual(8_700);
    const withResults = body.data.find((s: Json) => s.nsc_year !== null);
    const withoutResults = body.data.find((s: Json) => s.nsc_year === null);
    expect(withResults).toBeDefined();
    const detail = (await json(await call(`/v1/data/high-schools/${withResults.id}`, { token: scoped }))).data;
    api.HighSchool.parse(detail);
    expect(detail.nsc_results.length).toBeGreaterThan(0);
    expect(detail.nsc_results[0]).toMatchObject({ year: withResults.nsc_year, pass_rate: withResults.nsc_pass_rate });
    const years = detail.nsc_results.map((r: Json) => r.year);
    expect(years).toEqual([...years].sort((a: number, b: number) => b - a));
    if (withoutResults) {
      expect(withoutResults.nsc_pass_rate).toBeNull();
      expect((await json(await call(`/v1/data/high-schools/${withoutResults.id}`, { token: scoped }))).data.nsc_results).toEqual([]);
    }
  });
});
