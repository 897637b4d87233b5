/**
 * The driver: plain JavaScript injected ahead of the artifact's own code, in both backends. It
 * records console output and uncaught errors, shims `localStorage` / `sessionStorage` when the
 * opaque origin refuses them, keeps WebGL drawing buffers, cancels navigation away from the
 * artifact, and answers the op engine's calls (read, eval, locate, act, shot, drain) — through
 * `globalThis[Symbol.for("agentool.preview.driver")]` (Node backend, via CDP) or `postMessage`
 * (iframe backend, with the session's channel token).
 *
 * Kept as a string (not a compiled function) so no build step can inject helpers into it.
 * `__CONFIG__` is replaced with a JSON object `{ channel, maxEntries, maxEntryCharacters }`.
 */
export const DRIVER_SOURCE = `(function () {
  "use strict";
  var config = __CONFIG__;
  var key = Symbol.for("agentool.preview.driver");
  if (globalThis[key]) return;
  var entries = [];
  var omitted = 0;
  var nativeConsole = {};
  var hiddenPrototype = Object.getPrototypeOf;

  function clip(text, limit) {
    text = String(text);
    return text.length > limit ? text.slice(0, limit) + "… (" + (text.length - limit) + " more characters)" : text;
  }
  function describe(value) {
    if (typeof value === "string") return value;
    if (value instanceof Error) return (value.name || "Error") + ": " + value.message;
    if (typeof value === "undefined") return "undefined";
    if (typeof value === "function") return "[function " + (value.name || "anonymous") + "]";
    if (typeof value === "symbol" || typeof value === "bigint") return String(value);
    try {
      if (typeof Node !== "undefined" && value instanceof Node) return "<" + (value.nodeName || "node").toLowerCase() + ">";
      var seen = [];
      var json = JSON.stringify(value, function (k, v) {
        if (typeof v === "object" && v !== null) {
          if (seen.indexOf(v) !== -1) return "[circular]";
          seen.push(v);
        }
        if (typeof v === "bigint") return String(v);
        return v;
      });
      return json === undefined ? String(value) : json;
    } catch (error) {
      return String(value);
    }
  }
  function record(level, text) {
    text = clip(text, config.maxEntryCharacters);
    var last = entries[entries.length - 1];
    if (last && last.level === level && last.text === text) {
      last.count += 1;
      return;
    }
    if (entries.length >= config.maxEntries) {
      omitted += 1;
      return;
    }
    entries.push({ level: level, text: text, count: 1 });
  }
  ["log", "info", "warn", "error", "debug"].forEach(function (level) {
    var original = console[level];
    nativeConsole[level] = original;
    console[level] = function () {
      var parts = [];
      for (var index = 0; index < arguments.length; index++) parts.push(describe(arguments[index]));
      record(level, parts.join(" "));
      try { return original.apply(console, arguments); } catch (error) { return undefined; }
    };
  });
  addEventListener("error", function (event) {
    if (event.target && event.target !== window && event.target.tagName) {
      record("error", "failed to load <" + event.target.tagName.toLowerCase() + "> " + (event.target.src || event.target.href || ""));
      return;
    }
    var where = event.lineno ? " (line " + event.lineno + (event.colno ? ":" + event.colno : "") + ")" : "";
    record("uncaught", (event.error ? describe(event.error) : event.message || "error") + where);
  }, true);
  addEventListener("unhandledrejection", function (event) {
    record("uncaught", "unhandled rejection: " + describe(event.reason));
  });
  document.addEventListener("securitypolicyviolation", function (event) {
    record("blocked", "no network in preview: " + event.effectiveDirective + " refused " + (event.blockedURI || "(inline)") + " — inline the content or use a data: URL");
  });

  // Storage: opaque origins throw on access; an in-memory shim keeps artifacts that save state working.
  function memoryStorage() {
    var data = new Map();
    var storage = {
      getItem: function (name) { name = String(name); return data.has(name) ? data.get(name) : null; },
      setItem: function (name, value) { data.set(String(name), String(value)); },
      removeItem: function (name) { data.delete(String(name)); },
      clear: function () { data.clear(); },
      key: function (index) { var keys = Array.from(data.keys()); return index < keys.length ? keys[index] : null; },
    };
    Object.defineProperty(storage, "length", { get: function () { return data.size; } });
    return storage;
  }
  ["localStorage", "sessionStorage"].forEach(function (name) {
    var works = false;
    try { works = !!window[name]; } catch (error) { works = false; }
    if (!works) {
      var shim = memoryStorage();
      try { Object.defineProperty(window, name, { configurable: true, get: function () { return shim; } }); } catch (error) {}
    }
  });

  // WebGL keeps its drawing buffer so a shot after the frame still sees the pixels.
  var getContext = HTMLCanvasElement.prototype.getContext;
  HTMLCanvasElement.prototype.getContext = function (type, attributes) {
    if (type === "webgl" || type === "webgl2" || type === "experimental-webgl") {
      var merged = Object.assign({}, attributes || {}, { preserveDrawingBuffer: true });
      return getContext.call(this, type, merged);
    }
    return getContext.apply(this, arguments);
  };

  // Navigation away from the artifact, popups and form submissions are cancelled (the network
  // layer refuses them as well); fragment links still work.
  document.addEventListener("click", function (event) {
    var node = event.target;
    while (node && node.nodeType === 1 && node.tagName !== "A" && node.tagName !== "AREA") node = node.parentNode;
    if (!node || node.nodeType !== 1) return;
    var href = node.getAttribute("href");
    if (href === null || href.charAt(0) === "#") return;
    event.preventDefault();
    record("blocked", "navigation to " + href + " cancelled: the preview shows only this artifact");
  }, true);
  document.addEventListener("submit", function (event) {
    event.preventDefault();
    record("blocked", "form submission cancelled: the preview has no network");
  }, true);
  try {
    window.open = function (url) {
      record("blocked", "window.open(" + describe(url) + ") refused: the preview has no network");
      return null;
    };
  } catch (error) {}
  if (typeof navigation !== "undefined" && navigation && navigation.addEventListener) {
    navigation.addEventListener("navigate", function (event) {
      if (event.hashChange || event.navigationType === "reload") return;
      if (event.cancelable) {
        event.preventDefault();
        record("blocked", "navigation to " + event.destination.url + " cancelled: the preview shows only this artifact");
      }
    });
  }

  // Console output handed to the host waits here until the host acknowledges it (the next call
  // carries the number of the last batch it received): an answer lost to a cut-off call (a
  // timeout, an abort) is handed out again with the next one instead of vanishing.
  var unacknowledged = null;
  var nextBatch = 1;
  function drain(acknowledged) {
    var pending = unacknowledged;
    if (pending && typeof acknowledged === "number" && acknowledged >= pending.batch) pending = null;
    var merged = pending ? pending.entries.concat(entries) : entries;
    var lost = (pending ? pending.omitted : 0) + omitted;
    if (merged.length > config.maxEntries) {
      lost += merged.length - config.maxEntries;
      merged = merged.slice(0, config.maxEntries);
    }
    unacknowledged = { batch: nextBatch++, entries: merged, omitted: lost };
    entries = [];
    omitted = 0;
    return unacknowledged;
  }

  function answer(element, attr, limit) {
    var value;
    if (attr === "text") value = element.innerText !== undefined && element.innerText !== null ? element.innerText : element.textContent;
    else if (attr === "html") value = element.outerHTML;
    else if (attr === "value") value = "value" in element ? element.value : element.getAttribute("value");
    else value = element.getAttribute(attr);
    if (value === null || value === undefined) return null;
    value = String(value);
    return value.length > limit ? { text: value.slice(0, limit), total: value.length } : { text: value, total: value.length };
  }
  function read(queries, limits) {
    return queries.map(function (query) {
      var attr = query.attr || "text";
      var list;
      try { list = document.querySelectorAll(query.css); } catch (error) {
        return { css: query.css, attr: attr, error: "invalid CSS selector: " + error.message };
      }
      var values = [];
      var cut = false;
      for (var index = 0; index < list.length && index < limits.maxMatches; index++) {
        var item = answer(list[index], attr, limits.maxCharacters);
        if (item && item.total > item.text.length) cut = true;
        values.push(item);
      }
      return { css: query.css, attr: attr, count: list.length, values: values, cut: cut };
    });
  }

  function safeJson(value, limit) {
    var seen = [];
    var json;
    try {
      json = JSON.stringify(value, function (k, v) {
        if (typeof v === "bigint") return String(v) + "n";
        if (typeof v === "function") return "[function " + (v.name || "anonymous") + "]";
        if (typeof v === "symbol") return String(v);
        if (typeof v === "number" && !isFinite(v)) return String(v);
        if (typeof v === "object" && v !== null) {
          if (typeof Node !== "undefined" && v instanceof Node) return "<" + (v.nodeName || "node").toLowerCase() + ">";
          if (v instanceof Error) return (v.name || "Error") + ": " + v.message;
          if (seen.indexOf(v) !== -1) return "[circular]";
          seen.push(v);
          if (v instanceof Map) return { "[map]": Array.from(v.entries()) };
          if (v instanceof Set) return { "[set]": Array.from(v.values()) };
        }
        return v;
      });
    } catch (error) {
      json = JSON.stringify(describe(value));
    }
    if (json === undefined) return { json: undefined, total: 0 };
    return json.length > limit ? { json: json.slice(0, limit), total: json.length } : { json: json, total: json.length };
  }
  var AsyncFunction = hiddenPrototype(async function () {}).constructor;
  function evaluate(code, limit) {
    var run;
    try { run = new AsyncFunction(code); } catch (error) {
      return Promise.resolve({ error: "SyntaxError: " + error.message });
    }
    return Promise.resolve().then(function () { return run.call(window); }).then(function (value) {
      var out = safeJson(value, limit);
      return { json: out.json, total: out.total, type: value === null ? "null" : typeof value };
    }, function (error) {
      return { error: describe(error), stack: error && error.stack ? clip(error.stack, 2000) : undefined };
    });
  }

  function locate(selector) {
    var element;
    try { element = document.querySelector(selector); } catch (error) {
      return { error: "invalid CSS selector: " + error.message };
    }
    if (!element) return { error: "no element matches " + selector };
    if (element.scrollIntoView) element.scrollIntoView({ block: "center", inline: "center" });
    var rect = element.getBoundingClientRect();
    if (rect.width === 0 && rect.height === 0) return { error: selector + " matches an element with no size (hidden?)" };
    return { x: rect.left + rect.width / 2, y: rect.top + rect.height / 2 };
  }

  var CODES = { " ": "Space", Enter: "Enter", Escape: "Escape", Tab: "Tab", Backspace: "Backspace", ArrowUp: "ArrowUp", ArrowDown: "ArrowDown", ArrowLeft: "ArrowLeft", ArrowRight: "ArrowRight", Shift: "ShiftLeft", Control: "ControlLeft", Alt: "AltLeft", Meta: "MetaLeft" };
  function codeOf(name) {
    if (CODES[name]) return CODES[name];
    if (/^[a-zA-Z]$/.test(name)) return "Key" + name.toUpperCase();
    if (/^[0-9]$/.test(name)) return "Digit" + name;
    return name;
  }
  function keyTarget() { return document.activeElement || document.body || document.documentElement; }
  function pointer(x, y) {
    var target = document.elementFromPoint(x, y) || document.body;
    var init = { bubbles: true, cancelable: true, composed: true, clientX: x, clientY: y, button: 0, view: window };
    target.dispatchEvent(new PointerEvent("pointerdown", Object.assign({ pointerId: 1, isPrimary: true, buttons: 1 }, init)));
    target.dispatchEvent(new MouseEvent("mousedown", Object.assign({ buttons: 1 }, init)));
    if (target.focus) target.focus();
    target.dispatchEvent(new PointerEvent("pointerup", Object.assign({ pointerId: 1, isPrimary: true }, init)));
    target.dispatchEvent(new MouseEvent("mouseup", init));
    target.dispatchEvent(new MouseEvent("click", init));
  }
  function press(name) {
    var target = keyTarget();
    var init = { key: name, code: codeOf(name), bubbles: true, cancelable: true, composed: true };
    var allowed = target.dispatchEvent(new KeyboardEvent("keydown", init));
    if (allowed && name.length === 1) insertText(target, name);
    if (allowed && name === "Enter" && target.form && target.tagName === "INPUT") {
      record("blocked", "form submission cancelled: the preview has no network");
    }
    target.dispatchEvent(new KeyboardEvent("keyup", init));
  }
  function insertText(target, text) {
    if (target.isContentEditable) {
      target.textContent += text;
      target.dispatchEvent(new InputEvent("input", { bubbles: true, data: text, inputType: "insertText" }));
      return;
    }
    if (target.tagName === "INPUT" || target.tagName === "TEXTAREA") {
      target.value += text;
      target.dispatchEvent(new InputEvent("input", { bubbles: true, data: text, inputType: "insertText" }));
    }
  }
  function sleep(ms) { return new Promise(function (resolve) { setTimeout(resolve, ms); }); }
  function frame() { return new Promise(function (resolve) { requestAnimationFrame(function () { resolve(); }); setTimeout(resolve, 50); }); }
  async function act(actions) {
    for (var index = 0; index < actions.length; index++) {
      var action = actions[index];
      if (action.type === "click") {
        var x = action.x, y = action.y;
        if (action.selector !== undefined) {
          var found = locate(action.selector);
          if (found.error) return { completed: index, failed: { index: index, message: found.error } };
          x = found.x; y = found.y;
        }
        pointer(x, y);
      } else if (action.type === "key") {
        press(action.key);
      } else if (action.type === "type") {
        for (var c = 0; c < action.text.length; c++) press(action.text.charAt(c));
      } else if (action.type === "scroll") {
        var at = document.elementFromPoint(innerWidth / 2, innerHeight / 2) || document.body;
        at.dispatchEvent(new WheelEvent("wheel", { bubbles: true, cancelable: true, deltaX: action.dx, deltaY: action.dy, clientX: innerWidth / 2, clientY: innerHeight / 2 }));
        window.scrollBy(action.dx, action.dy);
      } else if (action.type === "wait") {
        await sleep(action.ms);
      }
      await frame();
    }
    return { completed: actions.length };
  }

  function largestCanvas() {
    var best = null;
    var canvases = document.querySelectorAll("canvas");
    for (var index = 0; index < canvases.length; index++) {
      var canvas = canvases[index];
      if (!best || canvas.width * canvas.height > best.width * best.height) best = canvas;
    }
    return { canvas: best, count: canvases.length };
  }
  function label(element) {
    if (element.id) return "canvas#" + element.id;
    var all = Array.prototype.indexOf.call(document.querySelectorAll("canvas"), element);
    return "canvas:nth-of-type(" + (all + 1) + ")";
  }
  function shot(maxSide) {
    var found = largestCanvas();
    var canvas = found.canvas;
    if (!canvas || canvas.width === 0 || canvas.height === 0) return { source: "viewport", canvases: found.count, width: innerWidth, height: innerHeight };
    var width = canvas.width, height = canvas.height;
    var scale = Math.min(1, maxSide / Math.max(width, height));
    var target = canvas;
    if (scale < 1) {
      target = document.createElement("canvas");
      target.width = Math.max(1, Math.round(width * scale));
      target.height = Math.max(1, Math.round(height * scale));
      target.getContext("2d").drawImage(canvas, 0, 0, target.width, target.height);
    }
    var url;
    try { url = target.toDataURL("image/png"); } catch (error) {
      return { source: "canvas", error: "the canvas cannot be read: " + error.message };
    }
    return { source: "canvas", selector: label(canvas), canvases: found.count, width: target.width, height: target.height, canvas_width: width, canvas_height: height, data: url.slice(url.indexOf(",") + 1) };
  }
  function summary() {
    var found = largestCanvas();
    return { title: document.title, canvases: found.count, width: innerWidth, height: innerHeight, ready: document.readyState };
  }

  function loaded() {
    // The load event, or 1 s after the DOM is parsed when a cancelled navigation stopped the
    // document's loading (its load event then never comes).
    return new Promise(function (resolve) {
      if (document.readyState === "complete") return resolve();
      addEventListener("load", function () { resolve(); }, { once: true });
      var afterParse = function () { setTimeout(resolve, 1000); };
      if (document.readyState === "interactive") afterParse();
      else document.addEventListener("DOMContentLoaded", afterParse, { once: true });
    }).then(summary);
  }
  function withConsole(method, args, acknowledged) {
    return Promise.resolve(api[method].apply(null, args || [])).then(function (value) {
      return { value: value, console: drain(acknowledged) };
    });
  }

  var api = { loaded: loaded, withConsole: withConsole, drain: drain, read: read, evaluate: evaluate, locate: locate, act: act, shot: shot, summary: summary, ping: function () { return true; }, settle: frame };
  Object.defineProperty(globalThis, key, { value: api, enumerable: false, configurable: false, writable: false });

  if (config.channel && window.parent && window.parent !== window && window.parent.parent !== window.parent) {
    // The host is the shell's parent: host → shell frame → this frame.
    var parentWindow = window.parent.parent;
    addEventListener("message", function (event) {
      var message = event.data;
      if (event.source !== parentWindow || !message || message.channel !== config.channel || typeof message.method !== "string") return;
      event.stopImmediatePropagation();
      var method = api[message.method];
      Promise.resolve().then(function () { return method.apply(null, message.args || []); }).then(function (value) {
        parentWindow.postMessage({ channel: config.channel, id: message.id, value: value }, "*");
      }, function (error) {
        parentWindow.postMessage({ channel: config.channel, id: message.id, error: describe(error) }, "*");
      });
    }, true);
  }
})();`;
