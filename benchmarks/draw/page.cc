#include "page.h"

#include "absl/strings/str_cat.h"
#include "absl/strings/str_replace.h"

namespace kvdraw {
namespace {

std::string Escape(const std::string& text) {
  return absl::StrReplaceAll(
      text, {{"&", "&amp;"}, {"<", "&lt;"}, {">", "&gt;"}, {"\"", "&quot;"}});
}

// The <svg> element alone: the XML declaration and doctype dot writes
// before it are not allowed inside HTML.
std::string SvgElement(const std::string& svg) {
  const size_t start = svg.find("<svg");
  return start == std::string::npos ? svg : svg.substr(start);
}

constexpr char kStyle[] = R"(<style>
body { font-family: Helvetica, Arial, sans-serif; margin: 0; display: flex; }
#side { width: 22em; padding: 1em; background: #f3f5f9; min-height: 100vh;
        box-sizing: border-box; flex: none; }
#main { padding: 1em; overflow: auto; flex: auto; }
#side h1 { font-size: 1.1em; margin: 0 0 .6em 0; }
#side button { font-size: 1em; margin-right: .3em; }
#op { font-family: monospace; font-size: 1.1em; margin: .8em 0 .3em 0; }
.label { color: #667; font-size: .85em; margin-top: .7em; }
#ops { font-family: monospace; font-size: .85em; padding-left: 2.5em;
       max-height: 50vh; overflow: auto; }
#ops li { cursor: pointer; }
#ops li.current { background: #cfe0ff; }
#errors { color: #b00; white-space: pre-wrap; font-family: monospace; }
</style>
)";

constexpr char kScript[] = R"(<script>
window.onerror = function (message, source, line) {
  document.getElementById('errors').textContent +=
      'script error: ' + message + ' (line ' + line + ')\n';
};
(function () {
  var steps = document.querySelectorAll('#main .step');
  var items = document.querySelectorAll('#ops li');
  var current = 0;
  var timer = null;
  function show(i) {
    if (steps.length === 0) return;
    current = Math.max(0, Math.min(steps.length - 1, i));
    for (var k = 0; k < steps.length; k++) {
      steps[k].hidden = k !== current;
      items[k].className = k === current ? 'current' : '';
    }
    var step = steps[current];
    document.getElementById('counter').textContent =
        'step ' + (current + 1) + ' of ' + steps.length;
    document.getElementById('op').textContent = step.dataset.op;
    document.getElementById('result').textContent = step.dataset.result;
    document.getElementById('change').textContent =
        step.dataset.change || 'no change to the structure';
    document.getElementById('summary').textContent = step.dataset.summary;
    document.body.dataset.step = String(current + 1);
    if (location.hash !== '#step=' + (current + 1)) {
      history.replaceState(null, '', '#step=' + (current + 1));
    }
  }
  function stop() {
    if (timer !== null) clearInterval(timer);
    timer = null;
    document.getElementById('play').textContent = 'play';
  }
  document.getElementById('prev').onclick = function () {
    stop(); show(current - 1);
  };
  document.getElementById('next').onclick = function () {
    stop(); show(current + 1);
  };
  document.getElementById('play').onclick = function () {
    if (timer !== null) { stop(); return; }
    if (current === steps.length - 1) show(0);
    document.getElementById('play').textContent = 'pause';
    timer = setInterval(function () {
      if (current >= steps.length - 1) { stop(); return; }
      show(current + 1);
    }, 1000);
  };
  for (var k = 0; k < items.length; k++) {
    items[k].onclick = (function (i) {
      return function () { stop(); show(i); };
    })(k);
  }
  document.addEventListener('keydown', function (e) {
    if (e.key === 'ArrowLeft') document.getElementById('prev').click();
    if (e.key === 'ArrowRight') document.getElementById('next').click();
  });
  var match = /step=(\d+)/.exec(location.hash);
  show(match ? parseInt(match[1], 10) - 1 : 0);
  var clicks = /[?&]clicks=([a-z,]+)/.exec(location.search);
  if (clicks) {
    clicks[1].split(',').forEach(function (name) {
      var button = document.getElementById(name);
      if (button === null) throw new Error('no button ' + name);
      button.click();
    });
  }
})();
</script>
)";

}  // namespace

std::string PageHtml(const std::string& store_spec,
                     const std::vector<PageStep>& steps) {
  std::string out = absl::StrCat(
      "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
      "<title>kvlab-draw: ",
      Escape(store_spec), "</title>\n", kStyle, "</head>\n<body>\n",
      "<div id=\"side\">\n<h1>kvlab-draw: ", Escape(store_spec), "</h1>\n",
      "<button id=\"prev\">previous</button><button id=\"next\">next</button>"
      "<button id=\"play\">play</button>\n<div id=\"counter\"></div>\n"
      "<div class=\"label\">operation</div><div id=\"op\"></div>\n"
      "<div class=\"label\">answer</div><div id=\"result\"></div>\n"
      "<div class=\"label\">structure</div><div id=\"change\"></div>\n"
      "<div class=\"label\">store</div><div id=\"summary\"></div>\n"
      "<div id=\"errors\"></div>\n"
      "<div class=\"label\">operations</div>\n<ol id=\"ops\">\n");
  for (const PageStep& step : steps) {
    absl::StrAppend(&out, "<li>", Escape(step.operation), "</li>\n");
  }
  out += "</ol>\n</div>\n<div id=\"main\">\n";
  for (size_t i = 0; i < steps.size(); ++i) {
    const PageStep& step = steps[i];
    absl::StrAppend(
        &out, "<div class=\"step\" id=\"step-", i + 1, "\" data-op=\"",
        Escape(step.operation), "\" data-result=\"", Escape(step.result),
        "\" data-change=\"", Escape(step.change), "\" data-summary=\"",
        Escape(step.summary), "\"", i == 0 ? "" : " hidden", ">\n",
        SvgElement(step.svg), "</div>\n");
  }
  out += "</div>\n";
  out += kScript;
  out += "</body>\n</html>\n";
  return out;
}

}  // namespace kvdraw
