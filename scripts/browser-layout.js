// Measures a loaded report in the browser (scripts/browser-check.sh injects it into a copy of
// the page; the report itself has no script) and writes what it found as JSON into
// a pre element whose id is browser-layout:
//   - colours: every series element (class series-N) whose tooltip, or its group's, names a
//     policy of the page (a run's headline swatches, a sweep's trade-off legend, a study's
//     share-best bars), and every legend entry naming one, is
//     drawn in that policy's colour (the computed --series); each policy has one colour, and
//     no two policies share one;
//   - precision: within a panel (a chart, or a small multiple of one), the value labels'
//     numbers at each position (the first number of each label, the second...) have one
//     number of decimals;
//   - labels: no chart text is clipped by its chart's edge or cut with an ellipsis, and no
//     two texts of a chart overlap (their boxes share more than 3 px each way).
(function () {
  const problems = [];
  const charts = Array.from(document.querySelectorAll("svg.chart"));
  const series = (element) => {
    const match = (element.getAttribute("class") || "").match(/\bseries-(\d+)\b/);
    return match ? match[1] : null;
  };
  const colour = (element) => getComputedStyle(element).getPropertyValue("--series").trim();
  // A label's policy: its text less a key's number (`2: `), up to a comma, colon or bracket.
  const nameOf = (text) => text.replace(/^\d+: /, "").split(/[,:]|\s\(/)[0].trim();

  // The policies of the page.
  const names = new Set();
  document.querySelectorAll("span.swatch").forEach((swatch) => {
    const next = swatch.nextSibling;
    const name = next ? next.textContent.trim().split(/\s/)[0] : "";
    if (name) names.add(name);
  });
  const drawn = new Map(); // name -> Set of colours
  const record = (name, value, where) => {
    if (!drawn.has(name)) drawn.set(name, new Map());
    drawn.get(name).set(value, where);
  };
  // Each legend entry: its label and the coloured symbol before it.
  const legendEntries = [];
  document.querySelectorAll("svg.chart g.legend").forEach((legend) => {
    let last = null;
    for (const child of legend.children) {
      if (child.tagName.toLowerCase() === "text") {
        if (last !== null) legendEntries.push([nameOf(child.textContent), last, legend]);
        last = null;
      } else if (series(child) !== null) {
        last = child;
      }
    }
  });
  // The policies: a run's headline swatches, a sweep's compared presets (its trade-off
  // legend), a study's share-best bars. A page without (a fit's) has none to check.
  for (const [name, , legend] of legendEntries) {
    if (legend.closest("svg").id === "sweep-tradeoff") names.add(name);
  }
  document.querySelectorAll("svg#robust-share-best rect.bar").forEach((bar) => {
    const title = bar.querySelector("title");
    if (title) names.add(nameOf(title.textContent));
  });
  for (const [name, symbol, legend] of legendEntries) {
    if (names.has(name)) record(name, colour(symbol), "legend of #" + legend.closest("svg").id);
  }
  const byLength = Array.from(names).sort((a, b) => b.length - a.length);
  const escape = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  const patterns = byLength.map((name) => [
    name,
    new RegExp("(^|[\\s(])" + escape(name) + "([:,\\s)]|$)"),
  ]);
  const policyOf = (text) => {
    for (const [name, pattern] of patterns) if (pattern.test(text)) return name;
    return null;
  };
  for (const chart of charts) {
    for (const element of chart.querySelectorAll("*")) {
      if (series(element) === null) continue;
      let title = null;
      for (const child of element.children) if (child.tagName.toLowerCase() === "title") title = child;
      if (title === null) {
        const group = element.parentElement.closest("g");
        if (group && group.firstElementChild && group.firstElementChild.tagName.toLowerCase() === "title") {
          title = group.firstElementChild;
        }
      }
      if (title === null) continue;
      const name = policyOf(title.textContent);
      if (name !== null) record(name, colour(element), "#" + chart.id);
    }
  }
  const owners = new Map();
  for (const [name, colours] of drawn) {
    if (colours.size > 1) {
      problems.push(
        "colour: " + name + " is drawn in " + Array.from(colours.keys()).join(" and ") + " (" +
          Array.from(colours.values()).join(", ") + ")"
      );
    }
    for (const value of colours.keys()) {
      if (!owners.has(value)) owners.set(value, []);
      owners.get(value).push(name);
    }
  }
  for (const [value, sharing] of owners) {
    if (sharing.length > 1) problems.push("colour: " + sharing.join(" and ") + " share " + value);
  }

  // One precision per panel.
  let panels = 0;
  for (const chart of charts) {
    const multiples = Array.from(chart.querySelectorAll("g.small-multiple"));
    const groups = multiples.length > 0 ? multiples : [chart];
    for (const panel of groups) {
      const labels = Array.from(panel.querySelectorAll("text.value-label"));
      if (labels.length === 0) continue;
      panels += 1;
      const decimals = new Map(); // position -> Map(decimals -> example)
      for (const label of labels) {
        const numbers = label.textContent.match(/\d+(?:\.\d+)?/g) || [];
        numbers.forEach((number, position) => {
          const digits = number.includes(".") ? number.split(".")[1].length : 0;
          if (!decimals.has(position)) decimals.set(position, new Map());
          decimals.get(position).set(digits, label.textContent);
        });
      }
      for (const [position, seen] of decimals) {
        if (seen.size > 1) {
          problems.push(
            "precision: #" + chart.id + " has value labels at " + seen.size +
              " precisions (number " + (position + 1) + "): " +
              Array.from(seen.values()).map((text) => JSON.stringify(text)).join(", ")
          );
        }
      }
    }
  }

  // Labels inside their chart, whole, apart.
  let texts = 0;
  for (const chart of charts) {
    const edge = chart.getBoundingClientRect();
    const boxes = [];
    for (const text of chart.querySelectorAll("text")) {
      const box = text.getBoundingClientRect();
      if (box.width === 0 || box.height === 0) continue;
      texts += 1;
      const content = text.textContent;
      if (content.includes("…")) {
        problems.push("truncated: #" + chart.id + " label " + JSON.stringify(content) + " is cut");
      }
      if (
        box.left < edge.left - 1 || box.right > edge.right + 1 ||
        box.top < edge.top - 1 || box.bottom > edge.bottom + 1
      ) {
        problems.push(
          "truncated: #" + chart.id + " label " + JSON.stringify(content) +
            " runs past the chart's edge"
        );
      }
      for (const [other, otherContent] of boxes) {
        const x = Math.min(box.right, other.right) - Math.max(box.left, other.left);
        const y = Math.min(box.bottom, other.bottom) - Math.max(box.top, other.top);
        if (x > 3 && y > 3) {
          problems.push(
            "overlap: #" + chart.id + " labels " + JSON.stringify(otherContent) + " and " +
              JSON.stringify(content) + " overlap"
          );
        }
      }
      boxes.push([box, content]);
    }
  }

  const report = document.createElement("pre");
  report.id = "browser-layout";
  report.textContent = JSON.stringify({
    charts: charts.length,
    texts: texts,
    panels: panels,
    policies: drawn.size,
    problems: problems,
  });
  document.body.appendChild(report);
})();
