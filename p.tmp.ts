import { readFileSync, readdirSync } from "node:fs";
import { answerCompareRequest } from "./domain/aps/compare.ts";
const dir = "/work/main/dist/_internal/aps";
const docs = new Map(readdirSync(dir).filter(f=>f!=="index.json").map(f=>{const d=JSON.parse(readFileSync(dir+"/"+f,"utf8")); return [d.university.slug,d];}));
const index = JSON.parse(readFileSync("/work/main/dist/_internal/aps-index.json","utf8"));
const marks = [
  { subject_slug: "english-home-language", percentage: 68 },{ subject_slug: "afrikaans-first-additional-language", percentage: 61 },{ subject_slug: "mathematics", percentage: 58 },{ subject_slug: "physical-sciences", percentage: 55 },{ subject_slug: "life-sciences", percentage: 72 },{ subject_slug: "geography", percentage: 74 },{ subject_slug: "life-orientation", percentage: 80 }];
const load = async (s: string) => docs.get(s) ?? null;
for (let i=0;i<300;i++) await answerCompareRequest({marks}, index, load);
const t0=performance.now(); for (let i=0;i<2000;i++) await answerCompareRequest({marks}, index, load); console.log(((performance.now()-t0)/2000).toFixed(3),"ms");
