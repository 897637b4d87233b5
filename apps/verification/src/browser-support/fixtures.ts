import type { Fixture } from "./entry-server.js";

/** The HTML page web_fetch turns into Markdown: a heading, a list, a table, code and a relative link. */
export const ARTICLE_HTML = `<!doctype html>
<html><head><title>Pump maintenance</title><style>body { color: red }</style></head>
<body>
<nav><a href="/">Home</a></nav>
<main>
<h1>Pump maintenance</h1>
<p>Check the <strong>pressure valve</strong> every <em>week</em>. See <a href="/manual/valves">the valve manual</a>.</p>
<h2>Steps</h2>
<ul><li>Close the inlet</li><li>Drain the tank</li></ul>
<table><thead><tr><th>Part</th><th>Interval</th></tr></thead>
<tbody><tr><td>Valve</td><td>7 days</td></tr><tr><td>Seal</td><td>90 days</td></tr></tbody></table>
<pre><code class="language-sh">pump --drain</code></pre>
<script>document.title = "scripted";</script>
</main>
</body></html>`;

/** The JSON document. */
export const DATA_JSON = JSON.stringify({
  pump: "P-100",
  pressure_bar: 4.5,
  parts: ["valve", "seal"],
});

/** The RSS 2.0 feed, two items. */
export const FEED_XML = `<?xml version="1.0" encoding="UTF-8"?>
<rss version="2.0"><channel>
<title>Plant news</title><link>https://plant.example/</link><description>News</description>
<item><title>Valve recall</title><link>https://plant.example/news/recall</link>
<pubDate>Mon, 06 Jan 2025 09:00:00 GMT</pubDate><description>Valves of batch 7 are recalled.</description></item>
<item><title>New seals</title><link>https://plant.example/news/seals</link>
<pubDate>Tue, 07 Jan 2025 09:00:00 GMT</pubDate><description>Seals now last 90 days.</description></item>
</channel></rss>`;

/** Every fixture by the path the entry server answers it at. */
export const FIXTURES: Readonly<Record<string, Fixture>> = {
  "/fixtures/article.html": { contentType: "text/html; charset=utf-8", body: ARTICLE_HTML },
  "/fixtures/data.json": { contentType: "application/json", body: DATA_JSON },
  "/fixtures/feed.xml": { contentType: "application/rss+xml", body: FEED_XML },
};
