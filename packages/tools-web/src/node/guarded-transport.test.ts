import { describe, expect, it } from "vitest";
import { startServer } from "../test-support/http-server.js";
import { judgeAddress } from "./address-policy.js";
import { createNodeWebFetchTool } from "./create-node-web-tools.js";
import { createGuardedTransport, type Resolver } from "./guarded-transport.js";

let hits = 0;
const target = await startServer({
  "/": (_request, response) => {
    hits += 1;
    response.writeHead(200, { "content-type": "text/plain" });
    response.end("SECRET INTERNAL PAGE");
  },
});
const port = target.port;
const other = await startServer({
  "/to-blocked-port": (_request, response) => {
    response.writeHead(302, { location: `http://127.0.0.1:${port}/` });
    response.end();
  },
  "/to-localhost": (_request, response) => {
    response.writeHead(302, { location: `http://localhost:${port}/` });
    response.end();
  },
  "/to-metadata": (_request, response) => {
    response.writeHead(301, { location: "http://169.254.169.254/latest/meta-data/iam/" });
    response.end();
  },
  "/to-rebound-name": (_request, response) => {
    response.writeHead(307, { location: `http://public-looking.example:${port}/` });
    response.end();
  },
});

const toLoopback: Resolver = async () => [{ address: "127.0.0.1", family: 4 }];

async function expectBlocked(
  url: string,
  options: Parameters<typeof createNodeWebFetchTool>[0] = {},
) {
  const before = hits;
  const result = await createNodeWebFetchTool({ cacheTtlMs: 0, ...options }).run({ url });
  expect(result.success, `${url} must be refused`).toBe(false);
  if (!result.success) {
    expect(result.error.code, `${url}: ${result.error.message}`).toBe("BLOCKED");
    expect(result.error.hint).toMatch(/allowHosts or allowPrivate/);
  }
  expect(hits, `${url} must never reach the server`).toBe(before);
}

describe("the default policy refuses every SSRF form", () => {
  const forms = [
    `http://127.0.0.1:${port}/`,
    `http://2130706433:${port}/`, // decimal
    `http://0177.0.0.1:${port}/`, // octal
    `http://0x7f.0.0.1:${port}/`, // hex
    `http://0x7f000001:${port}/`,
    `http://127.1:${port}/`,
    `http://[::ffff:127.0.0.1]:${port}/`, // IPv4-mapped IPv6
    `http://[::1]:${port}/`,
    `http://[64:ff9b::7f00:1]:${port}/`, // NAT64 of 127.0.0.1
    `http://0.0.0.0:${port}/`,
    `http://[::]:${port}/`,
    `http://localhost:${port}/`,
    `http://localhost.:${port}/`, // trailing dot
    `http://LOCALHOST..:${port}/`,
    `http://tenant.localhost:${port}/`, // *.localhost
    "http://169.254.169.254/latest/meta-data/", // cloud metadata
    "http://[fd00:ec2::254]/latest/meta-data/",
    "http://metadata.google.internal/computeMetadata/v1/",
    "http://metadata.google.internal./computeMetadata/v1/",
    "http://100.100.100.200/latest/meta-data/",
    "http://10.0.0.1/",
    "http://172.16.5.4/",
    "http://192.168.1.1/",
    "http://100.64.0.1/", // CGNAT
    "http://[fe80::1]/", // link-local
    "http://[fc00::1]/", // unique-local
    "http://224.0.0.1/", // multicast
    "http://255.255.255.255/",
  ];
  for (const url of forms) {
    it(`refuses ${url}`, async () => {
      await expectBlocked(url);
    });
  }

  it("refuses a public-looking name that resolves to 127.0.0.1 (checked at connect time)", async () => {
    await expectBlocked(`http://public-looking.example:${port}/`, { resolver: toLoopback });
  });

  it("refuses a name whose answers mix a public address with a private one", async () => {
    await expectBlocked(`http://mixed.example:${port}/`, {
      resolver: async () => [
        { address: "93.184.216.34", family: 4 },
        { address: "127.0.0.1", family: 4 },
      ],
    });
  });

  it("DNS rebinding: a public answer first, 127.0.0.1 on the next lookup, never reaches the server", async () => {
    let calls = 0;
    const rebinding: Resolver = async () => {
      calls += 1;
      return calls === 1
        ? [{ address: "198.18.0.1", family: 4 }]
        : [{ address: "127.0.0.1", family: 4 }];
    };
    // 198.18.0.0/15 is a benchmarking range the policy also refuses, so even the first answer
    // fails closed without leaving the machine; the second is loopback.
    const tool = createNodeWebFetchTool({ resolver: rebinding, cacheTtlMs: 0 });
    const before = hits;
    const first = await tool.run({ url: `http://rebind.example:${port}/` });
    const second = await tool.run({ url: `http://rebind.example:${port}/` });
    expect(!first.success && first.error.code).toBe("BLOCKED");
    expect(!second.success && second.error.code).toBe("BLOCKED");
    expect(!second.success && second.error.message).toContain("127.0.0.1");
    expect(calls).toBe(2);
    expect(hits).toBe(before);
  });

  it("DNS rebinding against a pre-check: the address connected to is the one checked", async () => {
    // A resolver that is public for every lookup but the one made while connecting would fool a
    // validator that resolves before connecting. Here every lookup is the connect-time one.
    let calls = 0;
    const resolver: Resolver = async () => {
      calls += 1;
      return [{ address: "127.0.0.1", family: 4 }];
    };
    await expectBlocked(`http://validator-bait.example:${port}/`, { resolver });
    expect(calls).toBe(1);
  });

  it("refuses a redirect from an allowed server to a blocked address, port or name", async () => {
    const allowOther = { allowHosts: [`127.0.0.1:${other.port}`] };
    await expectBlocked(`${other.origin}/to-blocked-port`, allowOther);
    await expectBlocked(`${other.origin}/to-localhost`, allowOther);
    await expectBlocked(`${other.origin}/to-metadata`, allowOther);
    await expectBlocked(`${other.origin}/to-rebound-name`, { ...allowOther, resolver: toLoopback });
  });
});

