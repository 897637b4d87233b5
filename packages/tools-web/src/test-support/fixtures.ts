/** An article page with navigation, a sidebar, a table, a code block and relative links. */
export const ARTICLE_HTML = `<!doctype html>
<html lang="en"><head><title>Tides &amp; Moons — Ocean Notes</title>
<style>body { color: red }</style><script>window.tracking = true;</script></head>
<body>
<nav class="site-nav"><a href="/">Home</a> <a href="/about">About us</a> <a href="/shop">NAVIGATION-SHOP-LINK</a></nav>
<aside class="sidebar"><h3>Sponsored</h3><p>SIDEBAR-ADVERT buy our boats now.</p></aside>
<main><article>
<h1>How the Moon drives the tides</h1>
<p>The Moon's gravity pulls the oceans into two bulges. As Earth turns beneath them, most coasts see
two high tides and two low tides every lunar day of about 24 hours and 50 minutes. See
<a href="../guides/spring-tides.html">spring tides</a> and <a href="https://other.example/neap">neap tides</a>.</p>
<p>When the Sun and Moon line up, their pulls add and the range grows: these are spring tides. When they
are at right angles, the pulls partly cancel: these are neap tides, with the smallest range of the month.</p>
<h2>Tidal ranges</h2>
<table><thead><tr><th>Place</th><th>Range (m)</th></tr></thead>
<tbody><tr><td>Bay of Fundy</td><td>16</td></tr><tr><td>Mediterranean</td><td>0.3</td></tr></tbody></table>
<ul><li>Diurnal tides: one high a day</li><li>Semidiurnal tides: two highs a day</li></ul>
<pre><code class="language-python">def tide(hours):
    return 2 * math.cos(hours / 12.42 * 2 * math.pi)
</code></pre>
<p>Coastal engineers model these cycles with harmonic constituents, summing dozens of cosine waves whose
periods come from astronomy. The largest constituent, M2, has a period of 12.42 hours.</p>
</article></main>
<footer>© Ocean Notes · <a href="/privacy">Privacy</a></footer>
</body></html>`;

/** An RSS 2.0 feed with CDATA and escaped HTML. */
export const RSS_FEED = `<?xml version="1.0" encoding="UTF-8"?>
<rss version="2.0"><channel><title>Ocean Notes</title><link>https://ocean.example/</link>
<item><title>Spring tides explained</title><link>https://ocean.example/spring</link>
<pubDate>Tue, 10 Jun 2025 09:00:00 GMT</pubDate><description><![CDATA[<p>When the <b>Sun</b> and Moon align.</p>]]></description></item>
<item><title>Neap &amp; tidal range</title><link>/neap</link><pubDate>Mon, 02 Jun 2025 09:00:00 GMT</pubDate>
<description>&lt;p&gt;Right angles make &lt;em&gt;small&lt;/em&gt; tides.&lt;/p&gt;</description></item>
</channel></rss>`;

/** An Atom feed. */
export const ATOM_FEED = `<?xml version="1.0" encoding="utf-8"?>
<feed xmlns="http://www.w3.org/2005/Atom"><title>Tide Log</title>
<entry><title type="html">First &lt;i&gt;entry&lt;/i&gt;</title><link rel="edit" href="https://log.example/edit/1"/>
<link rel="alternate" href="https://log.example/1"/><published>2025-05-01T12:00:00Z</published>
<summary>The first log entry.</summary></entry>
<entry><title>Second entry</title><link href="https://log.example/2"/><updated>2025-05-02T12:00:00Z</updated>
<content type="html">&lt;p&gt;Second &lt;b&gt;content&lt;/b&gt;&lt;/p&gt;</content></entry>
</feed>`;

