extension HTMLReport {
  /// The page's CSS: system fonts, light and dark colours (`prefers-color-scheme`), chart
  /// colours through custom properties (``ChartPalette/css``), and print rules (light
  /// colours, no page break inside a figure, details opened).
  static var stylesheet: String {
    """
    :root{color-scheme:light dark;--bg:#ffffff;--fg:#1c2230;--muted:#5a6374;--line:#d9dde4;\
    --grid:#e9ecf0;--panel:#f7f8fa;--best:#e3f1e8;--band:rgba(213,94,0,.07);\
    --deadline:#b34700;--front:#1c2230}
    @media (prefers-color-scheme:dark){:root{--bg:#14171c;--fg:#e3e6eb;--muted:#9aa2b1;\
    --line:#323945;--grid:#262c35;--panel:#1a1e25;--best:#1d3527;\
    --band:rgba(230,159,0,.09);--deadline:#f0a45e;--front:#e3e6eb}}
    *{box-sizing:border-box}
    html{-webkit-text-size-adjust:100%}
    body{margin:0;background:var(--bg);color:var(--fg);font:15px/1.55 system-ui,-apple-system,\
    "Segoe UI",Roboto,"Helvetica Neue","Liberation Sans","DejaVu Sans",Arial,sans-serif}
    main{max-width:1060px;margin:0 auto;padding:28px 24px 56px}
    h1{font-size:28px;line-height:1.2;margin:2px 0 6px;word-break:break-word}
    h2{font-size:19px;margin:0 0 12px}
    code{font-family:ui-monospace,"SF Mono",Menlo,Consolas,"DejaVu Sans Mono",monospace;\
    font-size:.9em}
    footer code{word-break:break-all}
    .facts code{font-size:.85em;word-break:break-word}
    .kicker{margin:0;color:var(--muted);font-size:13px;letter-spacing:.06em;text-transform:uppercase}
    .lede{margin:0 0 16px;color:var(--muted);max-width:72ch}
    .facts{display:grid;grid-template-columns:repeat(auto-fill,minmax(150px,1fr));gap:10px 18px;\
    margin:18px 0 8px;padding:14px 16px;border:1px solid var(--line);border-radius:8px}
    .facts div{min-width:0}
    .facts dt{font-size:12px;color:var(--muted);text-transform:uppercase;letter-spacing:.05em}
    .facts dd{margin:2px 0 0;font-weight:600}
    .panel{margin:26px 0 0;padding:20px 22px;border:1px solid var(--line);border-radius:10px}
    .summary{background:var(--panel)}
    .summary p{margin:0;font-size:16px;max-width:90ch}
    figure{margin:0}
    figcaption,.note{color:var(--muted);font-size:13.5px;margin-top:8px;max-width:100ch}
    .table-wrap{overflow-x:auto}
    table{border-collapse:collapse;width:100%;font-variant-numeric:tabular-nums}
    th,td{padding:7px 10px;border-bottom:1px solid var(--line);text-align:right;\
    vertical-align:top;white-space:nowrap}
    th:first-child,td:first-child{text-align:left}
    thead th{font-size:13px;font-weight:600;vertical-align:bottom;white-space:normal}
    tbody th{font-weight:600}
    .headline .mean{font-weight:600}
    .ci{color:var(--muted);font-size:12.5px}
    .headline .ci{display:block}
    .headline thead th{min-width:96px}
    td.best{background:var(--best)}
    td.best .mean{font-weight:800}
    tr.baseline th{font-style:italic}
    .tag{font-size:11px;font-style:normal;font-weight:500;color:var(--muted);\
    border:1px solid var(--line);border-radius:4px;padding:0 4px;margin-left:4px}
    .swatch{display:inline-block;width:1.1em;margin-right:6px;color:var(--series);\
    text-align:center}
    details{margin-top:12px}
    summary{cursor:pointer;color:var(--muted);font-size:14px}
    details table{margin-top:8px;font-size:13.5px}
    .pair{display:grid;grid-template-columns:1fr 1fr;gap:18px}
    .value{white-space:nowrap}
    @media (max-width:760px){.pair{grid-template-columns:1fr}main{padding:18px 12px}\
    .panel{padding:14px 12px}}
    footer{margin-top:28px;color:var(--muted);font-size:13px}
    svg.chart{display:block;width:100%;height:auto;overflow:visible;color:var(--fg);\
    font-family:inherit;font-size:12px}
    svg.chart text{fill:currentColor}
    svg.chart .tick-label,svg.chart .hint{fill:var(--muted)}
    svg.chart .axis-title{font-size:12.5px;font-weight:600}
    svg.chart .panel-title{font-size:14px;font-weight:700}
    svg.chart .grid{stroke:var(--grid);stroke-width:1}
    svg.chart .domain,svg.chart .tick{stroke:var(--muted);stroke-width:1}
    svg.chart .series-line{fill:none;stroke:var(--series);stroke-width:2.25;\
    stroke-linejoin:round;stroke-linecap:round}
    svg.chart .bar{fill:var(--series);stroke:var(--fg);stroke-opacity:.35;stroke-width:.75}
    svg.chart .whisker line{stroke:var(--fg);stroke-width:1.4}
    svg.chart .whisker[class*=series-] line{stroke:var(--series);stroke-width:1.6}
    svg.chart .point{fill:var(--series);stroke:var(--bg);stroke-width:1.5}
    svg.chart .point.dominated{fill:var(--bg);stroke:var(--series);stroke-width:2.25}
    svg.chart .bar-mark{fill:var(--bg)}
    svg.chart .leader{stroke:var(--muted);stroke-width:.75}
    svg.chart .front{fill:none;stroke:var(--front);stroke-width:2;stroke-dasharray:6 4}
    svg.chart .front-region{fill:var(--front);fill-opacity:.035;stroke:none}
    svg.chart .reference{stroke:var(--front);stroke-width:1.5;stroke-dasharray:5 4}
    svg.chart .deadline{stroke:var(--deadline);stroke-width:1.5;stroke-dasharray:6 4}
    svg.chart .deadline-label{fill:var(--deadline);font-weight:600}
    svg.chart .deadline-band{fill:var(--band)}
    svg.chart .value-label{font-size:11px;fill:var(--muted)}
    svg.chart .point-label,svg.chart .deadline-label,svg.chart .value-label{paint-order:stroke;\
    stroke:var(--bg);stroke-width:3px;stroke-linejoin:round}
    svg.chart .point-label{font-size:12px;font-weight:700}
    svg.chart .line-label{font-size:12px;paint-order:stroke;stroke:var(--bg);stroke-width:3px}
    svg.chart .point-label.dominated{font-weight:400;fill:var(--muted)}
    \(ChartPalette.css)
    @media print{:root{--bg:#fff;--fg:#000;--muted:#444;--line:#bbb;--grid:#e4e4e4;\
    --panel:#f4f4f4;--best:#e3f1e8;--deadline:#a04000;--front:#000}
    body{font-size:10.5pt}main{max-width:none;padding:0}
    .panel,figure,table,tr{break-inside:avoid}
    .panel{border-color:#bbb}
    details>summary{display:none}
    *{-webkit-print-color-adjust:exact;print-color-adjust:exact}
    @page{margin:14mm}}
    """
  }
}
