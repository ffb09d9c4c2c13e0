// TUT's 2026 Prospectus, Part 7: Faculty of Management Sciences (ISSN 0258-7343, "valid for 2026 only").
// Each qualification opens with a numbered heading in capitals, its abbreviated name with the NQF level, and
// "Qualification code: X". The first-year programmes (higher certificates, diplomas) state their admission
// per kind of school-leaving certificate; the block "FOR APPLICANTS WITH A NATIONAL SENIOR CERTIFICATE
// OBTAINED IN OR AFTER 2008" gives the English and Mathematics achievement levels and the Admission Point
// Score. Advanced diplomas and postgraduate qualifications are admitted on a prior qualification (no APS);
// Section B lists qualifications being phased out (no new registrations).
import type { ExtractedRow, OfficialDocument } from "../document.ts";

type Line = { page: number; text: string };

const INTAKE = 2026;
const ENGLISH = (level: string) => `english-home-language:${level}|english-first-additional-language:${level}`;

/** Running page headers and footers: "Department of X   11", "12   Department of X", "Phasing out qualifications". */
const FOOTER = /^\s*(\d+\s+)?(Department of [A-Za-z ,]+|Phasing out qualifications)(\s+\d+)?\s*$|^\s*\d+\s*$/;

const clean = (lines: readonly string[]): string =>
  lines
    .filter((l) => !FOOTER.test(l))
    .map((l) => l.trim())
    .join(" ")
    .replace(/(\w)- (\w)/g, "$1$2")
    .replace(/\s+/g, " ")
    .trim();

/** What the NSC block states: English and Mathematics levels, Accounting, the APS, and the rest as a note. */
function readNsc(text: string): Pick<ExtractedRow, "min_aps" | "requirements" | "note"> {
  const admission = /Admission requirement\(s\): (.*?)(?= Recommended subject| Selection criteria|$)/.exec(text)?.[1] ?? "";
  const clauses: string[] = [];
  const notes: string[] = [];
  const english = /level of (?:at least )?(\d) for English \(home language or first additional language\)/.exec(admission);
  if (english?.[1]) clauses.push(ENGLISH(english[1]));
  const mathsTwo = /(\d) for Mathematics or Technical Mathematics or (\d) for Mathematical Literacy/.exec(admission);
  const mathsOne = /(\d) for Mathematics or Technical Mathematics or Mathematical Literacy/.exec(admission);
  if (mathsTwo?.[1] && mathsTwo[2]) clauses.push(`mathematics:${mathsTwo[1]}|technical-mathematics:${mathsTwo[1]}|mathematical-literacy:${mathsTwo[2]}`);
  else if (mathsOne?.[1]) clauses.push(`mathematics:${mathsOne[1]}|technical-mathematics:${mathsOne[1]}|mathematical-literacy:${mathsOne[1]}`);
  const accounting = /(\d) for Accounting( \(for students who [^)]*\))?/.exec(admission);
  if (accounting?.[1] && accounting[2]) notes.push(`Accounting ${accounting[1]}${accounting[2]} (not encoded)`);
  else if (accounting?.[1]) clauses.push(`accounting:${accounting[1]}`);
  // Anything else in the sentence would be a requirement this reading does not know: refuse to guess.
  const rest = admission
    .replace(/^A National Senior Certificate with a bachelor’s degree,? or a diploma(, or a higher certificate)? endorsement, or an equivalent qualification,? with an achievement level of (at least )?\d for English \(home language or first additional language\)/, "")
    .replace(/,? (and )?\d for Mathematics or Technical Mathematics or (\d for )?Mathematical Literacy/, "")
    .replace(/,? and \d for Accounting( \(for students who [^)]*\))?/, "")
    .replace(/\.$/, "")
    .trim();
  const aps = /Admission Point Score \(APS\) of at least (\d+)/.exec(text) ?? /Selection criteria: Applicants with a final APS of (\d+) and more will be admitted/.exec(text);
  const selection = /Selection criteria: (.*?)(?= Recommended subject| Assessment procedure|$)/.exec(text)?.[1];
  const recommended = /Recommended subject\(s\): (.*?)(?= Selection criteria| Assessment procedure|$)/.exec(text)?.[1];
  if (recommended && recommended !== "None.") notes.push(`recommended: ${recommended.replace(/\.$/, "")}`);
  const assessment = /Assessment procedure\(s\): (.*)$/.exec(text)?.[1];
  if (assessment) notes.push(`assessment: ${assessment.replace(/\.$/, "")}`);
  if (rest !== "") return { min_aps: aps?.[1] ? Number(aps[1]) : null, requirements: null, note: `not read: ${admission}` };
  return {
    min_aps: aps?.[1] ? Number(aps[1]) : null,
    requirements: clauses.join(";"),
    note: [`NSC (2008 or later)${selection ? `: ${selection.replace(/\.$/, "")}` : ""}`, ...notes].join("; "),
  };
}

