// The language menu (base.html) submits as soon as a language is chosen, with the address
// as it is now, which htmx may have pushed since the page came (a replay's step). A file,
// not an onchange attribute, which the Content-Security-Policy refuses.
document.addEventListener("change", function (e) {
  var select = e.target.closest("select[data-submit-on-change]");
  if (!select) return;
  select.form.next.value = location.pathname + location.search;
  select.form.submit();
});
