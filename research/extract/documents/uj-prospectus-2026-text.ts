// UJ 2026 Undergraduate Prospectus, read from the text copy that kamomasela/Unipath-app keeps beside the PDF
// (sources/prospectuses/uj_2026.txt; the PDF's bytes are not in the snapshot). The copy is pdftotext's raw
// (non-layout) output: every admission table comes out column by column, with the programme names in reverse
// row order, the codes, APS cells and subject levels in separate runs whose order changes from page to page.
// No rule pairs a cell with its row reliably, so the programmes are read by hand (hand/uj-prospectus-2026-text.csv,
// each row located at the line of its programme code in the NSC table) and this module states none itself.
import type { ExtractedRow, OfficialDocument } from "../document.ts";

export const document: OfficialDocument = {
  id: "uj-prospectus-2026-text",
  university_slug: "university-of-johannesburg",
  witness_id: "uj-prospectus-2026-text",
  repository: "kamomasela/Unipath-app",
  commit: "c30967efc5f9c14b09624838c70b20904a0cfb51",
  path: "sources/prospectuses/uj_2026.txt",
  sha256: "00f2159c8f97acc18c94f8c0e006ac2e4a64c647a7e39af8e8e08dc77d45523a",
  format: "text",
  intake_year: 2026,
  extract(_pages: readonly string[]): ExtractedRow[] {
    return [];
  },
};
