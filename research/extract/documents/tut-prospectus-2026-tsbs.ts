// TUT's 2026 Prospectus, Part 10: Tshwane School for Business and Society (ISSN 0258-7343, "valid for 2026
// only"), kept in kamomasela/Unipath-app as tut_2026.pdf. Despite the file name it is not the first-year course
// information: it states only the School's postgraduate qualifications (PGDip, MBA, DBA; and a phasing-out
// MBA in Section B), each admitted on a prior qualification, so no programme of the undergraduate catalogue.
// Each qualification opens with a numbered heading in capitals, its abbreviated name with the NQF level, and
// "Qualification code: X".
import type { ExtractedRow, OfficialDocument } from "../document.ts";

type Line = { page: number; text: string };

const INTAKE = 2026;
const HEADING = /^\s*\d+(\.\d+)?\.?\s+([A-Z][A-Z' ]{5,}[A-Z])\s*$/;

export const document: OfficialDocument = {
  id: "tut-prospectus-2026-tsbs",
  university_slug: "tshwane-university-of-technology",
  witness_id: "tut-prospectus-2026-tsbs",
  repository: "kamomasela/Unipath-app",
  commit: "c30967efc5f9c14b09624838c70b20904a0cfb51",
  path: "sources/prospectuses/tut_2026.pdf",
  sha256: "0394aa485878d9c7a977704c77c6d5865925d4f97f633a9984d7f1db81a4ece6",
  format: "pdf",
  intake_year: INTAKE,
  extract(pages) {
    const lines: Line[] = pages.flatMap((text, i) => text.split("\n").map((t) => ({ page: i + 1, text: t })));
    // The contents (page 5) name the sections too: the qualifications start after them.
    const sectionB = lines.findIndex((l) => l.page > 5 && /SECTION B: PHASING OUT QUALIFICATIONS/.test(l.text));
    const sectionC = lines.findIndex((l) => l.page > 5 && /SECTION C: MODULE INFORMATION/.test(l.text));
    const end = sectionC < 0 ? lines.length : sectionC;
    const rows: ExtractedRow[] = [];
    for (let c = 0; c < end; c += 1) {
      const codeLine = /^\s*Qualification code:\s*(.+?)\s*$/.exec(lines[c]?.text ?? "");
      if (!codeLine?.[1]) continue;
      let h = c - 1;
      while (h > c - 6 && !HEADING.test(lines[h]?.text ?? "")) h -= 1;
      const heading = HEADING.exec(lines[h]?.text ?? "");
      if (!heading?.[2]) throw new Error(`page ${lines[c]?.page}: a qualification code without a heading`);
      const around = lines.slice(h, c + 1).map((l) => l.text).join("\n");
      const nqf = /NQF Level (\d+)/.exec(around)?.[1];
      const code = codeLine[1].replace(/\s+-\s+NQF Level.*$/, "").trim();
      const base = { name_as_written: heading[2].trim(), code, intake_year: INTAKE, min_aps: null, requirements: null, page: lines[h]?.page ?? null, line: null, read_by: "script" as const };
      if (sectionB >= 0 && h > sectionB) {
        const block = lines.slice(c, Math.min(c + 12, end)).map((l) => l.text).join("\n");
        const intake = /Last year of new intake:\s+(\d{4})/.exec(block)?.[1] ?? "?";
        const teachOut = /Teach-out \(phase-out\) date:\s+(.+)/.exec(block)?.[1]?.trim() ?? "?";
        rows.push({ ...base, note: `Section B, phasing out (no new registrations): last year of new intake ${intake}; teach-out ${teachOut}` });
      } else rows.push({ ...base, note: `postgraduate, NQF Level ${nqf ?? "?"}: admission on a prior qualification, no NSC route` });
    }
    return rows;
  },
};
