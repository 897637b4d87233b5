/**
 * The WebRTC wall: a classic script, run ahead of every artifact script (the Chromium backend's
 * context init script, which also runs in the artifact's child frames, and the prelude of the
 * artifact's document in both backends). It replaces every WebRTC entry point of the window with
 * a stub whose construction and static methods throw `NotSupportedError`, as read-only,
 * non-configurable properties the artifact can neither delete nor redefine: a peer connection
 * would send UDP (STUN / TURN) to any address and port, past every request interception. It runs
 * once per window: a second run finds the stubs in place and stops.
 */
export const WEBRTC_WALL_SOURCE = `(function () {
  "use strict";
  var names = ["RTCPeerConnection", "webkitRTCPeerConnection", "RTCDataChannel", "RTCRtpSender", "RTCRtpReceiver", "RTCRtpTransceiver"];
  var installed = Object.getOwnPropertyDescriptor(window, names[0]);
  if (installed !== undefined && installed.configurable === false) return;
  function refuse(name) {
    throw new DOMException(name + " is disabled in preview: WebRTC would reach the network.", "NotSupportedError");
  }
  names.forEach(function (name) {
    var stub = function () { refuse(name); };
    ["getCapabilities", "generateCertificate"].forEach(function (method) {
      Object.defineProperty(stub, method, { value: function () { refuse(name); } });
    });
    Object.freeze(stub.prototype);
    Object.freeze(stub);
    Object.defineProperty(window, name, { value: stub, writable: false, enumerable: false, configurable: false });
  });
})();`;
