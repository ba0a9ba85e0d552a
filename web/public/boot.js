// Runs before the app's module and before paint; a file, not an inline script, because the page's
// Content-Security-Policy allows scripts from 'self' only (issue 23, docs/security-headers.md).
(function () {
  // Seed 000 §1: dark by default, follows the system, kept as `uicolor`; set before paint (no flash).
  var m = null;
  try { m = localStorage.getItem("uicolor"); } catch (e) {}
  if (m !== "light" && m !== "dark") m = window.matchMedia && window.matchMedia("(prefers-color-scheme: light)").matches ? "light" : "dark";
  document.documentElement.dataset.theme = m;
  // The per-answer style nonce `spotdesk serve` writes into the page: react-remove-scroll (Radix
  // dialogs) reads it as __webpack_nonce__ for the <style> it inserts while a dialog is open.
  var meta = document.querySelector('meta[property="csp-nonce"]');
  if (meta && meta.nonce) window.__webpack_nonce__ = meta.nonce;
})();
