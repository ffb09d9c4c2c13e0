// The nightly GitHub Actions workflow: valid YAML with the shape GitHub expects, and the steps the README
// promises (schedule and manual runs, install, tests, guarded rebuild with deploy, the report kept).
import { readFile } from "node:fs/promises";
import path from "node:path";
import { parse } from "yaml";
import { describe, expect, it } from "vitest";
import { ROOT } from "../support/dataset.ts";

type Step = { name?: string; uses?: string; run?: string; if?: string; with?: Record<string, unknown>; env?: Record<string, string> };
type Workflow = {
  name: string;
  on: { schedule: { cron: string }[]; workflow_dispatch: { inputs: Record<string, { type: string }> } };
  concurrency: { group: string; "cancel-in-progress": boolean };
  jobs: Record<string, { "runs-on": string; "timeout-minutes": number; steps: Step[] }>;
};

const workflow = async () => parse(await readFile(path.join(ROOT, ".github", "workflows", "nightly.yml"), "utf8")) as Workflow;

describe(".github/workflows/nightly.yml", () => {
  it("runs nightly on a valid cron schedule and by hand, never two at once", async () => {
    const w = await workflow();
    expect(w.on.schedule).toHaveLength(1);
    const fields = (w.on.schedule[0]?.cron ?? "").split(" ");
    expect(fields).toHaveLength(5);
    const [minute, hour] = fields.map(Number);
    expect(minute).toBeGreaterThanOrEqual(0);
    expect(minute).toBeLessThan(60);
    expect(hour).toBeGreaterThanOrEqual(0);
    expect(hour).toBeLessThan(24);
    expect(fields.slice(2)).toEqual(["*", "*", "*"]);
    expect(w.on.workflow_dispatch.inputs.allow_drop?.type).toBe("boolean");
    expect(w.concurrency["cancel-in-progress"]).toBe(false);
  });

  it("installs, tests, rebuilds with deploy, keeps the report, and fails when the rebuild refuses", async () => {
    const job = Object.values((await workflow()).jobs)[0];
    expect(job?.["timeout-minutes"]).toBeLessThanOrEqual(90);
    const steps = job?.steps ?? [];
    const index = (predicate: (s: Step) => boolean) => steps.findIndex(predicate);
    const install = index((s) => s.run === "npm ci --no-audit --no-fund");
    const test = index((s) => s.run === "npm test");
    const rebuild = index((s) => (s.run ?? "").startsWith("npm run rebuild -- --deploy"));
    const report = index((s) => (s.uses ?? "").startsWith("actions/upload-artifact@") && s.with?.path === ".rebuild/");
    expect([install, test, rebuild, report].every((i) => i >= 0)).toBe(true);
    expect(install < test && test < rebuild && rebuild < report).toBe(true);
    expect(steps[report]?.if).toBe("${{ always() }}");
    expect(steps[rebuild]?.env?.CLOUDFLARE_API_TOKEN).toBe("${{ secrets.CLOUDFLARE_API_TOKEN }}");
    const baseline = index((s) => (s.uses ?? "").startsWith("actions/cache/restore@") && s.with?.path === "dist");
    expect(baseline).toBeGreaterThan(test);
    expect(baseline).toBeLessThan(rebuild);
    expect(steps.find((s) => (s.uses ?? "").startsWith("actions/cache/save@"))?.if).toBe("${{ success() }}");
    for (const step of steps) if (step.uses) expect(step.uses).toMatch(/^[\w-]+\/[\w/-]+@v\d+$/);
  });

  it("never writes a secret into a command line", async () => {
    for (const step of Object.values((await workflow()).jobs)[0]?.steps ?? []) expect(step.run ?? "").not.toContain("secrets.");
  });
});
