// The embeddable widgets of the South African higher-education data API: a school picker and an APS widget,
// calling the API from the browser with a publishable token (see index.html for how to embed them). Plain
// JavaScript with no dependency and no build step. Everything the API answers is written with textContent,
// never as HTML. The picker announces the chosen school as a `sa-edu:school` event on its section
// (event.detail is the school record), for the page around it to use.
(() => {
  // biome-ignore lint/suspicious/noRedundantUseStrict: a classic script (it reads document.currentScript), not a module, so strict mode is not implied
  "use strict";

  const script = document.currentScript;
  const API = (script?.dataset.api ? script.dataset.api : "").replace(/\/+$/, "");
  const TOKEN = script?.dataset.token ? script.dataset.token : "";
  const MAX_MARKS = 20;
  const FIRST_ROWS = 7;
  const NEAR_MISSES_SHOWN = 10;

  /** An element with attributes and children (strings become text). */
  function el(tag, attributes, ...children) {
    const element = document.createElement(tag);
    for (const [name, value] of Object.entries(attributes || {})) {
      if (value === false || value === null || value === undefined) continue;
      if (name === "className") element.className = value;
      else element.setAttribute(name, value === true ? "" : String(value));
    }
    for (const child of children.flat()) {
      if (child === null || child === undefined || child === false) continue;
      element.append(typeof child === "string" || typeof child === "number" ? document.createTextNode(String(child)) : child);
    }
    return element;
  }

  /** Something to tell the reader (a mark left out, the network, the API's answer); anything else is a bug, logged. */
  class Problem extends Error {}

  /** An answer of the API that is not a success, with what to tell the reader. */
  class ApiProblem extends Problem {
    constructor(response, body) {
      const retryAfter = Number(response.headers.get("retry-after"));
      const message =
        response.status === 429
          ? `Too many requests from this page just now; try again in ${retryAfter || "a few"} seconds.`
          : body?.error?.message
            ? body.error.message
            : `The data service answered ${response.status}.`;
      super(message);
      this.status = response.status;
      this.code = body?.error ? body.error.code : null;
    }
  }

  async function api(path, body) {
    const headers = { authorization: `Bearer ${TOKEN}` };
    if (body !== undefined) headers["content-type"] = "application/json";
    let response;
    try {
      response = await fetch(`${API}${path}`, {
        method: body === undefined ? "GET" : "POST",
        headers,
        body: body === undefined ? undefined : JSON.stringify(body),
      });
    } catch {
      throw new Problem("The data service could not be reached; check your connection and try again.");
    }
    const answer = await response.json().catch(() => null);
    if (!response.ok) throw new ApiProblem(response, answer);
    return answer;
  }

  function say(status, text, isError) {
    status.textContent = text;
    status.classList.toggle("sa-edu-error", Boolean(isError));
  }

  function fail(status, error) {
    if (!(error instanceof Problem)) console.error(error);
    say(status, error instanceof Problem ? error.message : "Something went wrong in this widget; please reload the page.", true);
  }

  // ---------------------------------------------------------------------------------------------- school picker
  function schoolPicker(section) {
    const form = section.querySelector("form");
    const input = form.elements.namedItem("q");
    const province = form.elements.namedItem("province");
    const status = section.querySelector(".sa-edu-status");
    const list = section.querySelector(".sa-edu-schools");
    const chosen = section.querySelector(".sa-edu-chosen");
    let latest = 0;
    let timer = null;
    // The query whose answer is shown or on its way: typing then choosing a province asked the same question twice,
    // and the second answer replaced the list under a reader's pointer, losing their click.
    let asked = null;

    api("/v1/data/provinces")
      .then(({ data }) => province.append(...data.map((p) => el("option", { value: p.id }, p.name))))
      .catch((error) => fail(status, error));

    function describe(school) {
      const facts = [school.province, `EMIS ${school.emis_number}`];
      if (school.quintile !== null) facts.push(`quintile ${school.quintile}`);
      if (school.nsc_pass_rate !== null) facts.push(`NSC pass rate ${school.nsc_pass_rate}% (${school.nsc_year})`);
      return facts.join(" · ");
    }

    function choose(school) {
      chosen.hidden = false;
      chosen.replaceChildren("Your school: ", el("strong", {}, school.name), ` (${school.province}, EMIS ${school.emis_number})`);
      section.dispatchEvent(new CustomEvent("sa-edu:school", { detail: school, bubbles: true }));
    }

    async function search() {
      clearTimeout(timer);
      const q = input.value.trim();
      if (q.length < 2 && province.value === "") {
        latest++;
        asked = null;
        list.replaceChildren();
        say(status, "Type at least two letters of your school's name, or choose a province.");
        return;
      }
      const query = new URLSearchParams({ per_page: "10" });
      if (q.length >= 2) query.set("q", q);
      if (province.value !== "") query.set("province", province.value);
      if (query.toString() === asked) return;
      asked = query.toString();
      const request = ++latest;
      say(status, "Searching…");
      try {
        const { data, meta } = await api(`/v1/data/high-schools?${query}`);
        if (request !== latest) return; // a newer search has started
        list.replaceChildren(
          ...data.map((school) =>
            el(
              "li",
              {},
              el(
                "button",
                { type: "button", className: "sa-edu-school" },
                el("span", { className: "sa-edu-name" }, school.name),
                el("span", { className: "sa-edu-facts" }, describe(school)),
              ),
            ),
          ),
        );
        list.querySelectorAll("button").forEach((button, i) => {
          button.addEventListener("click", () => choose(data[i]));
        });
        say(
          status,
          meta.total === 0
            ? "No school matches; try fewer words."
            : meta.total > data.length
              ? `${meta.total} schools match; the first ${data.length}:`
              : `${meta.total} ${meta.total === 1 ? "school matches" : "schools match"}:`,
        );
      } catch (error) {
        if (request !== latest) return;
        asked = null; // asking again may succeed
        fail(status, error);
      }
    }

    const soon = () => {
      clearTimeout(timer);
      timer = setTimeout(search, 250);
    };
    input.addEventListener("input", soon);
    province.addEventListener("change", search);
    form.addEventListener("submit", (event) => {
      event.preventDefault();
      search();
    });
  }

  // ------------------------------------------------------------------------------------------------- APS widget
  function apsWidget(section) {
    const form = section.querySelector("form");
    const rows = section.querySelector("tbody");
    const add = section.querySelector(".sa-edu-add");
    const status = section.querySelector(".sa-edu-status");
    const qualifies = section.querySelector(".sa-edu-qualifies");
    const nearMisses = section.querySelector(".sa-edu-near-misses");
    let subjects = [];
    const subjectName = (slug) =>
      slug === "@other-language"
        ? "another language"
        : slug === "@other-subject"
          ? "another subject"
          : (subjects.find((s) => s.slug === slug) || { name: slug }).name;

    function addRow() {
      const n = rows.children.length + 1;
      const select = el(
        "select",
        { name: "subject", "aria-label": `Subject ${n}` },
        el("option", { value: "" }, "Choose a subject"),
        subjects.map((s) => el("option", { value: s.slug }, s.name)),
      );
      const mark = el("input", {
        type: "number",
        name: "percentage",
        min: 0,
        max: 100,
        step: "any",
        inputmode: "decimal",
        "aria-label": `Final mark for subject ${n} (%)`,
      });
      rows.append(el("tr", {}, el("td", {}, select), el("td", {}, mark)));
      add.disabled = rows.children.length >= MAX_MARKS;
    }

    api("/v1/data/subjects")
      .then(({ data }) => {
        subjects = data;
        for (let i = 0; i < FIRST_ROWS; i++) addRow();
      })
      .catch((error) => fail(status, error));
    add.addEventListener("click", addRow);

    function marksOf() {
      const marks = [];
      for (const row of rows.children) {
        const subject = row.querySelector("select").value;
        const text = row.querySelector("input").value.trim();
        if (subject === "" && text === "") continue;
        if (subject === "") throw new Problem("Choose the subject of each mark you entered.");
        const percentage = Number(text);
        if (text === "" || !Number.isFinite(percentage) || percentage < 0 || percentage > 100)
          throw new Problem(`Enter your final mark for ${subjectName(subject)} as a percentage from 0 to 100.`);
        if (marks.some((m) => m.subject_slug === subject)) throw new Problem(`${subjectName(subject)} is there twice.`);
        marks.push({ subject_slug: subject, percentage });
      }
      if (marks.length === 0) throw new Problem("Enter at least one subject and your final mark in it.");
      return marks;
    }

    function describeMissing(missing) {
      if (missing.kind === "aps") return `APS ${missing.need} needed, you have ${missing.have}`;
      const option = (o) => `${subjectName(o.subject_slug)} level ${o.need_level} (${o.need_percentage}%)`;
      const one = missing.kind === "subject" ? missing : missing.options.length === 1 ? missing.options[0] : null;
      if (one) return `${option(one)} needed, you have level ${one.have_level}`;
      return `one of ${missing.options.map(option).join(" or ")} needed`;
    }

    function show({ data, meta }) {
      const where = data
        .filter((u) => u.qualifies_for.length > 0)
        .sort((a, b) => b.qualifications.length - a.qualifications.length || a.university_name.localeCompare(b.university_name));
      say(
        status,
        where.length === 0
          ? "These marks do not yet meet a qualification's requirements at any university."
          : `You qualify for ${meta.qualifies_for_total} qualifications at ${where.length} of ${meta.universities} universities.`,
      );
      qualifies.replaceChildren(
        ...(where.length === 0
          ? []
          : [
              el("h3", {}, "Where you qualify"),
              el(
                "ul",
                { className: "sa-edu-universities" },
                where.map((u) =>
                  el(
                    "li",
                    {},
                    el(
                      "details",
                      {},
                      el(
                        "summary",
                        {},
                        el("strong", {}, u.university_name),
                        ` · APS ${u.aps_score} of ${u.maximum} · ${u.qualifications.length} ${u.qualifications.length === 1 ? "qualification" : "qualifications"}`,
                      ),
                      el(
                        "ul",
                        {},
                        u.qualifications.map((q) => el("li", {}, q.name, q.min_aps === null ? "" : ` (APS ${q.min_aps})`)),
                      ),
                    ),
                  ),
                ),
              ),
            ]),
      );
      // The closest near misses over all universities: fewest things missing first, then the smallest APS gap,
      // then each university's closest before any university's second (the API orders each university's own).
      const gap = (miss) => miss.missing.reduce((n, m) => (m.kind === "aps" ? n + m.need - m.have : n), 0);
      const close = data
        .flatMap((u) => u.near_misses.map((miss, rank) => ({ university: u.university_name, miss, rank })))
        .sort((a, b) => a.miss.missing.length - b.miss.missing.length || gap(a.miss) - gap(b.miss) || a.rank - b.rank);
      const shown = close.slice(0, NEAR_MISSES_SHOWN);
      nearMisses.replaceChildren(
        ...(close.length === 0
          ? []
          : [
              el("h3", {}, "Nearly there"),
              el(
                "ul",
                { className: "sa-edu-near" },
                shown.map(({ university, miss }) =>
                  el("li", {}, el("strong", {}, miss.name), ` at ${university}: `, miss.missing.map(describeMissing).join("; ")),
                ),
              ),
              close.length > shown.length ? el("p", { className: "sa-edu-more" }, `and ${close.length - shown.length} more near misses.`) : null,
            ]),
      );
    }

    form.addEventListener("submit", async (event) => {
      event.preventDefault();
      let marks;
      try {
        marks = marksOf();
      } catch (error) {
        fail(status, error);
        return;
      }
      say(status, "Working out your APS at every university…");
      try {
        show(await api("/v1/data/aps-calculator/compare", { marks }));
      } catch (error) {
        fail(status, error);
      }
    });
  }

  function start() {
    const picker = document.getElementById("sa-edu-school-picker");
    const aps = document.getElementById("sa-edu-aps");
    if (picker) schoolPicker(picker);
    if (aps) apsWidget(aps);
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