/** The lines of the block "FOR APPLICANTS WITH A NATIONAL SENIOR CERTIFICATE OBTAINED IN OR AFTER 2008", up to the next route or section. */
function nscBlock(block: readonly Line[]): string | null {
  const start = block.findIndex((l) => /NATIONAL SENIOR CERTIFICATE (OBTAINED )?IN OR AFTER/.test(l.text));
  if (start < 0) return null;
  const lines: string[] = [];
  for (let i = start + 2; i < block.length; i += 1) {
    const text = block[i]?.text ?? "";
    if (/^\s*•|^\s*[b-z]\.\s+[A-Z]|CURRICULUM/.test(text)) break;
    lines.push(text);
  }
  return clean(lines);
}

export const document: OfficialDocument = {
  id: "tut-prospectus-2026-management",
  university_slug: "tshwane-university-of-technology",
  witness_id: "tut-prospectus-2026-management",
  repository: "kamomasela/Unipath-app",
  commit: "c30967efc5f9c14b09624838c70b20904a0cfb51",
  path: "sources/prospectuses/tut_management_2026.pdf",
  sha256: "178ba60e82a10af011e601b78bef42f567795473fdc91915a1d6066d04b4bbfc",
  format: "pdf",
  intake_year: INTAKE,
  extract(pages) {
    const lines: Line[] = pages.flatMap((text, i) => text.split("\n").map((t) => ({ page: i + 1, text: t })));
    // The contents (pages 5-6) name the sections too: the qualifications start after them.
    const sectionB = lines.findIndex((l) => l.page > 6 && /SECTION B: PHASING OUT QUALIFICATIONS/.test(l.text));
    const sectionC = lines.findIndex((l) => l.page > 6 && /SECTION C: MODULE INFORMATION/.test(l.text));
    const end = sectionC < 0 ? lines.length : sectionC;
    const heads: number[] = [];
    for (let i = 0; i < end; i += 1) {
      if (!/^\s*Qualification code:/.test(lines[i]?.text ?? "")) continue;
      let h = i - 1;
      while (h > i - 6 && !/^\s*\d+\.\d+\s+[A-Z]{3}/.test(lines[h]?.text ?? "")) h -= 1;
      if (!/^\s*\d+\.\d+\s+[A-Z]{3}/.test(lines[h]?.text ?? "")) throw new Error(`page ${lines[i]?.page}: a qualification code without a heading`);
      heads.push(h, i);
    }
    const rows: ExtractedRow[] = [];
    for (let k = 0; k < heads.length; k += 2) {
      const [h, c] = [heads[k] ?? 0, heads[k + 1] ?? 0];
      const next = heads[k + 2] ?? end;
      const head = lines.slice(h, c).map((l) => l.text.trim());
      const abbreviated = head.findIndex((t) => / - NQF Level \d+/.test(t));
      const name = head
        .slice(0, abbreviated)
        .filter((t) => !/^The name\*/.test(t))
        .join(" ")
        .replace(/^\d+\.\d+\s+/, "")
        .replace(/\*/g, "")
        .replace(/\s+/g, " ")
        .trim();
      const nqf = Number(/ - NQF Level (\d+)/.exec(head[abbreviated] ?? "")?.[1]);
      const code = (lines[c]?.text ?? "").replace(/^\s*Qualification code:\s*/, "").trim();
      const block = lines.slice(c, sectionB > c && sectionB < next ? sectionB : next);
      const page = lines[h]?.page ?? null;
      const base = { name_as_written: name, code, intake_year: INTAKE, page, line: null, read_by: "script" as const };
      const renamed = head.some((t) => /^The name\*/.test(t)) ? "the name does not correspond to the SAQA registration certificate" : null;
      if (sectionB >= 0 && h > sectionB) {
        const intake = /Last year of new intake:\s+(\d{4})/.exec(block.map((l) => l.text).join("\n"))?.[1];
        const teachOut = /Teach-out \(phase-out\) date:\s+(.+)/.exec(block.map((l) => l.text).join("\n"))?.[1]?.trim();
        const note = [`Section B, phasing out (no new registrations): last year of new intake ${intake ?? "?"}; teach-out ${teachOut ?? "?"}`, renamed].filter(Boolean).join("; ");
        rows.push({ ...base, min_aps: null, requirements: null, note });
        continue;
      }
      const nsc = nqf <= 6 ? nscBlock(block) : null;
      if (nsc === null) {
        const note = [`NQF Level ${nqf}: admission on a prior qualification, no NSC route`, renamed].filter(Boolean).join("; ");
        rows.push({ ...base, min_aps: null, requirements: null, note });
        continue;
      }
      const read = readNsc(nsc);
      rows.push({ ...base, ...read, note: [read.note, renamed].filter(Boolean).join("; ") });
    }
    return rows;
  },
};
