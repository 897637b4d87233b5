import { createSocket, type Socket } from "node:dgram";
import type { AddressInfo } from "node:net";

/** A UDP socket on 127.0.0.1 that records every datagram it receives (a STUN/TURN server to aim at). */
export interface UdpListener {
  /** The port it listens on. */
  port: number;
  /** Every datagram received, as `<bytes> bytes from <port>` plus its printable text. */
  packets: string[];
  /** Closes the socket. */
  close(): Promise<void>;
}

/**
 * Starts a UDP listener on 127.0.0.1 (a random port).
 *
 * @returns the listener
 */
export async function startUdpListener(): Promise<UdpListener> {
  const packets: string[] = [];
  const socket: Socket = createSocket("udp4");
  socket.on("message", (message, from) => {
    packets.push(
      `${message.byteLength} bytes from ${from.port}: ${message.toString("latin1").replace(/[^\x20-\x7e]/g, ".")}`,
    );
  });
  await new Promise<void>((resolve) => socket.bind(0, "127.0.0.1", resolve));
  const { port } = socket.address() as AddressInfo;
  return {
    port,
    packets,
    close: () => new Promise<void>((resolve) => socket.close(() => resolve())),
  };
}
