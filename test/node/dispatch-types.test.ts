// Dispatch is exhaustive by type: the Worker's handler table (functions/dispatch.ts HANDLERS) must satisfy
// Handlers, one handler per target kind of schema/operation.ts. These lines are checked by tsc
// (`npm run typecheck`, the first step of `npm test`): each @ts-expect-error fails the check if
// the error it expects goes away, i.e. if a table with a missing handler were accepted.
import { describe, expect, it } from "vitest";
import type { Handlers } from "../../functions/dispatch.ts";
import type { Target } from "../../schema/operation.ts";

function typeChecks(complete: Handlers): void {
  // A table without the handler of one kind (aps) is not a Handlers table.
  const { aps: _aps, ...withoutAps } = complete;
  // @ts-expect-error Property 'aps' is missing
  withoutAps satisfies Handlers;

  // A new target kind without a handler: the complete table of today does not cover it.
  type Grown = Target["kind"] | "new-kind";
  // @ts-expect-error Property '"new-kind"' is missing
  complete satisfies Record<Grown, unknown>;
}

describe("the handler table", () => {
  it("is checked exhaustive by tsc (this file's @ts-expect-error lines)", () => {
    expect(typeChecks).toBeTypeOf("function");
  });
});
