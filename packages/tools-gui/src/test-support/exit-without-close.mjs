// Starts a display with an app (that has a child of its own) from the built package, prints the
// process-group ids and the cookie's file and exits without closing it: the package's exit hook
// must stop both groups and remove the cookie. With the argument "accessibility" the display has
// its session bus and AT-SPI too, whose group must go as well.
import { startXvfbDisplay } from "../../dist/node/index.js";

const display = await startXvfbDisplay({
  width: 320,
  height: 240,
  accessibility: process.argv[2] === "accessibility",
  app: { command: "sh", args: ["-c", "sleep 6071 & exec sleep 6072"], waitForWindow: false },
});
console.log(
  JSON.stringify({
    server: display.serverPid,
    app: display.appPid,
    bus: display.busPid,
    name: display.name,
    authority: display.authorityFile,
  }),
);
process.exit(0);
