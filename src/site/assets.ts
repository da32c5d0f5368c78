/** The site's one stylesheet: light and dark from prefers-color-scheme, contrast of at least 4.5:1 for text, a print style. */
export const stylesheet = `
:root { color-scheme: light dark; --bg: #ffffff; --fg: #1b1f24; --muted: #4a5360; --line: #c9d1d9; --accent: #0a58ca; --panel: #f4f6f8;
  --accepted: #d9f2e0; --superseded: #e6e6e6; --proposed: #fff1c2; --deprecated: #fadbd8; --other: #e3ecfa; --block: #a4161a; --warn: #7a4d00; }
@media (prefers-color-scheme: dark) {
  :root { --bg: #0f1419; --fg: #e6edf3; --muted: #a9b4c0; --line: #3a444f; --accent: #79b8ff; --panel: #1a2129;
    --accepted: #1d4428; --superseded: #33383e; --proposed: #4d3d06; --deprecated: #5c1f1a; --other: #1f3350; --block: #ff9b9b; --warn: #f2c86b; }
}
* { box-sizing: border-box; }
body { margin: 0; font: 16px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; background: var(--bg); color: var(--fg); }
a { color: var(--accent); }
a:focus-visible, button:focus-visible, input:focus-visible, select:focus-visible { outline: 3px solid var(--accent); outline-offset: 2px; }
.skip { position: absolute; left: -10000px; }
.skip:focus { left: 1rem; top: 1rem; background: var(--bg); padding: .5rem; z-index: 10; }
header.site { border-bottom: 1px solid var(--line); padding: .75rem 1.5rem; display: flex; gap: 2rem; align-items: baseline; flex-wrap: wrap; }
header.site .brand { font-weight: 700; color: var(--fg); text-decoration: none; }
nav ul { list-style: none; margin: 0; padding: 0; display: flex; gap: 1.25rem; flex-wrap: wrap; }
nav a[aria-current="page"] { font-weight: 700; }
main { padding: 1rem 1.5rem 3rem; max-width: 72rem; }
main.wide { max-width: none; }
footer { border-top: 1px solid var(--line); padding: .75rem 1.5rem; color: var(--muted); font-size: .875rem; }
.filters { display: flex; gap: 1rem; flex-wrap: wrap; align-items: end; background: var(--panel); padding: .75rem; border-radius: 6px; margin-bottom: 1rem; }
.filters label { display: flex; flex-direction: column; font-size: .875rem; color: var(--muted); }
.filters input, .filters select { font: inherit; padding: .3rem .4rem; border: 1px solid var(--muted); border-radius: 4px; background: var(--bg); color: var(--fg); min-width: 10rem; }
table { border-collapse: collapse; width: 100%; }
.table-scroll { overflow-x: auto; }
th, td { text-align: left; padding: .4rem .6rem; border-bottom: 1px solid var(--line); vertical-align: top; }
th { font-size: .875rem; color: var(--muted); }
#log td:first-child { white-space: nowrap; }
tr.year-heading th { font-size: 1.125rem; color: var(--fg); padding-top: 1rem; border-bottom: 2px solid var(--line); }
.badge { display: inline-block; padding: 0 .45rem; border-radius: 999px; font-size: .8125rem; color: var(--fg); background: var(--other); white-space: nowrap; }
.badge.status-accepted { background: var(--accepted); } .badge.status-superseded { background: var(--superseded); }
.badge.status-proposed, .badge.status-draft { background: var(--proposed); } .badge.status-deprecated, .badge.status-rejected { background: var(--deprecated); }
.meta { color: var(--muted); }
dl.facts { display: grid; grid-template-columns: max-content 1fr; gap: .25rem 1rem; }
dl.facts dt { color: var(--muted); }
dl.facts dd { margin: 0; }
pre { background: var(--panel); padding: .75rem; overflow-x: auto; border-radius: 6px; }
code { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; font-size: .9em; }
blockquote { border-left: 4px solid var(--line); margin-left: 0; padding-left: 1rem; color: var(--muted); }
.violation-block { color: var(--block); } .violation-warn { color: var(--warn); }
.graph-wrap { overflow: auto; border: 1px solid var(--line); border-radius: 6px; }
svg.graph .node rect { stroke: var(--muted); stroke-width: 1; fill: var(--other); }
svg.graph .node.status-accepted rect { fill: var(--accepted); } svg.graph .node.status-superseded rect { fill: var(--superseded); }
svg.graph .node.status-proposed rect, svg.graph .node.status-draft rect { fill: var(--proposed); }
svg.graph .node.status-deprecated rect, svg.graph .node.status-rejected rect { fill: var(--deprecated); }
svg.graph .node:focus rect, svg.graph .node:hover rect { stroke: var(--accent); stroke-width: 3; }
svg.graph .node:focus { outline: none; }
svg.graph text { fill: var(--fg); font-size: 13px; } svg.graph .node-id { font-size: 11px; fill: var(--muted); }
svg.graph .edge { fill: none; stroke: var(--muted); stroke-width: 1.5; } svg.graph .edge-relates { stroke-dasharray: 4 4; opacity: .7; }
svg.graph .arrow-head { fill: var(--muted); }
.bars { list-style: none; padding: 0; } .bars li { display: grid; grid-template-columns: 18rem 1fr 3rem; gap: .75rem; align-items: center; margin: .25rem 0; }
.bar { height: .9rem; width: 100%; } .bar rect { fill: var(--accent); }
table.adherence .bar { width: 6rem; display: inline-block; vertical-align: middle; }
.columns rect { fill: var(--accent); } .baseline-table { width: auto; margin-top: 1rem; }
.count { text-align: right; font-variant-numeric: tabular-nums; }
[hidden] { display: none !important; }
@media print {
  header.site nav, .filters, .skip, footer { display: none; }
  body { background: #fff; color: #000; font-size: 11pt; }
  a { color: #000; }
  main a[href^="http"]::after { content: " (" attr(href) ")"; font-size: 9pt; }
  .graph-wrap { border: none; overflow: visible; }
  svg.graph { max-width: 100%; height: auto; }
}
`

/**
 * The index page's script: filters the decision log by type, status and layer and by the words of a small index
 * (search-index.js, a script rather than JSON so it loads from file:// too). Without script the whole log shows.
 */
export const logScript = `
(function () {
  var index = window.MK_SEARCH_INDEX || {};
  var form = document.getElementById('filters');
  if (!form) return;
  var rows = Array.prototype.slice.call(document.querySelectorAll('#log tbody tr[data-id]'));
  var years = Array.prototype.slice.call(document.querySelectorAll('#log tbody.year'));
  var status = document.getElementById('result-count');
  function words(text) { return text.toLowerCase().split(/[^\\p{L}\\p{N}]+/u).filter(Boolean); }
  function apply() {
    var query = words(form.elements.q.value);
    var type = form.elements.type.value, state = form.elements.status.value, layer = form.elements.layer.value;
    var shown = 0;
    rows.forEach(function (row) {
      var text = index[row.dataset.id] || '';
      var matches = query.every(function (word) { return text.indexOf(word) !== -1; })
        && (!type || row.dataset.type === type) && (!state || row.dataset.status === state) && (!layer || row.dataset.layer === layer);
      row.hidden = !matches;
      if (matches) shown++;
    });
    years.forEach(function (year) { year.hidden = !year.querySelector('tr[data-id]:not([hidden])'); });
    status.textContent = shown + ' of ' + rows.length + ' items shown';
  }
  form.addEventListener('input', apply);
  form.addEventListener('submit', function (event) { event.preventDefault(); apply(); });
  apply();
})();
`
