import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";

/** A local HTTP server on 127.0.0.1 that records every request (and WebSocket upgrade) it sees. */
export interface RecordingServer {
  /** `http://127.0.0.1:<port>`. */
  url: string;
  /** Every request seen, as `METHOD /path`. */
  requests: string[];
  /** Stops the server. */
  close(): Promise<void>;
}

/**
 * Starts a recording server that answers everything with a small 200.
 *
 * @returns the server
 */
export async function startRecordingServer(): Promise<RecordingServer> {
  const requests: string[] = [];
  const server: Server = createServer((request, response) => {
    requests.push(`${request.method} ${request.url}`);
    response.writeHead(200, { "content-type": "text/plain", "access-control-allow-origin": "*" });
    response.end("ok");
  });
  server.on("upgrade", (request, socket) => {
    requests.push(`UPGRADE ${request.url}`);
    socket.destroy();
  });
  server.on("connection", () => requests.push("(connection)"));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
