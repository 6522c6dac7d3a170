// A sign-in link carries its token after "#": take it out of the address (and
// so out of the history) before anything else, then post it once.
(function () {
  var token = decodeURIComponent(window.location.hash.slice(1));
  if (!token) return;
  history.replaceState(null, "", window.location.pathname);
  var form = document.getElementById("sign-in-link");
  form.elements.token.value = token;
  form.submit();
})();
