/**
 * The Content-Security-Policy every host serves the renderer with. No inline script or style,
 * no eval, no remote origins: the renderer talks only to its own host.
 * The browser host sends it as a header; renderer/index.html carries the same policy in a meta tag
 * (pinned equal by a unit test) so the Electron window, loaded from file://, gets it too.
 */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "font-src 'self'",
  "connect-src 'self' ws://127.0.0.1:* ws://localhost:*",
  "base-uri 'none'",
  "form-action 'none'",
].join('; ');
