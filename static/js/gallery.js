// The gallery's sound buttons play their sound (ui/tiles.html): a file, not an inline
// script, which the Content-Security-Policy refuses.
document.addEventListener("click", function (e) {
  var b = e.target.closest("[data-play]");
  if (b) window.MahjongSounds.play(b.dataset.play);
});
