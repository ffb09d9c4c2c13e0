// The V8 heap of each isolate of a workerd process, through its inspector (workerd --inspector-addr, which
// Miniflare opens with `inspectorPort`, and npm start with INSPECTOR_PORT): the Worker's own, the asset
// worker's, Miniflare's helpers'. One Chrome DevTools Protocol call per isolate, Runtime.getHeapUsage, over a
// WebSocket. Node 20 has no WebSocket without a flag and the project depends on no client, so this speaks the
// little of RFC 6455 it needs: one masked text frame out, unmasked frames back (text, continuation, ping).
import { randomBytes } from "node:crypto";
import net from "node:net";

export type IsolateHeap = { name: string; usedMiB: number; totalMiB: number };

/** Every isolate's heap: `usedMiB` live objects, `totalMiB` what V8 has reserved for them. */
export async function isolateHeaps(inspectorPort: number): Promise<IsolateHeap[]> {
  const list = (await (await fetch(`http://127.0.0.1:${inspectorPort}/json/list`)).json()) as { id: string; title: string }[];
  return Promise.all(
    list.map(async ({ id, title }) => {
      const reply = JSON.parse(await cdpCall(inspectorPort, `/${id}`, { id: 1, method: "Runtime.getHeapUsage" })) as {
        result?: { usedSize: number; totalSize: number };
      };
      const mib = (bytes = 0) => bytes / 1024 / 1024;
      return { name: title.replace(/^workerd: worker /, ""), usedMiB: mib(reply.result?.usedSize), totalMiB: mib(reply.result?.totalSize) };
    }),
  );
}

/** One request on a fresh WebSocket to 127.0.0.1:`port``path`, answered by the first message with its id. */
function cdpCall(port: number, path: string, message: { id: number; method: string }): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, "127.0.0.1");
    let buffer = Buffer.alloc(0);
    let upgraded = false;
    let text = "";
    const timer = setTimeout(() => fail(new Error(`no answer from the inspector at ${path}`)), 5_000);
    const fail = (error: Error) => {
      clearTimeout(timer);
      socket.destroy();
      reject(error);
    };
    socket.on("error", fail);
    socket.on("connect", () =>
      socket.write(
        `GET ${path} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n` +
          `Sec-WebSocket-Key: ${randomBytes(16).toString("base64")}\r\nSec-WebSocket-Version: 13\r\n\r\n`,
      ),
    );
    socket.on("data", (chunk) => {
      buffer = Buffer.concat([buffer, chunk]);
      if (!upgraded) {
        const end = buffer.indexOf("\r\n\r\n");
        if (end < 0) return;
        if (!/^HTTP\/1\.1 101/.test(buffer.subarray(0, end).toString())) return fail(new Error(`the inspector refused ${path}`));
        upgraded = true;
        buffer = buffer.subarray(end + 4);
        socket.write(frame(JSON.stringify(message)));
      }
      // Server frames: FIN + opcode, then an unmasked length of 7, 7+16 or 7+64 bits.
      while (buffer.length >= 2) {
        const opcode = (buffer[0] as number) & 0x0f;
        let length = (buffer[1] as number) & 0x7f;
        let at = 2;
        if (length === 126) {
          if (buffer.length < 4) return;
          length = buffer.readUInt16BE(2);
          at = 4;
        } else if (length === 127) {
          if (buffer.length < 10) return;
          length = Number(buffer.readBigUInt64BE(2));
          at = 10;
        }
        if (buffer.length < at + length) return;
        const payload = buffer.subarray(at, at + length);
        const fin = ((buffer[0] as number) & 0x80) !== 0;
        buffer = buffer.subarray(at + length);
        if (opcode === 0x1 || opcode === 0x0) {
          text += payload.toString("utf8");
          if (!fin) continue;
          const done = text;
          text = "";
          if ((JSON.parse(done) as { id?: number }).id === message.id) {
            clearTimeout(timer);
            socket.destroy();
            return resolve(done);
          }
        }
      }
    });
  });
}

/** A client's text frame: FIN, opcode 1, masked as RFC 6455 requires of clients. */
function frame(text: string): Buffer {
  const payload = Buffer.from(text, "utf8");
  const mask = randomBytes(4);
  const head =
    payload.length < 126 ? Buffer.from([0x81, 0x80 | payload.length]) : Buffer.from([0x81, 0x80 | 126, payload.length >> 8, payload.length & 0xff]);
  const masked = Buffer.from(payload.map((byte, i) => byte ^ (mask[i % 4] as number)));
  return Buffer.concat([head, mask, masked]);
}