describe("IPv6 forms that embed an IPv4 address are judged as that address", () => {
  // Each names 127.0.0.1 (or 10.0.0.1); `new URL` rewrites `[::127.0.0.1]` to `[::7f00:1]`.
  const embedded = [
    `http://[::127.0.0.1]:${port}/`, // IPv4-compatible, dotted (deprecated)
    `http://[::7f00:1]:${port}/`, // IPv4-compatible, hex
    `http://[0:0:0:0:0:0:7f00:1]:${port}/`,
    `http://[::a00:1]:${port}/`, // IPv4-compatible 10.0.0.1
    `http://[::ffff:7f00:1]:${port}/`, // IPv4-mapped, hex
    `http://[64:ff9b::127.0.0.1]:${port}/`, // NAT64, dotted
    `http://[2002:7f00:1::]:${port}/`, // 6to4
    `http://[2002:7f00:0001:0:0:0:0:1]:${port}/`,
  ];
  for (const url of embedded) {
    it(`refuses ${url} before any connection`, async () => {
      const result = await createNodeWebFetchTool({ cacheTtlMs: 0 }).run({ url });
      // A connection attempt to ::7f00:1 would fail with a network error, not BLOCKED.
      expect(!result.success && result.error.code, url).toBe("BLOCKED");
      expect(!result.success && result.error.message).toMatch(/ is a (loopback|private) address/);
    });
  }

  for (const address of ["::7f00:1", "::127.0.0.1", "::a00:1", "2002:a00:1::1"]) {
    it(`refuses a name that resolves to ${address}`, async () => {
      const result = await createNodeWebFetchTool({
        cacheTtlMs: 0,
        resolver: async () => [{ address, family: 6 }],
      }).run({ url: `http://compatible.example:${port}/` });
      expect(!result.success && result.error.code).toBe("BLOCKED");
      expect(!result.success && result.error.message).toContain(`it resolves to ${address}`);
    });
  }
});

describe("opt-ins", () => {
  it("allowHosts lets a host (and optionally only a port) through", async () => {
    const allowed = await createNodeWebFetchTool({ allowHosts: [`127.0.0.1:${port}`] }).run({
      url: `${target.origin}/`,
    });
    expect(allowed.success && allowed.data.content).toBe("SECRET INTERNAL PAGE");
    const named = await createNodeWebFetchTool({
      allowHosts: ["*.corp.example"],
      resolver: toLoopback,
    }).run({
      url: `http://wiki.corp.example:${port}/`,
    });
    expect(named.success).toBe(true);
  });

  it("allowPrivate reaches loopback and localhost but never cloud metadata", async () => {
    const tool = createNodeWebFetchTool({ allowPrivate: true, cacheTtlMs: 0 });
    expect((await tool.run({ url: `http://localhost:${port}/` })).success).toBe(true);
    expect((await tool.run({ url: `http://[::ffff:127.0.0.1]:${port}/` })).success).toBe(true);
    const metadata = await tool.run({ url: "http://169.254.169.254/latest/meta-data/" });
    expect(!metadata.success && metadata.error.code).toBe("BLOCKED");
    const metadataName = await tool.run({ url: "http://metadata.google.internal/" });
    expect(!metadataName.success && metadataName.error.code).toBe("BLOCKED");
  });

  describe("newer metadata endpoints stay refused even with allowPrivate", () => {
    const options = { allowPrivate: true, connectTimeoutMs: 1_000 };
    for (const address of ["169.254.0.23", "169.254.170.23", "168.63.129.16"]) {
      it(`${address} as a literal and behind a name`, async () => {
        await expectBlocked(`http://${address}/latest/meta-data/`, options);
        await expectBlocked(`http://innocent.example:${port}/`, {
          ...options,
          resolver: async () => [{ address, family: 4 }],
        });
        expect(judgeAddress(address, { allowPrivate: true })).toEqual({
          allowed: false,
          range: "metadata",
        });
      });
    }
    it("metadata.tencentyun.com by name, whatever it resolves to", async () => {
      await expectBlocked(`http://metadata.tencentyun.com:${port}/`, {
        ...options,
        resolver: toLoopback,
      });
      await expectBlocked(`http://METADATA.tencentyun.com.:${port}/`, {
        ...options,
        resolver: toLoopback,
      });
    });
  });

  it("drops credentials headers on a cross-origin redirect", async () => {
    const echo = await startServer({
      "/echo": (request, response) => {
        response.writeHead(200, { "content-type": "application/json" });
        response.end(JSON.stringify({ authorization: request.headers.authorization ?? null }));
      },
    });
    const hop = await startServer({
      "/go": (_request, response) => {
        response.writeHead(302, { location: `http://localhost:${echo.port}/echo` });
        response.end();
      },
    });
    const tool = createNodeWebFetchTool({
      allowPrivate: true,
      headers: [{ origin: hop.origin, headers: { authorization: "Bearer host-secret" } }],
    });
    const result = await tool.run({ url: `${hop.origin}/go` });
    expect(result.success && JSON.parse(result.data.content)).toEqual({ authorization: null });
  });
});

