import { createGuardedTransport } from "@agentool/tools-web/node";
import {
  type RecordedFigmaServer,
  type RecordedFigmaServerOptions,
  startRecordedFigmaServer,
} from "../testing/recorded-figma-server.js";

/** The testing entry's recorded Figma server, with a transport that may reach it. */
export interface FigmaServer extends RecordedFigmaServer {
  /** The guarded transport with 127.0.0.1 allowed. */
  transport: ReturnType<typeof createGuardedTransport>;
}

/**
 * Starts `@agentool/tools-design/testing`'s recorded Figma server and a transport for it.
 *
 * @param options - as startRecordedFigmaServer's
 * @returns the server; `close()` stops it and the transport
 */
export async function startFigmaServer(
  options: RecordedFigmaServerOptions = {},
): Promise<FigmaServer> {
  const server = await startRecordedFigmaServer(options);
  const transport = createGuardedTransport({ allowHosts: ["127.0.0.1"] });
  return {
    ...server,
    transport,
    close: async () => {
      await transport.close();
      await server.close();
    },
  };
}
