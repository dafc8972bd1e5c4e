//! The report as one self-contained HTML file: no network, no external script or font; the
//! charts are inline SVG, the table sorts with a few lines of inline script. Every name and
//! message from the inputs is escaped twice over: control and bidi characters as for a
//! terminal, then HTML's own.

use super::model::{EngineReport, LatencyRow, Place, Report};
use crate::rules::Histogram;
use std::fmt::Write as _;

const STYLE: &str = r#"
body{font-family:system-ui,sans-serif;margin:2em;color:#222;background:#fff}
h1{font-size:1.4em}h2{font-size:1.15em;margin-top:2em;border-bottom:1px solid #ccc}
table{border-collapse:collapse;margin:.5em 0}th,td{padding:.25em .6em;border-bottom:1px solid #eee;text-align:left}
th{background:#f4f4f4}th.sort{cursor:pointer}th.sort:after{content:" \2195";color:#999}
td.n{text-align:right;font-variant-numeric:tabular-nums}
.error{color:#b00020;font-weight:bold}.warning{color:#a66300}.note{color:#246}.chat{color:#777}
code{background:#f6f6f6;padding:0 .2em;font-size:.9em}
.charts{display:flex;flex-wrap:wrap;gap:1em}.chart{border:1px solid #eee;padding:.3em}
.muted{color:#777}
"#;

const SCRIPT: &str = r#"
document.querySelectorAll('table.sortable').forEach(function(t){
  t.querySelectorAll('th.sort').forEach(function(th,col){
    th.addEventListener('click',function(){
      var body=t.tBodies[0],rows=Array.prototype.slice.call(body.rows);
      var asc=th.getAttribute('data-dir')!=='asc';
      rows.sort(function(a,b){
        var x=a.cells[col].getAttribute('data-v')||a.cells[col].textContent;
        var y=b.cells[col].getAttribute('data-v')||b.cells[col].textContent;
        var nx=parseFloat(x),ny=parseFloat(y);
        var c=(!isNaN(nx)&&!isNaN(ny))?nx-ny:x.localeCompare(y);
        return asc?c:-c;});
      rows.forEach(function(r){body.appendChild(r);});
      t.querySelectorAll('th.sort').forEach(function(h){h.removeAttribute('data-dir');});
      th.setAttribute('data-dir',asc?'asc':'desc');
      t.setAttribute('data-sorted',col+(asc?' asc':' desc'));
    });
  });
});
// `report.html#sort=COLUMN` or `#sort=COLUMN-desc` opens the engine table sorted: a link to
// share, and how the test drives the sorting in a real browser.
var m=/^#sort=(\d+)(-desc)?$/.exec(location.hash);
var th=m&&document.querySelectorAll('#engines th.sort')[+m[1]];
if(th){th.click();if(m[2]){th.click();}}
"#;

/// Text from the inputs, made safe inside HTML.
fn esc(s: &str) -> String {
    let safe = crate::untrusted::escape(s);
    let mut out = String::with_capacity(safe.len());
    for c in safe.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

pub fn render(r: &Report) -> String {
    let mut o = String::new();
    let i = &r.inputs;
    let _ = write!(
        o,
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\
         <meta name=\"viewport\" content=\"width=device-width\">\
         <title>kibitzer report: {} engines, {} games</title><style>{STYLE}</style></head><body>\n",
        r.engines.len(),
        i.games
    );
    let _ = writeln!(
        o,
        "<h1>kibitzer report</h1><p>{} files, {} sessions, {} games, {} engines; deadline \
         profile <code>{}</code>; made by {}.</p>",
        i.files,
        i.sessions,
        i.games,
        r.engines.len(),
        esc(&r.profile),
        esc(&r.tool)
    );
    if i.unreadable > 0 {
        let _ = writeln!(
            o,
            "<p class=\"error\">{} inputs could not be read:</p><ul>",
            i.unreadable
        );
        for p in &i.unreadable_files {
            let _ = writeln!(
                o,
                "<li><code>{}</code>: {}</li>",
                esc(&p.file),
                esc(&p.error)
            );
        }
        o.push_str("</ul>\n");
    }
    engines_table(r, &mut o);
    findings_chart(r, &mut o);
    for (n, e) in r.engines.iter().enumerate() {
        engine(n, e, &mut o);
    }
    let _ = write!(o, "<script>{SCRIPT}</script>\n</body></html>\n");
    o
}

fn engines_table(r: &Report, o: &mut String) {
    o.push_str(
        "<h2>Engines</h2><table class=\"sortable\" id=\"engines\"><thead><tr>\
         <th class=\"sort\">engine</th><th class=\"sort\">protocols</th>\
         <th class=\"sort\">sessions</th><th class=\"sort\">games</th>\
         <th class=\"sort\">wins</th><th class=\"sort\">draws</th><th class=\"sort\">losses</th>\
         <th class=\"sort\">errors</th><th class=\"sort\">warnings</th>\
         <th class=\"sort\">faults</th><th class=\"sort\">go→bestmove p99 ms</th>\
         </tr></thead><tbody>\n",
    );
    for (n, e) in r.engines.iter().enumerate() {
        let faults: u64 = e
            .endings
            .iter()
            .filter(|x| x.ending.is_fault())
            .map(|x| x.kibitzer)
            .sum();
        let p99 = e
            .latencies
            .iter()
            .find(|l| l.request == "go→bestmove" || l.request == "on move→move")
            .map_or(String::new(), |l| format!("{:.1}", l.p99_ms));
        let _ = writeln!(
            o,
            "<tr><td><a href=\"#engine-{n}\">{}</a></td><td>{}</td><td class=\"n\">{}</td>\
             <td class=\"n\">{}</td><td class=\"n\">{}</td><td class=\"n\">{}</td>\
             <td class=\"n\">{}</td><td class=\"n\">{}</td><td class=\"n\">{}</td>\
             <td class=\"n\">{}</td><td class=\"n\">{}</td></tr>",
            esc(&e.engine),
            esc(&e.protocols.join(", ")),
            e.sessions,
            e.games,
            e.results.wins,
            e.results.draws,
            e.results.losses,
            e.findings.error,
            e.findings.warning,
            faults,
            p99
        );
    }
    o.push_str("</tbody></table>\n");
}

/// Errors, warnings and notes per engine, as stacked bars.
fn findings_chart(r: &Report, o: &mut String) {
    let max = r
        .engines
        .iter()
        .map(|e| e.findings.error + e.findings.warning + e.findings.note)
        .max()
        .unwrap_or(0)
        .max(1);
    let (label_w, bar_w, row_h) = (220.0, 420.0, 22.0);
    let h = row_h * r.engines.len() as f64 + 30.0;
    let _ = writeln!(
        o,
        "<h2>Findings per engine</h2><svg id=\"findings-chart\" xmlns=\"http://www.w3.org/2000/svg\" \
         width=\"{}\" height=\"{h}\" role=\"img\" aria-label=\"findings per engine\">",
        label_w + bar_w + 80.0
    );
    for (i, e) in r.engines.iter().enumerate() {
        let y = i as f64 * row_h + 4.0;
        let _ = writeln!(
            o,
            "<text x=\"{}\" y=\"{}\" text-anchor=\"end\" font-size=\"12\">{}</text>",
            label_w - 6.0,
            y + 13.0,
            esc(&e.engine)
        );
        let mut x = label_w;
        for (n, colour, what) in [
            (e.findings.error, "#b00020", "errors"),
            (e.findings.warning, "#e69500", "warnings"),
            (e.findings.note, "#5b8def", "notes"),
        ] {
            let w = n as f64 / max as f64 * bar_w;
            if n > 0 {
                let _ = writeln!(
                    o,
                    "<rect x=\"{x:.1}\" y=\"{y}\" width=\"{:.1}\" height=\"16\" fill=\"{colour}\">\
                     <title>{n} {what}</title></rect>",
                    w.max(1.0)
                );
            }
            x += w;
        }
        let total = e.findings.error + e.findings.warning + e.findings.note;
        let _ = writeln!(
            o,
            "<text x=\"{:.1}\" y=\"{}\" font-size=\"11\">{total}</text>",
            x + 4.0,
            y + 13.0
        );
    }
    let _ = writeln!(
        o,
        "<text x=\"{label_w}\" y=\"{}\" font-size=\"11\" fill=\"#b00020\">■ errors</text>\
         <text x=\"{}\" y=\"{}\" font-size=\"11\" fill=\"#e69500\">■ warnings</text>\
         <text x=\"{}\" y=\"{}\" font-size=\"11\" fill=\"#5b8def\">■ notes</text></svg>",
        h - 6.0,
        label_w + 80.0,
        h - 6.0,
        label_w + 180.0,
        h - 6.0
    );
}

fn engine(n: usize, e: &EngineReport, o: &mut String) {
    let _ = writeln!(
        o,
        "<h2 id=\"engine-{n}\">{}</h2><p>{} sessions, {} games: {} wins, {} draws, {} losses, \
         {} without a known result.</p>",
        esc(&e.engine),
        e.sessions,
        e.games,
        e.results.wins,
        e.results.draws,
        e.results.losses,
        e.results.unknown
    );
    if !e.endings.is_empty() {
        o.push_str(
            "<table><thead><tr><th>ending</th><th>as kibitzer judges</th><th>as the runner \
             said</th><th>the runner's, explained</th><th>where</th></tr></thead><tbody>\n",
        );
        for x in &e.endings {
            let _ = writeln!(
                o,
                "<tr><td>{}</td><td class=\"n\">{}</td><td class=\"n\">{}</td>\
                 <td class=\"n\">{}</td><td>{}{}</td></tr>",
                x.ending.as_str(),
                x.kibitzer,
                x.runner,
                x.explained,
                places(&x.places),
                if x.unexplained.is_empty() {
                    String::new()
                } else {
                    format!(" not explained: {}", places(&x.unexplained))
                }
            );
        }
        o.push_str("</tbody></table>\n");
    }
    if !e.rules.is_empty() {
        let _ = writeln!(
            o,
            "<table class=\"sortable\"><thead><tr><th class=\"sort\">rule</th>\
             <th class=\"sort\">severity</th><th class=\"sort\">side</th>\
             <th class=\"sort\">count</th><th class=\"sort\">sessions</th><th>first places</th>\
             </tr></thead><tbody>"
        );
        for r in &e.rules {
            let sev = r.severity.as_str();
            let _ = writeln!(
                o,
                "<tr><td><code>{}</code></td><td class=\"{sev}\" data-v=\"{}\">{sev}</td>\
                 <td>{}</td><td class=\"n\">{}</td><td class=\"n\">{}</td><td>{}</td></tr>",
                r.rule.as_str(),
                r.severity as u8,
                r.side.as_str(),
                r.count,
                r.sessions,
                places(&r.places)
            );
        }
        o.push_str("</tbody></table>\n");
    }
    for h in &e.hangs {
        let _ = writeln!(
            o,
            "<p>Hang <b>{} {}{}</b> in {} sessions: {}</p>",
            h.class.as_str(),
            esc(&h.label),
            h.process
                .map(|p| format!(" ({})", p.as_str()))
                .unwrap_or_default(),
            h.count,
            places(&h.places)
        );
    }
    if let Some(p) = &e.process {
        let _ = writeln!(o, "<p>Process: {}</p>", esc(&super::model::process_line(p)));
    }
    for v in &e.runner_verdicts {
        let _ = writeln!(
            o,
            "<p>The runner said <b>{}</b> {} times (kibitzer disagrees with {}): {}</p>",
            esc(&v.kind),
            v.count,
            v.kibitzer_disagrees,
            places(&v.places)
        );
    }
    if !e.latencies.is_empty() {
        o.push_str(
            "<table><thead><tr><th>latency (ms)</th><th>count</th><th>mean</th><th>p50</th>\
             <th>p90</th><th>p99</th><th>max</th></tr></thead><tbody>\n",
        );
        for l in &e.latencies {
            let _ = writeln!(
                o,
                "<tr><td>{}</td><td class=\"n\">{}</td><td class=\"n\">{:.2}</td>\
                 <td class=\"n\">{:.2}</td><td class=\"n\">{:.2}</td><td class=\"n\">{:.2}</td>\
                 <td class=\"n\">{:.2}</td></tr>",
                esc(&l.request),
                l.count,
                l.mean_ms,
                l.p50_ms,
                l.p90_ms,
                l.p99_ms,
                l.max_ms
            );
        }
        o.push_str("</tbody></table>\n<div class=\"charts\">\n");
        for l in &e.latencies {
            latency_chart(l, o);
        }
        o.push_str("</div>\n");
    }
}

fn places(ps: &[Place]) -> String {
    ps.iter()
        .map(|p| format!("<code>{}</code>", esc(&p.view)))
        .collect::<Vec<_>>()
        .join("<br>")
}

/// The distribution of one request type: a bar per bucket on a logarithmic time axis.
fn latency_chart(l: &LatencyRow, o: &mut String) {
    let h = &l.histogram;
    if h.count == 0 {
        return;
    }
    let (w, ht, pad) = (300.0_f64, 90.0_f64, 18.0_f64);
    let lo = (Histogram::lower_us(h.buckets.first().map_or(0, |b| b.0)).max(1) as f64).log10();
    let hi = (Histogram::lower_us(h.buckets.last().map_or(0, |b| b.0) + 1).max(2) as f64).log10();
    let span = (hi - lo).max(0.3);
    let top = h.buckets.iter().map(|b| b.1).max().unwrap_or(1) as f64;
    let x = |us: u64| (((us.max(1) as f64).log10() - lo) / span).clamp(0.0, 1.0) * w;
    let _ = writeln!(
        o,
        "<svg class=\"chart\" xmlns=\"http://www.w3.org/2000/svg\" width=\"{w}\" height=\"{}\" \
         role=\"img\" aria-label=\"{} distribution\"><text x=\"2\" y=\"11\" font-size=\"11\">{} \
         ({} answers)</text>",
        ht + pad * 2.0,
        esc(&l.request),
        esc(&l.request),
        h.count
    );
    for &(b, n) in &h.buckets {
        let x0 = x(Histogram::lower_us(b));
        let x1 = x(Histogram::lower_us(b + 1)).max(x0 + 1.0);
        let bh = n as f64 / top * ht;
        let _ = writeln!(
            o,
            "<rect x=\"{x0:.1}\" y=\"{:.1}\" width=\"{:.1}\" height=\"{bh:.1}\" fill=\"#5b8def\">\
             <title>{n} between {} and {}</title></rect>",
            pad + ht - bh,
            x1 - x0,
            ms(Histogram::lower_us(b)),
            ms(Histogram::lower_us(b + 1))
        );
    }
    let _ = writeln!(
        o,
        "<text x=\"0\" y=\"{}\" font-size=\"10\">{}</text><text x=\"{w}\" y=\"{}\" \
         font-size=\"10\" text-anchor=\"end\">{}</text></svg>",
        ht + pad * 2.0 - 2.0,
        ms(10f64.powf(lo) as u64),
        ht + pad * 2.0 - 2.0,
        ms(10f64.powf(hi) as u64)
    );
}

fn ms(us: u64) -> String {
    match us {
        u if u >= 1_000_000 => format!("{:.1} s", u as f64 / 1e6),
        u if u >= 1000 => format!("{:.1} ms", u as f64 / 1e3),
        u => format!("{u} µs"),
    }
}
