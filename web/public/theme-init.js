// Runs before the app's modules. Applies the saved theme (default dark) before React loads, so the page never
// flashes the wrong colours; and sets Zod to jitless (below).
(function () {
  var theme = 'dark';
  try {
    var saved = window.localStorage.getItem('strongroom.theme');
    if (saved === 'light' || saved === 'dark') theme = saved;
  } catch (e) {
    /* storage blocked: keep the default */
  }
  var root = document.documentElement;
  root.classList.toggle('dark', theme === 'dark');
  root.style.colorScheme = theme;
})();

// The server's Content-Security-Policy forbids eval, so Zod's compiled fast path can never run here, and its
// `new Function` probe would be reported as a CSP violation on every page. Zod reads this shared setting when it
// loads, before any app module could set it (the bundle evaluates Zod ahead of the entry module's code).
window.__zod_globalConfig = Object.assign(window.__zod_globalConfig || {}, { jitless: true });
