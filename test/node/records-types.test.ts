// Records are typed by the registry to the end (build/records.ts ResourceRecords): a resource's stored list items and
// detail records have the types of its registry schemas. Checked by tsc (`npm run typecheck`): each expected error
// below fails the check if the mistake under it were accepted.
import { describe, expect, it } from "vitest";
import type { ResourceRecords } from "../../build/records.ts";
import * as api from "../../schema/api.ts";
import type { StoredItemOf } from "../../schema/resources.ts";

function typeChecks(province: api.Province, subject: api.Subject): void {
  const provinces: ResourceRecords<"provinces"> = { name: "provinces", whole: { schema: api.Province, items: [province] } };
  // @ts-expect-error a subject is not a province: the provinces' items are typed by their registry entry
  const wrong: ResourceRecords<"provinces"> = { name: "provinces", whole: { schema: api.Province, items: [subject] } };
  // A prospectus is stored with its document path, not the URL it is served with.
  const stored: StoredItemOf<"prospectuses"> = { ...({} as api.StoredProspectus) };
  // @ts-expect-error the stored item has no url
  stored.url;
  expect([provinces, wrong]).toBeDefined();
}

describe("typed records", () => {
  it("are checked by tsc (this file's @ts-expect-error lines)", () => {
    expect(typeChecks).toBeTypeOf("function");
  });
});
