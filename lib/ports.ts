// A free TCP port on 127.0.0.1, for a local server a test or a bench starts on a port of its own choosing.
import net from "node:net";

export async function freePort(): Promise<number> {
  const server = net.createServer().listen(0, "127.0.0.1");
  await new Promise((resolve) => server.once("listening", resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}
