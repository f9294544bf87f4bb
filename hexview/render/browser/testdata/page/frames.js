// Times every animation-frame callback (vecty draws in them), before the program starts:
// window.hvFrames holds the duration of each, in milliseconds, on the page's own clock.
window.hvFrames = [];
const raf = window.requestAnimationFrame.bind(window);
window.hvRaf = raf; // for the test's own waiting, which is not timed
window.requestAnimationFrame = (cb) => raf((t) => {
  const start = performance.now();
  cb(t);
  window.hvFrames.push(performance.now() - start);
});
