// The nightly GitHub Actions workflow: valid YAML with the shape GitHub expects, and the jobs the README
// promises (schedule and manual runs; rebuild without secrets; deploy of the built dist/ with the secret;
// the refreshed tables committed; the report kept).
import { readFile } from "node:fs/promises";
import path from "node:path";
import { parse } from "yaml";
import { describe, expect, it } from "vitest";
import { ROOT } from "../../support/test-dataset.ts";

type Step = { name?: string; uses?: string; run?: string; if?: string; with?: Record<string, unknown>; env?: Record<string, string> };
type Workflow = {
  name: string;
  on: { schedule: { cron: string }[]; workflow_dispatch: { inputs: Record<string, { type: string }> } };
  concurrency: { group: string; "cancel-in-progress": boolean };
  jobs: Record<string, { "runs-on": string; "timeout-minutes": number; needs?: string; permissions?: Record<string, string>; steps: Step[] }>;
};

/** A GitHub Actions expression as the workflow writes it: `${{ <expression> }}`. */
const expression = (inner: string) => `\${{ ${inner} }}`;

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

  it("rebuilds (install, test, guarded rebuild) in a job with no secret and a read-only token, and hands on dist/ and the tables", async () => {
    const w = await workflow();
    const job = w.jobs.rebuild;
    expect(job?.["timeout-minutes"]).toBeLessThanOrEqual(90);
    expect(job?.permissions).toEqual({ contents: "read" });
    const steps = job?.steps ?? [];
    const index = (predicate: (s: Step) => boolean) => steps.findIndex(predicate);
    const install = index((s) => s.run === "npm ci --no-audit --no-fund");
    const test = index((s) => s.run === "npm test");
    const rebuild = index((s) => (s.run ?? "").startsWith("npm run rebuild"));
    const dist = index((s) => (s.uses ?? "").startsWith("actions/upload-artifact@") && s.with?.path === "dist/");
    const tables = index(
      (s) => (s.uses ?? "").startsWith("actions/upload-artifact@") && String(s.with?.path ?? "").includes("sources/nsc-results.csv"),
    );
    const report = index((s) => (s.uses ?? "").startsWith("actions/upload-artifact@") && s.with?.path === ".rebuild/");
    expect([install, test, rebuild, dist, tables, report].every((i) => i >= 0)).toBe(true);
    expect(install < test && test < rebuild && rebuild < dist && rebuild < tables && rebuild < report).toBe(true);
    expect(steps[rebuild]?.run).not.toContain("--deploy");
    expect(steps[report]?.if).toBe(expression("always()"));
    const baseline = index((s) => (s.uses ?? "").startsWith("actions/cache/restore@") && s.with?.path === "dist");
    expect(baseline).toBeGreaterThan(test);
    expect(baseline).toBeLessThan(rebuild);
    // the job that parses downloaded files holds no secret at all
    expect(JSON.stringify(job)).not.toContain("secrets.");
    expect(steps.find((s) => (s.uses ?? "").startsWith("actions/checkout@"))?.with?.["persist-credentials"]).toBe(false);
  });

  it("deploys the built dist/ in a job that holds the deploy secret but runs no importer", async () => {
    const w = await workflow();
    const job = w.jobs.deploy;
    expect(job?.needs).toBe("rebuild");
    const steps = job?.steps ?? [];
    const take = steps.findIndex((s) => (s.uses ?? "").startsWith("actions/download-artifact@") && s.with?.path === "dist");
    const deploy = steps.findIndex((s) => s.run === "npx wrangler deploy --env live");
    expect(take).toBeGreaterThanOrEqual(0);
    expect(deploy).toBeGreaterThan(take);
    expect(steps[deploy]?.env?.CLOUDFLARE_API_TOKEN).toBe(expression("secrets.CLOUDFLARE_API_TOKEN"));
    for (const step of steps) expect(step.run ?? "", step.name).not.toMatch(/npm (test|run (rebuild|import|build))|tsx /);
    expect(steps.find((s) => (s.uses ?? "").startsWith("actions/cache/save@"))?.if).toBe(expression("success()"));
  });

  it("commits the refreshed tables to the default branch after the deployment, so the repository holds what is deployed", async () => {
    const w = await workflow();
    const job = w.jobs.commit;
    expect(job?.needs).toBe("deploy");
    expect(job?.permissions).toEqual({ contents: "write" });
    const run = (job?.steps ?? []).map((s) => s.run ?? "").join("\n");
    expect(run).toContain("git add --all sources/high-schools.csv sources/postal-codes.csv sources/nsc-results.csv sources/releases");
    // The release history comes whole from the artifact: the checkout's is cleared first, so releases cut at 400 days go.
    expect(run.indexOf("rm -rf sources/releases")).toBeLessThan(run.indexOf("git add"));
    expect(run).toMatch(/git push origin "HEAD:\$BRANCH"/);
    expect(JSON.stringify(job)).not.toContain("CLOUDFLARE");
  });

  it("pins every action to a major version", async () => {
    for (const job of Object.values((await workflow()).jobs))
      for (const step of job.steps) if (step.uses) expect(step.uses).toMatch(/^[\w-]+\/[\w/-]+@v\d+$/);
  });

  it("never writes a secret into a command line", async () => {
    for (const job of Object.values((await workflow()).jobs)) for (const step of job.steps) expect(step.run ?? "").not.toContain("secrets.");
  });
});
