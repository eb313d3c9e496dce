// Applies the saved theme (default dark) before React loads, so the page never flashes the wrong colours.
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