describe("judgeAddress", () => {
  it.each([
    ["8.8.8.8", true, "unicast"],
    ["2606:4700:4700::1111", true, "unicast"],
    ["127.0.0.1", false, "loopback"],
    ["::ffff:10.0.0.1", false, "private"],
    ["64:ff9b::808:808", true, "unicast"],
    ["64:ff9b::a00:1", false, "private"],
    ["2002:7f00:1::", false, "loopback"],
    ["::7f00:1", false, "loopback"],
    ["::a00:1", false, "private"],
    ["::a9fe:a9fe", false, "metadata"],
    ["::808:808", true, "unicast"],
    ["::ffff:0:808:808", false, "rfc6145"], // IPv4-translated: refused whatever it embeds
    ["::1", false, "loopback"],
    ["::", false, "unspecified"],
    ["2001::1", false, "teredo"],
    ["169.254.169.254", false, "metadata"],
    ["fd00:ec2::254", false, "metadata"],
    ["192.0.2.1", false, "reserved"],
    ["not an address", false, "invalid"],
  ])("%s → allowed %s (%s)", (address, allowed, range) => {
    expect(judgeAddress(address)).toEqual({ allowed, range });
  });

  it("allowPrivate lifts private ranges only", () => {
    expect(judgeAddress("192.168.1.1", { allowPrivate: true }).allowed).toBe(true);
    expect(judgeAddress("fc00::1", { allowPrivate: true }).allowed).toBe(true);
    expect(judgeAddress("224.0.0.1", { allowPrivate: true }).allowed).toBe(false);
    expect(judgeAddress("169.254.169.254", { allowPrivate: true }).allowed).toBe(false);
  });
});

describe("redirect: manual", () => {
  it("returns a redirect as it came, its cookies one per line, for a caller that follows hops itself", async () => {
    const site = await startServer({
      "/login": (_request, response) => {
        response.writeHead(302, {
          location: "/home",
          "set-cookie": [
            "sid=abc; Path=/; Expires=Wed, 21 Oct 2037 07:28:00 GMT",
            "theme=dark; Path=/",
          ],
        });
        response.end();
      },
      "/home": (_request, response) => {
        response.writeHead(200, { "content-type": "text/plain" });
        response.end("home");
      },
    });
    const transport = createGuardedTransport({ allowHosts: [`127.0.0.1:${site.port}`] });
    try {
      const manual = await transport({
        url: `${site.origin}/login`,
        maxBytes: 1_000,
        redirect: "manual",
      });
      expect(manual.status).toBe(302);
      expect(manual.headers.location).toBe("/home");
      expect(manual.headers["set-cookie"]?.split("\n")).toEqual([
        "sid=abc; Path=/; Expires=Wed, 21 Oct 2037 07:28:00 GMT",
        "theme=dark; Path=/",
      ]);
      const followed = await transport({ url: `${site.origin}/login`, maxBytes: 1_000 });
      expect(followed.status).toBe(200);
      expect(followed.url).toBe(`${site.origin}/home`);
      // A manual redirect to a blocked address is returned, never followed: the caller's next hop
      // goes through the guard again.
      await expect(
        transport({ url: `http://127.0.0.1:${port}/`, maxBytes: 1_000, redirect: "manual" }),
      ).rejects.toMatchObject({ code: "BLOCKED" });
    } finally {
      await transport.close();
    }
  });
});