/** A SearXNG `/search?format=json` response (recorded shape). */
export const SEARXNG_RESPONSE = {
  query: "tides",
  number_of_results: 0,
  results: [
    {
      url: "https://en.wikipedia.org/wiki/Tide",
      title: "Tide - Wikipedia",
      content:
        "Tides are the rise and fall of sea levels caused by the combined effects of the gravitational forces…",
      engine: "duckduckgo",
      engines: ["duckduckgo", "brave"],
      score: 4.5,
      category: "general",
    },
    { url: "javascript:alert(1)", title: "bad", content: "malformed" },
    { title: "no url at all", content: "malformed" },
    {
      url: "https://oceanservice.noaa.gov/facts/tides.html",
      title: "What are tides?",
      content:
        "Tides are very long-period waves that move through the oceans in response to the forces exerted by the moon and sun.",
      engine: "brave",
    },
  ],
  answers: [],
  corrections: [],
  infoboxes: [],
  suggestions: ["tides today", "tide tables"],
  unresponsive_engines: [],
};

/** A SearXNG response with no results but answers, an infobox and suggestions. */
export const SEARXNG_FALLBACK_RESPONSE = {
  query: "1 usd in eur",
  number_of_results: 0,
  results: [],
  answers: [{ answer: "1 USD = 0.92 EUR", url: null, engine: "currency" }, "plain string answer"],
  corrections: [],
  infoboxes: [
    {
      infobox: "Euro",
      id: "https://en.wikipedia.org/wiki/Euro",
      content:
        "The euro is the official currency of 20 of the 27 member states of the European Union.",
      urls: [{ title: "Official site", url: "https://www.ecb.europa.eu/euro/" }],
      engine: "wikipedia",
    },
  ],
  suggestions: ["usd eur exchange rate"],
  unresponsive_engines: [],
};

/** A Serper `/search` response (recorded shape). */
export const SERPER_RESPONSE = {
  searchParameters: { q: "tides", type: "search", engine: "google" },
  answerBox: {
    snippet: "Tides are caused by the Moon's gravity.",
    title: "Tides",
    link: "https://example.org",
  },
  organic: [
    {
      title: "Tide - Wikipedia",
      link: "https://en.wikipedia.org/wiki/Tide",
      snippet: "Tides are the rise and fall of sea levels…",
      position: 1,
    },
    { title: "Broken", link: 42, snippet: "malformed", position: 2 },
    {
      title: "Tides and Water Levels",
      link: "https://oceanservice.noaa.gov/education/tides/",
      snippet: "NOAA tutorial.",
      position: 3,
    },
  ],
  relatedSearches: [{ query: "tide times" }],
};

/** A Brave web search response (recorded shape). */
export const BRAVE_RESPONSE = {
  type: "search",
  query: { original: "tides", altered: "tides ocean" },
  web: {
    type: "search",
    results: [
      {
        title: "Tide - Wikipedia",
        url: "https://en.wikipedia.org/wiki/Tide",
        description: "<strong>Tides</strong> are the rise and fall of sea levels.",
        age: "2 days ago",
      },
      { title: "bad", url: "ftp://files.example/tides", description: "malformed" },
    ],
  },
};

/** A Tavily `/search` response (recorded shape). */
export const TAVILY_RESPONSE = {
  query: "tides",
  answer: "Tides are driven mostly by the Moon.",
  results: [
    {
      title: "Tide",
      url: "https://en.wikipedia.org/wiki/Tide",
      content: "Tides are the rise and fall of sea levels…",
      score: 0.98,
    },
    {
      title: "Tides",
      url: "https://oceanservice.noaa.gov/facts/tides.html",
      content: "Very long-period waves.",
      score: 0.9,
    },
    null,
  ],
  response_time: 1.02,
};

/** A Wikipedia `action=query&list=search` response for a language. */
export function wikipediaResponse(language: string, titles: readonly string[]): unknown {
  return {
    batchcomplete: true,
    continue: { sroffset: titles.length, continue: "-||" },
    query: {
      searchinfo: { totalhits: titles.length },
      search: titles.map((title, index) => ({
        ns: 0,
        title,
        pageid: 1000 + index,
        size: 5000,
        wordcount: 700,
        snippet: `<span class="searchmatch">${title}</span> is an article in ${language} &amp; more`,
        timestamp: "2025-06-01T00:00:00Z",
      })),
    },
  };
}
