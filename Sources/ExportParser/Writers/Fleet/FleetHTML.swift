/// `fleet.html`: one self-contained page (inline CSS and one inline script; nothing from the
/// network) for the engineer deciding who can switch HAE off: the counts, a table of people
/// sortable by any column (click a heading; `fleet.html#sort=person` or `#sort=status-desc`
/// opens it sorted), each person linking to their own `PERSON/compare.html`, one bar a field
/// (how many people it holds and fails for) and the most common reasons.
enum FleetHTML {
    static func render(_ report: FleetReport) -> String {
        let escape = CompareHTML.escape
        let n = report.people.count
        var h = """
            <!DOCTYPE html>
            <html lang="en"><head><meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <title>Migration check: \(n) \(n == 1 ? "person" : "people")</title>
            <style>\(css)</style></head><body>
            <h1>Native HealthKit vs Health Auto Export: \(n) \(n == 1 ? "person" : "people")</h1>
            <p class="window">\(report.mode == .validate ? "Validation of \(report.days) dates" : "Monitoring of \(report.monitor ?? 0) dates up to \(escape(report.until ?? ""))") a person</p>

            """
        h +=
            "<section class=\"verdict \(report.allReady ? "pass" : "fail")\"><h2>\(report.allReady ? "Everyone is ready" : "Not everyone is ready")</h2><ul class=\"counts\">"
        for (status, count) in report.counts {
            h += "<li class=\"\(status.rawValue)\"><b>\(count)</b> \(status.words)</li>"
        }
        h += "</ul></section>\n"

        h += "<section><h2>People</h2><table id=\"people\"><thead><tr>"
        for (i, title) in ["person", "status", "native dates", "HAE dates", "failing fields", "reason"].enumerated() {
            h += "<th data-col=\"\(i)\" data-key=\"\(["person", "status", "native", "hae", "fields", "reason"][i])\">\(title)</th>"
        }
        h += "</tr></thead><tbody>\n"
        for p in report.people {
            let name =
                p.report.map { "<a href=\"\(escape(href($0)))\">\(escape(p.person))</a>" } ?? escape(p.person)
            let fields = p.failing.map { f in
                "<span class=\"field\">\(escape(GapFinder.name(f.field)))</span> \(escape(f.dates.joined(separator: ", ")))"
            }.joined(separator: "<br>")
            h += "<tr class=\"\(p.status.rawValue)\">"
            h += "<td data-v=\"\(escape(p.person))\">\(name)</td>"
            h += "<td data-v=\"\(p.status.rank)\">\(p.status.words)</td>"
            h += "<td class=\"n\" data-v=\"\(p.nativeDates ?? -1)\">\(p.nativeDates.map(String.init) ?? "—")</td>"
            h += "<td class=\"n\" data-v=\"\(p.haeDates ?? -1)\">\(p.haeDates.map(String.init) ?? "—")</td>"
            h += "<td data-v=\"\(p.failing.count)\">\(fields)</td><td data-v=\"\(escape(p.reason))\">\(escape(p.reason))</td></tr>\n"
        }
        h += "</tbody></table></section>\n"

        if !report.fields.isEmpty {
            h += "<section><h2>Per field, across people</h2><div class=\"bars\">"
            for f in report.fields {
                let total = max(1, f.holds + f.fails.count)
                let holds = Double(f.holds) * 100 / Double(total), fails = Double(f.fails.count) * 100 / Double(total)
                h += "<div class=\"bar\" data-field=\"\(escape(f.field))\"><span class=\"label\">\(escape(GapFinder.name(f.field)))</span>"
                h += "<span class=\"track\"><span class=\"holds\" style=\"width:\(JSONValue.format(holds, decimals: 1))%\"></span>"
                h += "<span class=\"fails\" style=\"width:\(JSONValue.format(fails, decimals: 1))%\"></span></span>"
                h += "<span class=\"num\">holds for \(f.holds), fails for \(f.fails.count)</span></div>"
            }
            h += "</div></section>\n"
        }
        if !report.causes.isEmpty {
            h += "<section><h2>Most common reasons</h2><ol class=\"causes\">"
            for c in report.causes {
                h +=
                    "<li><b>\(c.people.count)</b> \(c.people.count == 1 ? "person" : "people"): \(escape(c.cause)) <span class=\"who\">(\(escape(c.people.joined(separator: ", "))))</span></li>"
            }
            h += "</ol></section>\n"
        }
        h += "<footer>Every person's own check: their compare.html (linked above). health-import compare --everyone</footer>\n"
        h += "<script>\(script)</script></body></html>\n"
        return h
    }

