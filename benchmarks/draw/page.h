// index.html: one self-contained page that steps through the drawings.
//
// Every SVG is inlined and the script is in the page, so it opens from disk
// with no network. Buttons previous / next / play (and the arrow keys)
// move through the steps; the operation, the store's answer and what
// changed are shown beside the picture. The address may choose the step
// (index.html#step=3) or replay clicks on load (index.html?clicks=next,
// next,prev), which is how a test drives it in a headless browser. A
// script error is written into the page (the element #errors).

#ifndef KVLAB_DRAW_PAGE_H_
#define KVLAB_DRAW_PAGE_H_

#include <string>
#include <vector>

namespace kvdraw {

struct PageStep {
  std::string operation;  // "put \"b\" \"2\""
  std::string result;     // the store's answer
  std::string change;     // Change::summary
  std::string summary;    // the store's summary fields, one line
  std::string svg;        // the drawing, as dot wrote it
};

// The page's HTML for the drawings of `store_spec`.
std::string PageHtml(const std::string& store_spec,
                     const std::vector<PageStep>& steps);

}  // namespace kvdraw

#endif  // KVLAB_DRAW_PAGE_H_
