import { describe, expect, it } from "vitest";
import {
  checkRobots,
  matchesRobotsPattern,
  normalizeRobotsPath,
  parseRobotsTxt,
  productToken,
} from "./robots-txt.js";

const TOKEN = "agentool-tools-web";

describe("robots.txt parsing (RFC 9309)", () => {
  it("groups user-agent lines with their rules, keeps lines, ignores comments, unknown keys and orphans", () => {
    const robots = parseRobotsTxt(
      [
        "Disallow: /orphan # before any user-agent",
        "# a comment",
        "User-Agent: FooBot",
        "user-agent: BarBot/2.1",
        "Disallow: /foo",
        "Sitemap: https://example.com/sitemap.xml",
        "ALLOW: /foo/open",
        "Crawl-delay: 10",
        "",
        "User-agent: *",
        "Disallow:",
        "Disallow: /private # keep out",
      ].join("\r\n"),
    );
    expect(robots.groups).toHaveLength(2);
    const [named, star] = robots.groups;
    expect(named?.tokens).toEqual(["foobot", "barbot"]);
    expect(named?.rules.map((rule) => [rule.allow, rule.pattern, rule.line])).toEqual([
      [false, "/foo", 5],
      [true, "/foo/open", 7],
    ]);
    expect(star?.rules).toEqual([
      {
        allow: false,
        pattern: "/private",
        line: 12,
        text: "Disallow: /private",
        group: { line: 10, text: "User-agent: *" },
      },
    ]);
  });

  it("a user-agent line after rules starts a new group; consecutive ones share one", () => {
    const robots = parseRobotsTxt(
      "User-agent: a\nDisallow: /a\nUser-agent: b\nUser-agent: c\nDisallow: /bc\n",
    );
    expect(robots.groups.map((group) => group.tokens)).toEqual([["a"], ["b", "c"]]);
  });

  it("the product token is the leading letters, _ and -, lower-cased", () => {
    expect(productToken("agentool-tools-web/0.1 (LLM agent tool)")).toBe(TOKEN);
    expect(productToken("Mozilla/5.0 (X11)")).toBe("mozilla");
    expect(productToken("  Googlebot-Image ")).toBe("googlebot-image");
  });
});

describe("robots.txt matching", () => {
  it("* matches any run, a final $ anchors the end, everything else is a prefix", () => {
    expect(matchesRobotsPattern("/fish", "/fish.html")).toBe(true);
    expect(matchesRobotsPattern("/fish", "/Fish")).toBe(false);
    expect(matchesRobotsPattern("/fish*", "/fishheads/yummy.html")).toBe(true);
    expect(matchesRobotsPattern("/*.php", "/folder/filename.php?parameters")).toBe(true);
    expect(matchesRobotsPattern("/*.php$", "/folder/filename.php?parameters")).toBe(false);
    expect(matchesRobotsPattern("/*.php$", "/filename.php")).toBe(true);
    expect(matchesRobotsPattern("/fish*.php", "/fishheads/catfish.php?parameters")).toBe(true);
    expect(matchesRobotsPattern("/fish*.php", "/Fish.PHP")).toBe(false);
    expect(matchesRobotsPattern("/a*b*c$", "/abxbc")).toBe(true);
    expect(matchesRobotsPattern("/a*bc$", "/abc")).toBe(true);
    expect(matchesRobotsPattern("/a*bcb$", "/abcb")).toBe(true);
    expect(matchesRobotsPattern("/ab*b$", "/ab")).toBe(false);
    expect(matchesRobotsPattern("*", "/anything")).toBe(true);
    expect(matchesRobotsPattern("/$", "/")).toBe(true);
    expect(matchesRobotsPattern("/$", "/page")).toBe(false);
  });

  it("percent-encoding is normalised on both sides", () => {
    expect(normalizeRobotsPath("/%7euser/%2fx")).toBe("/~user/%2Fx");
    expect(normalizeRobotsPath("/naïve path")).toBe("/na%C3%AFve%20path");
    const robots = parseRobotsTxt("User-agent: *\nDisallow: /naïve\nDisallow: /%7Ejoe\n");
    expect(checkRobots(robots, TOKEN, "/na%C3%AFve/1").allowed).toBe(false);
    expect(checkRobots(robots, TOKEN, "/~joe/home").allowed).toBe(false);
  });

  it("the longest match decides, allow wins a tie, no match allows", () => {
    const robots = parseRobotsTxt(
      "User-agent: *\nDisallow: /docs/\nAllow: /docs/public/\nDisallow: /docs/public/secret\nAllow: /page\nDisallow: /page\n",
    );
    expect(checkRobots(robots, TOKEN, "/docs/x").allowed).toBe(false);
    expect(checkRobots(robots, TOKEN, "/docs/public/a").allowed).toBe(true);
    expect(checkRobots(robots, TOKEN, "/docs/public/secret/b")).toMatchObject({
      allowed: false,
      rule: { line: 4, text: "Disallow: /docs/public/secret" },
    });
    expect(checkRobots(robots, TOKEN, "/page").allowed).toBe(true);
    expect(checkRobots(robots, TOKEN, "/elsewhere")).toEqual({ allowed: true });
  });

  it("the crawler's own groups (combined) win over *, matched case-insensitively; /robots.txt is always allowed", () => {
    const robots = parseRobotsTxt(
      "User-agent: *\nDisallow: /\n\nUser-agent: Agentool-Tools-Web\nDisallow: /a\n\nUser-agent: agentool-tools-web/9\nDisallow: /b\n",
    );
    expect(checkRobots(robots, TOKEN, "/c").allowed).toBe(true);
    expect(checkRobots(robots, TOKEN, "/a").rule?.group.text).toBe(
      "User-agent: Agentool-Tools-Web",
    );
    expect(checkRobots(robots, TOKEN, "/b").rule?.group.line).toBe(7);
    expect(checkRobots(robots, "otherbot", "/c").rule?.group.text).toBe("User-agent: *");
    expect(checkRobots(robots, "otherbot", "/robots.txt").allowed).toBe(true);
    expect(checkRobots(parseRobotsTxt(""), TOKEN, "/x").allowed).toBe(true);
  });

  it("stays fast on a hostile file: 500 KiB of wildcard rules against a long path", () => {
    for (const pattern of [`/${"*a".repeat(20)}*b$`, `/*${"a".repeat(40)}b`]) {
      const rule = `Disallow: ${pattern}\n`;
      const text = `User-agent: *\n${rule.repeat(Math.floor((500 * 1_024) / rule.length))}`;
      const robots = parseRobotsTxt(text);
      const short = `/${"a".repeat(1_000)}`;
      let started = performance.now();
      expect(checkRobots(robots, TOKEN, short).allowed).toBe(true);
      expect(performance.now() - started).toBeLessThan(250);
      // Past the scan budget the path is judged disallowed, still in time.
      started = performance.now();
      expect(checkRobots(robots, TOKEN, `/${"a".repeat(16_000)}`)).toEqual({
        allowed: false,
        tooComplex: true,
      });
      expect(performance.now() - started).toBeLessThan(250);
    }
  });
});
