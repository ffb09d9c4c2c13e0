// The real local server, as a client sees it: Miniflare runs the Worker on workerd with the test data
// set, and the test talks HTTP to it on 127.0.0.1.
import net from "node:net";
import os from "node:os";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startLocalServer, type LocalServer } from "../../support/local-server.ts";

let server: LocalServer;
let base: string;
let token: string;

beforeAll(async () => {
  server = await startLocalServer("server-test");
  base = server.base;
  token = await server.token(["universities:read", "id_parser:use", "prospectuses:read", "aps_calculator:use"]);
});

afterAll(async () => {
  await server?.stop();
});

describe("the local server over HTTP", () => {
  it("listens on loopback only: the same port on this machine's other addresses refuses the connection", async () => {
    const port = Number(new URL(base).port);
    const others = Object.values(os.networkInterfaces())
      .flat()
      .filter((a) => a !== undefined && a.family === "IPv4" && !a.internal)
      .map((a) => a?.address as string);
    const connects = (host: string) =>
      new Promise<boolean>((resolve) => {
        const socket = net.connect({ host, port, timeout: 2_000 });
        socket.once("connect", () => {
          socket.destroy();
          resolve(true);
        });
        socket.once("error", () => resolve(false));
        socket.once("timeout", () => {
          socket.destroy();
          resolve(false);
        });
      });
    expect(await connects("127.0.0.1")).toBe(true);
    if (others.length === 0) console.warn("server.test: no non-loopback IPv4 address on this machine; only loopback checked");
    for (const address of others) expect(await connects(address), address).toBe(false);
  });

  it("serves a list page to a client with a token, and refuses one without", async () => {
    const ok = await fetch(`${base}/v1/data/universities?page=2&per_page=10`, { headers: { authorization: `Bearer ${token}` } });
    expect(ok.status).toBe(200);
    const body = (await ok.json()) as { data: unknown[]; meta: unknown };
    expect(body.meta).toEqual({ total: 26, page: 2, per_page: 10 });
    expect(body.data).toHaveLength(10);
    const denied = await fetch(`${base}/v1/data/universities`);
    expect(denied.status).toBe(401);
    expect(denied.headers.get("www-authenticate")).toContain("Bearer");
  });

  it("answers a conditional request with 304", async () => {
    const first = await fetch(`${base}/v1/data/universities/university-of-cape-town`, { headers: { authorization: `Bearer ${token}` } });
    const etag = first.headers.get("etag") ?? "";
    const second = await fetch(`${base}/v1/data/universities/university-of-cape-town`, {
      headers: { authorization: `Bearer ${token}`, "if-none-match": etag },
    });
    expect(second.status).toBe(304);
  });

  it("parses an ID number posted as JSON", async () => {
    const response = await fetch(`${base}/v1/id/parse`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      body: JSON.stringify({ id_number: "0002295009085" }),
    });
    expect(response.status).toBe(200);
    expect(((await response.json()) as { data: { date_of_birth: string } }).data.date_of_birth).toBe("2000-02-29");
  });

  it("computes an APS posted as JSON", async () => {
    const response = await fetch(`${base}/v1/data/aps-calculator`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      body: JSON.stringify({
        university_slug: "university-of-johannesburg",
        marks: [
          { subject_slug: "english-home-language", percentage: 75 },
          { subject_slug: "mathematics", percentage: 68 },
          { subject_slug: "physical-sciences", percentage: 62 },
          { subject_slug: "life-sciences", percentage: 55 },
          { subject_slug: "geography", percentage: 81 },
          { subject_slug: "isizulu-first-additional-language", percentage: 70 },
          { subject_slug: "life-orientation", percentage: 90 },
        ],
      }),
    });
    expect(response.status).toBe(200);
    const { data } = (await response.json()) as { data: { aps_score: number; university_slug: string; qualifies_for: string[] } };
    // UJ: NSC levels of six subjects without Life Orientation: 6 + 5 + 5 + 4 + 7 + 6 = 33
    expect(data).toMatchObject({ aps_score: 33, university_slug: "university-of-johannesburg" });
    expect(Array.isArray(data.qualifies_for)).toBe(true);
  });
});
