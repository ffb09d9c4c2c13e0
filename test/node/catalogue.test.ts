// The programme catalogue's evidence in the real build: the published values must be what the precedence
// rule picks (the build fails otherwise, naming the witness), every fact has a witness, requirements are
// published from the top-ranked statement, and the conflicts report is generated (and committed up to date).
import { readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { parse } from "csv-parse/sync";
import { afterAll, describe, expect, it } from "vitest";
import { assembleModel, defaultBuildOptions, runBuild } from "../../build/index.ts";
import { formatConflictsReport } from "../../build/conflicts-report.ts";
import { decide, type WitnessKind } from "../../domain/evidence.ts";
import { canonicalRequirements, parseRequirements } from "../../domain/requirements.ts";
import { ROOT, smallSources } from "../../support/test-dataset.ts";
import { removeAll, tempDir } from "../../lib/files.ts";

const cleanup: string[] = [];
afterAll(() => removeAll(...cleanup));

type Row = Record<string, string>;
const readCsv = async (file: string): Promise<Row[]> => parse(await readFile(file, "utf8"), { columns: true, bom: true }) as Row[];
function toCsv(rows: Row[]): string {
  const columns = Object.keys(rows[0] ?? {});
  const cell = (v: string) => (/[",\n]/.test(v) ? `"${v.replace(/"/g, '""')}"` : v);
  return `${[columns.join(","), ...rows.map((r) => columns.map((c) => cell(r[c] ?? "")).join(","))].join("\n")}\n`;
}

const UNIVERSITY = "university-of-venda";

/** A copy of sources/ with UNIVERSITY's programmes alone (support/test-dataset.ts smallSources: the rules these tests
 * break are each qualification's own), edited. */
async function sourcesWith(edit: (qualifications: Row[], evidence: Row[]) => void): Promise<string> {
  const sources = await smallSources({ university: UNIVERSITY });
  cleanup.push(sources);
  const qFile = path.join(sources, "qualifications", `${UNIVERSITY}.csv`);
  const eFile = path.join(sources, "evidence", `${UNIVERSITY}.csv`);
  const qualifications = await readCsv(qFile);
  const evidence = await readCsv(eFile);
  edit(qualifications, evidence);
  await writeFile(qFile, toCsv(qualifications));
  await writeFile(eFile, toCsv(evidence));
  return sources;
}

async function build(sources: string) {
  const out = path.join(await tempDir("catalogue-dist"), "dist");
  cleanup.push(path.dirname(out));
  return runBuild(defaultBuildOptions(ROOT, { sourcesDir: sources, outDir: out }));
}

/** The committed sources up to the link stage, assembled once for the tests that only read the model. */
let committed: ReturnType<typeof assembleModel> | undefined;
const committedAssembly = () => {
  committed ??= assembleModel(defaultBuildOptions(ROOT));
  return committed;
};

/** A qualification with exactly one evidence row that states a min_aps. */
function singleWitnessQualification(qualifications: Row[], evidence: Row[]): Row {
  const q = qualifications.find((row) => row.min_aps !== "" && evidence.filter((e) => e.qualification_id === row.id).length === 1);
  if (!q) throw new Error("no qualification with a single witness to edit");
  return q;
}

describe("the catalogue's evidence in the build", () => {
  it("fails when the published min_aps is not what the top-ranked witness states, naming the witness", async () => {
    let id = "";
    const sources = await sourcesWith((qualifications, evidence) => {
      const q = singleWitnessQualification(qualifications, evidence);
      id = q.id as string;
      q.min_aps = String(Number(q.min_aps) + 1);
    });
    const result = await build(sources);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    const problem = result.problems.find((p) => p.column === "min_aps");
    expect(problem?.file).toContain(`qualifications/${UNIVERSITY}.csv`);
    expect(problem?.expected).toMatch(
      /what the top-ranked witness states \(.+, (transcription|third-party|own-page|official-document), intake .+evidence\/university-of-venda\.csv:\d+\)/,
    );
    expect(id).not.toBe("");
  });

  it("fails when a qualification has no witness, or its intake is not the newest a witness speaks for", async () => {
    const sources = await sourcesWith((qualifications, evidence) => {
      const q = singleWitnessQualification(qualifications, evidence);
      evidence.splice(
        evidence.findIndex((e) => e.qualification_id === q.id),
        1,
      );
      const other = qualifications.find((row) => row !== q && row.intake_year !== "") as Row;
      other.intake_year = String(Number(other.intake_year) - 1);
    });
    const result = await build(sources);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.problems.some((p) => p.column === "id" && p.expected.startsWith("at least one witness"))).toBe(true);
    expect(result.problems.some((p) => p.column === "intake_year" && p.expected.includes("the newest intake a witness"))).toBe(true);
  });

  it("names file, line and column for an unknown subject or a malformed requirement statement", async () => {
    const sources = await sourcesWith((_, evidence) => {
      (evidence[0] as Row).requirements = "astrology:5";
      (evidence[1] as Row).requirements = "mathematics:9";
    });
    const result = await build(sources);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    const problems = result.problems.filter((p) => p.column === "requirements");
    expect(problems.map((p) => p.line).sort()).toEqual([2, 3]);
    expect(problems.map((p) => p.expected).join("\n")).toMatch(/not astrology/);
    expect(problems.map((p) => p.expected).join("\n")).toMatch(/a level is 1 to 7/);
  });

  it("publishes each qualification's requirements from its top-ranked statement, and its witnesses as sources", async () => {
    const assembly = await committedAssembly();
    if (!assembly.ok) throw new Error(JSON.stringify(assembly.problems.slice(0, 3)));
    const evidence = await readCsv(path.join(ROOT, "sources", "evidence", `${UNIVERSITY}.csv`));
    const witnesses = [
      ...(await readCsv(path.join(ROOT, "sources", "witnesses", "projects.csv"))),
      ...(await readCsv(path.join(ROOT, "sources", "witnesses", `${UNIVERSITY}.csv`)).catch(() => [])),
    ];
    const kindOf = new Map(witnesses.map((w) => [w.id, w.kind as WitnessKind]));
    let checked = 0;
    for (const q of assembly.model.qualifications.filter((x) => x.university_slug === UNIVERSITY)) {
      const own = evidence.filter((e) => e.qualification_id === q.id);
      expect(q.sources.map((s) => s.url).sort(), q.name).toEqual(own.map((e) => e.source_url).sort());
      const statements = own.flatMap((e) => {
        const parsed = parseRequirements(e.requirements ?? "");
        if (!parsed?.ok) return [];
        const key = canonicalRequirements(parsed.clauses);
        return [
          {
            value: parsed.clauses,
            key,
            kind: kindOf.get(e.witness_id ?? "") ?? "third-party",
            intakeYear: e.intake_year ? Number(e.intake_year) : null,
            lineage: "",
            witness: e.witness_id ?? "",
          },
        ];
      });
      const decision = decide(statements);
      if (!decision) {
        expect(q.requirements, q.name).toEqual([]);
        continue;
      }
      // The published subjects are those of one of the top-ranked statements.
      const published = [...q.requirements.map((r) => r.subject.slug), ...q.generalRequirements.map((g) => `@${g.rule}`)].sort();
      const candidates = decision.top.map((s) =>
        s.value
          .flatMap((c) => c.options)
          .map((o) => o.subject ?? `@${o.rule}`)
          .sort(),
      );
      expect(candidates, q.name).toContainEqual(published);
      checked++;
    }
    expect(checked).toBeGreaterThan(50);
  });

  it("leaves open, not outranked, an undated official page published against a transcription dated for the row's intake", async () => {
    const assembly = await committedAssembly();
    if (!assembly.ok) throw new Error("the committed sources do not assemble");
    const intakeOf = new Map(assembly.model.qualifications.map((q) => [q.id, q.intake_year]));
    const shape = (c: (typeof assembly.conflicts)[number]) => {
      const published = c.entries.filter((e) => e.value === c.published);
      const others = c.entries.filter((e) => e.value !== c.published);
      return (
        published.length > 0 &&
        published.every((e) => e.intake_year === null && (e.kind === "own-page" || e.kind === "official-document")) &&
        others.some((e) => e.kind === "transcription" && e.intake_year === intakeOf.get(c.qualification_id))
      );
    };
    const undated = assembly.conflicts.filter(shape);
    expect(undated.length).toBeGreaterThan(0); // NWU's law programmes, among others
    expect(undated.filter((c) => c.status !== "open").map((c) => `${c.qualification} ${c.fact}`)).toEqual([]);
  });

  it("keeps docs/data-conflicts.md what the build generates from the committed sources", async () => {
    const assembly = await committedAssembly();
    if (!assembly.ok) throw new Error("the committed sources do not assemble");
    const committed = await readFile(path.join(ROOT, "docs", "data-conflicts.md"), "utf8");
    expect(committed, "run npm run build to regenerate docs/data-conflicts.md").toBe(
      formatConflictsReport(assembly.conflicts, assembly.model, [...assembly.schemes.values(), ...assembly.variants.values()]),
    );
    expect(committed).toMatch(/## APS schemes on split or thin evidence[\s\S]*`spu-2026`/);
    expect(committed).toContain("## Open conflicts");
  });
});