    /// A relative link to a person's report: the folder name's `%` written `%25`, so the
    /// browser opens the folder whose name holds `%2F` rather than a path with a `/`.
    static func href(_ path: String) -> String { path.replacingOccurrences(of: "%", with: "%25") }

    /// Sorting by a heading (numbers by number, text by text; a second click reverses), and the
    /// sort named in the address (`#sort=person`, `#sort=status-desc`) once loaded.
    static let script = """
        (function(){var t=document.getElementById('people');if(!t)return;var body=t.tBodies[0];
        function sort(col,desc){var rows=Array.prototype.slice.call(body.rows);rows.sort(function(a,b){
        var x=a.cells[col].getAttribute('data-v'),y=b.cells[col].getAttribute('data-v');
        var nx=parseFloat(x),ny=parseFloat(y);var c=(!isNaN(nx)&&!isNaN(ny))?nx-ny:x.localeCompare(y);
        if(c===0)c=a.cells[0].getAttribute('data-v').localeCompare(b.cells[0].getAttribute('data-v'));return desc?-c:c;});
        rows.forEach(function(r){body.appendChild(r);});var hs=t.tHead.rows[0].cells;
        for(var i=0;i<hs.length;i++){hs[i].className=i===col?(desc?'desc':'asc'):'';}}
        var hs=t.tHead.rows[0].cells;for(var i=0;i<hs.length;i++){(function(i){hs[i].addEventListener('click',function(){
        sort(i,hs[i].className==='asc');});})(i);}
        var m=/sort=([a-z]+)(-desc)?/.exec(location.hash);if(m){for(var j=0;j<hs.length;j++){
        if(hs[j].getAttribute('data-key')===m[1])sort(j,!!m[2]);}}})();
        """

    static let css = """
        body{font:14px/1.45 system-ui,-apple-system,"Segoe UI",sans-serif;margin:24px auto;max-width:1100px;padding:0 16px;color:#1d1d1f}
        h1{font-size:22px;margin:0 0 4px}h2{font-size:17px;margin:0 0 8px}.window{color:#555;margin:0 0 16px}section{margin:0 0 24px}
        .verdict{border-radius:8px;padding:14px 18px}.verdict.pass{background:#e7f6ea;border:1px solid #6cc381}.verdict.fail{background:#fdecec;border:1px solid #e58c8c}
        .counts{list-style:none;padding:0;margin:8px 0;display:flex;flex-wrap:wrap;gap:8px 18px}.counts b{font-size:18px}
        table{border-collapse:collapse;width:100%;font-size:13px}th,td{padding:4px 8px;border-bottom:1px solid #e4e4e7;text-align:left;vertical-align:top}
        th{cursor:pointer;user-select:none;white-space:nowrap}th.asc:after{content:" ▲"}th.desc:after{content:" ▼"}td.n{text-align:right;font-variant-numeric:tabular-nums}
        td:first-child{white-space:nowrap}tr.app-stopped td:nth-child(2){color:#7f1d1d;font-weight:700}tr.not-ready td:nth-child(2){color:#b42318;font-weight:600}
        tr.not-enough-data td:nth-child(2){color:#9a6700}tr.ready td:nth-child(2){color:#1e7b34}.field{font-family:ui-monospace,monospace;font-size:12px}
        .bars{display:grid;gap:4px}.bar{display:grid;grid-template-columns:220px 1fr 190px;align-items:center;gap:8px;font-size:13px}
        .track{display:flex;height:12px;background:#f1f1f3;border-radius:3px;overflow:hidden}.holds{background:#4caf68}.fails{background:#dc2626}
        .num{color:#555;font-variant-numeric:tabular-nums}.who{color:#666}footer{color:#777;font-size:12px;border-top:1px solid #e4e4e7;padding-top:8px}
        """
}
