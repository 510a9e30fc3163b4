package dev.tokentrace.report.render.html;

/** The report page's inline style sheet (no external font or resource). */
final class HtmlStyle {
  static final String CSS =
      "\n:root{--fg:#1d2330;--mute:#5d6678;--line:#e3e6ec;--bg:#f5f6f9;--card:#fff;"
          + "--accent:#2f7fc1}\n"
          + "*{box-sizing:border-box}\n"
          + "body{margin:0;background:var(--bg);color:var(--fg);"
          + "font:14px/1.45 -apple-system,'Segoe UI',Roboto,'Helvetica Neue',Arial,sans-serif}\n"
          + "main{max-width:1320px;margin:0 auto;padding:24px 28px 60px}\n"
          + "h1{font-size:26px;margin:0 0 4px}h2{font-size:19px;margin:0 0 12px}"
          + "h3{font-size:15px;margin:18px 0 8px;color:var(--mute)}\n"
          + "section{background:var(--card);border:1px solid var(--line);border-radius:10px;"
          + "padding:18px 22px;margin:16px 0}\n"
          + ".meta{color:var(--mute);margin-bottom:14px;word-break:break-all}\n"
          + ".cards{display:grid;grid-template-columns:repeat(auto-fit,minmax(170px,1fr));"
          + "gap:12px}\n"
          + ".toc{display:flex;flex-wrap:wrap;gap:4px 16px;margin:10px 0 4px;font-size:13.5px}"
          + ".toc a{color:var(--accent);text-decoration:none}.toc a:hover{text-decoration:underline}\n"
          + ".card{background:var(--card);border:1px solid var(--line);border-radius:10px;"
          + "padding:12px 16px}\n"
          + ".card .k{color:var(--mute);font-size:12px;text-transform:uppercase;"
          + "letter-spacing:.04em}.card .v{font-size:22px;font-weight:600;margin-top:2px}"
          + ".card .s{color:var(--mute);font-size:12px}\n"
          + "p.lead{font-size:15px;margin:0 0 10px}\n"
          + "code{font:12.5px/1.3 ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;"
          + "background:#eef1f6;border-radius:4px;padding:1px 4px;overflow-wrap:anywhere}\n"
          + ".run{border-top:1px solid var(--line);padding:9px 0}"
          + ".run:first-of-type{border-top:0}\n"
          + ".run .rh{display:flex;flex-wrap:wrap;gap:6px;align-items:center;margin-bottom:3px}\n"
          + ".chip{display:inline-block;border-radius:10px;padding:1px 9px;font-size:12px;"
          + "background:#eef1f6;color:var(--fg)}\n"
          + ".chip.v{color:#fff;font-weight:600}.chip.sig{background:#fff4e5;color:#8a4b00}\n"
          + ".run p{margin:0;color:#333}\n"
          + ".tw{overflow-x:auto;max-height:640px;overflow-y:auto}\n"
          + "table{border-collapse:collapse;width:100%;font-size:13px}\n"
          + "th,td{padding:5px 9px;border-bottom:1px solid var(--line);text-align:left;"
          + "vertical-align:top;white-space:nowrap}\n"
          + "td.w{white-space:normal;min-width:min(320px,60vw)}\n"
          + "th{position:sticky;top:0;background:#fafbfc;font-weight:600;white-space:normal;"
          + "vertical-align:bottom;min-width:4.5em}\n"
          + "td.n,th.n{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}\n"
          + "table.sortable th{cursor:pointer}table.sortable th:hover{background:#eef3fa}\n"
          + "th[aria-sort=ascending]::after{content:' \\25B2'}"
          + "th[aria-sort=descending]::after{content:' \\25BC'}\n"
          + "ul{margin:6px 0;padding-left:20px}li{margin:3px 0}\n"
          + "svg{width:100%;height:auto;display:block;margin:6px 0 4px}\n"
          + "svg.cdf{max-width:760px}svg.wide{max-width:1180px}\n"
          + "svg text{font:11.5px -apple-system,'Segoe UI',Roboto,Arial,sans-serif;fill:#444}\n"
          + "svg .lg{font-size:12px;fill:#333}svg .mk{font-size:10px;fill:#b3361b}\n"
          + "svg .gr{stroke:#e8eaef;stroke-width:1}\n"
          + ".note{color:var(--mute);font-size:12.5px;margin:4px 0 8px}\n"
          + ".grid2{display:grid;grid-template-columns:repeat(auto-fit,minmax(min(520px,100%),1fr));"
          + "gap:8px 24px}.grid2>*{min-width:0}\n"
          + "section{min-width:0;overflow-x:auto}\n"
          // narrow screens: less padding and larger body text; charts keep their layout (their
          // labels are placed for their own font size), and a wide chart keeps at least 960 px
          // so that its 11.5 px text stays at least 11 px on screen: its section scrolls sideways
          // instead (a grid item or section otherwise clips a wide table or chart)
          + "@media (max-width:900px){main{padding:14px 10px 40px}"
          + "section{padding:14px 12px}body{font-size:15px}h1{font-size:22px}"
          + "svg.wide{min-width:960px}}\n";

  private HtmlStyle() {}
}
